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
    /// The store at `quit`, before it is answered (`QuitStore`).
    let quitStore: QuitStore

    /// By default the first answer carries the warnings of loading the app too.
    init(session: AppSession, warnings: WarningFeed? = nil, quitStore: QuitStore? = nil) {
        self.session = session
        self.warnings = warnings ?? WarningFeed(engine: session.engine)
        self.quitStore = quitStore ?? QuitStore { [session] in _ = try session.storeAtExit() }
    }

    /// Answers commands until `quit` (stored), `quit!`, the end of input or a stop signal. While it waits, timers
    /// of the system clock (autosave, `okit.after`) fire when they fall due.
    func run() -> SessionEnd {
        let reader = LineReader()
        while StopSignals.received == nil {
            switch reader.next(deadline: session.virtualClock == nil ? session.nextTimerDue : nil) {
            case .line(let line):
                let (answer, end) = handle(line)
                // A reader that went away (EPIPE) ends the session as the end of input does: the caller stores.
                if !JSONLinesDriver.writeOut(withWarnings(answer) + "\n") { return end ?? .ended }
                if let end { return end }
            case .tooLong(let bytes):
                if !JSONLinesDriver.writeOut(withWarnings(unread(LineReader.tooLongMessage(bytes))) + "\n") { return .ended }
            case .invalidUTF8(let at):
                if !JSONLinesDriver.writeOut(withWarnings(unread(LineReader.invalidUTF8Message(at))) + "\n") { return .ended }
            case .timeout:
                for e in session.fireTimers() { StandardStreams.error("okit-run: \(CommandLineAdvice.message(for: e))\n") }
            case .interrupted:
                continue
            case .end:
                return .ended
            }
        }
        return .ended
    }

    /// The answer to one line. Every line is answered, a blank one too (a client that writes a line and waits for
    /// its answer never blocks): a line answered without running a command is recorded (`--record`) as unread, so
    /// a replay answers the same error in its place. With the answer, how the session ends (nil: it goes on).
    func handle(_ line: String) -> (String, SessionEnd?) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return (unread(JSONLinesDriver.blankLine), nil) }
        if trimmed == QuitStore.force { return ("{\"ok\":true}", .quitWithoutStoring) }
        let parsed: [String: Any]?
        if trimmed.hasPrefix("{") {
            do throws(JSONTree.Failure) {
                parsed = JSONLinesDriver.object(try JSONTree.read(Array(line.utf8), nonFiniteWords: false)) as? [String: Any]
            } catch {
                return (unread("malformed command: \(error.message) at byte \(error.offset): nothing was done"), nil)
            }
        } else {
            parsed = CommandSyntax.command(trimmed, commands: session.driver.descriptions)      // shell syntax works here too
        }
        guard let object = parsed, let cmd = object["cmd"] as? String else {
            return (unread("malformed command: expected a JSON object with \"cmd\" (e.g. {\"cmd\":\"screen\"}) or shell syntax (e.g. tap 2)"), nil)
        }
        if cmd == QuitStore.force { return ("{\"ok\":true}", .quitWithoutStoring) }
        return execute(cmd, object)
    }

    /// The answer to a blank line.
    static let blankLine = "empty line: expected a command (e.g. {\"cmd\":\"screen\"}): nothing was done"

    /// An error answer for a line that ran no command, recorded as such.
    func unread(_ message: String) -> String {
        session.driver.recorder?.recordUnread(message)
        session.driver.flowRecorder?.recordUnread(message)
        return error(message)
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

    func execute(_ cmd: String, _ object: [String: Any]) -> (String, SessionEnd?) {
        if JSONLinesDriver.own.contains(cmd), let recorder = session.driver.recorder {
            recorder.record(cmd, [:])       // answered here, and again in a replay: the answers line up
            recorder.settle()
        }
        if cmd == "warnings" {
            // Every warning of the session (the answer's field lists them all, not only the new ones).
            let all = warnings.all
            _ = warnings.fresh()
            return ("{\"ok\":true,\"warnings\":" + JSONLinesDriver.array(all) + "}", nil)
        }
        if cmd == "commands" {
            // The command names this front end takes (`?` typed as a line asks for them, as in the terminal).
            return ("{\"ok\":true,\"commands\":" + JSONLinesDriver.array(session.driver.table.names + JSONLinesDriver.own) + "}", nil)
        }
        if cmd == "version" {
            return ("{\"ok\":true,\"okit\":\"\(JSONLinesDriver.okitVersion)\",\"protocol\":\(JSONLinesDriver.protocolVersion)}", nil)
        }
        let window: Window
        do {
            window = session.driver.table[cmd] == nil ? Window() : try Window(cmd, object)
            if try DriverCommands.run(session.driver, cmd, object, alsoKnown: JSONLinesDriver.own, fields: Window.fields) {
                // `quit` is answered after the store: ok when it worked, else an error and the session goes on.
                if let refusal = quitStore.attempt(force: "{\"cmd\":\"quit!\"}") { return (self.error(refusal), nil) }
                return ("{\"ok\":true}", .quit)
            }
        } catch let e as DriverCommands.Unread {
            return (unread(e.message), nil)
        } catch {
            return (self.error(CommandLineAdvice.message(for: error, in: session.shell.engine)), nil)
        }
        do {
            let snap = try session.shell.snapshot(offset: window.offset, limit: window.limit)
            return ("{\"ok\":true,\"snapshot\":\(snap.json),\"window\":{\"offset\":\(window.offset),\"limit\":\(window.limit)}}", nil)
        } catch {
            return (self.error(CommandLineAdvice.message(for: error, in: session.shell.engine)), nil)
        }
    }

    /// This front end's own commands (answered here, never recorded as commands of the app).
    static let own = ["warnings", "commands", "version"]

    /// okit's version, and the version of this protocol: it grows by one when an answer's existing fields change
    /// their meaning or go away (new commands and fields keep it).
    static let okitVersion = "0.1.0"
    static let protocolVersion = 1

    /// The rows an answer's snapshot holds: `offset` and `limit`, fields of any command (whole numbers ≥ 0;
    /// default 0 and 200). Another value is refused before the command runs.
    struct Window {
        static let fields: Set<String> = ["offset", "limit"]
        static let defaultLimit = 200
        var offset = 0
        var limit = Window.defaultLimit

        init() {}

        init(_ cmd: String, _ object: [String: Any]) throws {
            offset = try Window.read(cmd, "offset", object["offset"]) ?? 0
            limit = try Window.read(cmd, "limit", object["limit"]) ?? Window.defaultLimit
        }

        static func read(_ cmd: String, _ key: String, _ v: Any?) throws -> Int? {
            guard let v else { return nil }
            if let n = v as? NSNumber, String(cString: n.objCType) != "c", n.doubleValue == n.doubleValue.rounded(),
               n.doubleValue >= 0, n.doubleValue <= Double(Int32.max) {
                return n.intValue
            }
            let shown: String
            switch v {
            case let s as String: shown = "\"" + ShellError.brief(s) + "\""
            case let n as NSNumber: shown = String(cString: n.objCType) == "c" ? (n.boolValue ? "true" : "false") : "\(n)"
            case is NSNull: shown = "null"
            default: shown = "a list or object"
            }
            throw DriverCommands.Unread(message: "\(cmd): \(key) must be a whole number ≥ 0 (not \(shown)): nothing was done")
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
