import Foundation
import OKitEngine
import OKitLua

/// The JSON-lines protocol of screens.md: one command per line on stdin (`{"cmd":"open","id":"book"}`), one
/// answer per line on stdout (`{"ok":true,"snapshot":{…}}` or `{"ok":false,"error":"…"}`). A malformed line or
/// an unknown command answers an error and the session goes on; `quit` or the end of input ends it. A line past
/// `LineReader.maxLineBytes` is answered with an error naming its size, unread.
/// Warnings logged since the previous answer (those of loading the app in the first) come in its `warnings`
/// field; the ones no answer carried are printed to stderr at exit, so stdout stays pure JSON lines.
struct JSONLinesDriver {
    let session: AppSession
    let warnings: WarningFeed

    /// By default the first answer carries the warnings of loading the app too.
    init(session: AppSession, warnings: WarningFeed? = nil) {
        self.session = session
        self.warnings = warnings ?? WarningFeed(engine: session.engine)
    }

    /// Answers commands until `quit`, the end of input or a stop signal. While it waits, timers of the system
    /// clock (autosave, `okit.after`) fire when they fall due.
    func run() {
        let reader = LineReader()
        while StopSignals.received == nil {
            switch reader.next(deadline: session.virtualClock == nil ? session.nextTimerDue : nil) {
            case .line(let line):
                if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                let (answer, quit) = handle(line)
                // A reader that went away (EPIPE) ends the session as the end of input does: the caller stores.
                if !JSONLinesDriver.writeOut(withWarnings(answer) + "\n") { return }
                if quit { return }
            case .tooLong(let bytes):
                if !JSONLinesDriver.writeOut(withWarnings(error(LineReader.tooLongMessage(bytes))) + "\n") { return }
            case .timeout:
                for e in session.fireTimers() { StandardStreams.error("okit-run: \(CommandLineAdvice.message(for: e))\n") }
            case .interrupted:
                continue
            case .end:
                return
            }
        }
    }

    func handle(_ line: String) -> (String, Bool) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let parsed: [String: Any]?
        if trimmed.hasPrefix("{") {
            parsed = JSONTree.parse(Array(line.utf8), nonFiniteWords: false).map(JSONLinesDriver.object) as? [String: Any]
        } else {
            parsed = CommandSyntax.command(trimmed, commands: session.driver.descriptions)      // shell syntax works here too
        }
        guard let object = parsed, let cmd = object["cmd"] as? String else {
            return (error("malformed command: expected a JSON object with \"cmd\" (e.g. {\"cmd\":\"screen\"}) or shell syntax (e.g. tap 2)"), false)
        }
        return execute(cmd, object)
    }

    /// A JSON value read by the engine's codec in the shape the command layer takes (`CommandSyntax`'s too):
    /// objects as dictionaries (the last of a repeated key), arrays, strings, numbers and booleans as
    /// `NSNumber` (a boolean's `objCType` is "c"), null as `NSNull`.
    static func object(_ tree: JSONTree) -> Any {
        switch tree {
        case .null: return NSNull()
        case .bool(let b): return NSNumber(value: b)
        case .int(let n): return NSNumber(value: n)
        case .double(let d): return NSNumber(value: d)
        case .string(let s): return s
        case .array(let items): return items.map(object)
        case .object(let members):
            var o: [String: Any] = [:]
            for (key, value) in members { o[key] = object(value) }
            return o
        }
    }

    func execute(_ cmd: String, _ object: [String: Any]) -> (String, Bool) {
        if cmd == "warnings" {
            // Every warning of the session (the answer's field lists them all, not only the new ones).
            let all = warnings.all
            _ = warnings.fresh()
            return ("{\"ok\":true,\"warnings\":" + JSONLinesDriver.array(all) + "}", false)
        }
        if cmd == "commands" {
            // The command names this front end takes (`?` typed as a line asks for them, as in the terminal).
            return ("{\"ok\":true,\"commands\":" + JSONLinesDriver.array(session.driver.table.names + ["warnings", "commands"]) + "}", false)
        }
        do {
            if try DriverCommands.run(session.driver, cmd, object, alsoKnown: ["warnings", "commands"]) { return ("{\"ok\":true}", true) }
            let snap = try session.shell.snapshot(offset: object["offset"] as? Int ?? 0, limit: object["limit"] as? Int ?? 200)
            return ("{\"ok\":true,\"snapshot\":\(snap.json)}", false)
        } catch {
            return (self.error(CommandLineAdvice.message(for: error)), false)
        }
    }

    /// The answer with a `warnings` field when warnings were logged since the previous answer.
    func withWarnings(_ answer: String) -> String {
        let fresh = warnings.fresh()
        guard !fresh.isEmpty, answer.hasSuffix("}") else { return answer }
        return answer.dropLast() + ",\"warnings\":" + JSONLinesDriver.array(fresh) + "}"
    }

    /// Writes all of `text` to stdout; false when stdout is broken (its reader closed it: EPIPE) or fails.
    static func writeOut(_ text: String) -> Bool { StandardStreams.output(text) }

    static func array(_ texts: [String]) -> String {
        "[" + texts.map { JSONText.quoted($0) }.joined(separator: ",") + "]"
    }

    func error(_ message: String) -> String {
        "{\"ok\":false,\"error\":" + JSONText.quoted(message) + "}"
    }
}
