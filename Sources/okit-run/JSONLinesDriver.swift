import Foundation
import OKitEngine
import OKitLua

/// The JSON-lines protocol of screens.md: one command per line on stdin (`{"cmd":"open","id":"book"}`), one
/// answer per line on stdout (`{"ok":true,"snapshot":{…}}` or `{"ok":false,"error":"…"}`). A malformed line or
/// an unknown command answers an error and the session goes on; `quit` or the end of input ends it.
struct JSONLinesDriver {
    let app: LuaApp

    /// Answers commands until `quit`, the end of input or a stop signal. While it waits, timers of the system
    /// clock (autosave, `okit.after`) fire when they fall due.
    func run() {
        let reader = LineReader()
        while StopSignals.received == nil {
            switch reader.next(deadline: app.virtualClock == nil ? app.nextTimerDue : nil) {
            case .line(let line):
                if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                let (answer, quit) = handle(line)
                FileHandle.standardOutput.write(Data((answer + "\n").utf8))
                if quit { return }
            case .timeout:
                for e in app.fireTimers() { FileHandle.standardError.write(Data("okit-run: \(e)\n".utf8)) }
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
            parsed = line.data(using: .utf8).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        } else {
            parsed = CommandSyntax.command(trimmed)      // shell syntax works here too
        }
        guard let object = parsed, let cmd = object["cmd"] as? String else {
            return (error("malformed command: expected a JSON object with \"cmd\" (e.g. {\"cmd\":\"screen\"}) or shell syntax (e.g. tap 2)"), false)
        }
        return execute(cmd, object)
    }

    func execute(_ cmd: String, _ object: [String: Any]) -> (String, Bool) {
        do {
            if try DriverCommands.run(app.driver, cmd, object) { return ("{\"ok\":true}", true) }
            let snap = try app.shell.snapshot(offset: object["offset"] as? Int ?? 0, limit: object["limit"] as? Int ?? 200)
            return ("{\"ok\":true,\"snapshot\":\(snap.json)}", false)
        } catch {
            return (self.error("\(error)"), false)
        }
    }

    func error(_ message: String) -> String {
        "{\"ok\":false,\"error\":" + JSONText.quoted(message) + "}"
    }
}
