import Foundation
import OKitEngine
import OKitLua

/// The JSON-lines protocol of screens.md: one command per line on stdin (`{"cmd":"open","id":"book"}`), one
/// answer per line on stdout (`{"ok":true,"snapshot":{…}}` or `{"ok":false,"error":"…"}`). A malformed line or
/// an unknown command answers an error and the session goes on; `quit` or the end of input ends it.
struct JSONLinesDriver {
    let app: LuaApp

    func run() {
        while let line = readLine(strippingNewline: true) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let (answer, quit) = handle(line)
            FileHandle.standardOutput.write(Data((answer + "\n").utf8))
            if quit { break }
        }
    }

    func handle(_ line: String) -> (String, Bool) {
        guard let data = line.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let cmd = object["cmd"] as? String else {
            return (error("malformed command: expected a JSON object with \"cmd\", e.g. {\"cmd\":\"screen\"}"), false)
        }
        let shell = app.shell
        do {
            switch cmd {
            case "screen": break
            case "open":
                guard let id = object["id"] as? String else { return (error("open needs \"id\""), false) }
                try shell.open(id, context: object["context"] as? String)
            case "back": try shell.back()
            case "tab":
                guard let id = object["id"] as? String else { return (error("tab needs \"id\""), false) }
                try shell.tab(id)
            case "search":
                try shell.search(object["text"] as? String ?? "")
            case "tap":
                guard let row = object["row"] else { return (error("tap needs \"row\""), false) }
                try shell.tap(row: "\(row)")
            case "quick", "more", "accessory":
                guard let row = object["row"] else { return (error("\(cmd) needs \"row\""), false) }
                switch cmd {
                case "quick": try shell.quick(row: "\(row)")
                case "more": try shell.more(row: "\(row)")
                default: try shell.accessory(row: "\(row)")
                }
            case "add":
                try shell.add(text: object["text"] as? String)
            case "delete":
                guard let row = object["row"] else { return (error("delete needs \"row\""), false) }
                try shell.delete(row: "\(row)")
            case "respond":
                guard let action = object["action"] else { return (error("respond needs \"action\""), false) }
                try shell.respond("\(action)", fields: (object["fields"] as? [Any])?.map { "\($0)" } ?? [])
            case "edit":
                try shell.edit(object["on"] as? Bool ?? true)
            case "set":
                guard let cell = object["cell"] as? String else { return (error("set needs \"cell\""), false) }
                try shell.set(cell: cell, value: JSONLinesDriver.value(object["value"]))
            case "quit":
                return ("{\"ok\":true}", true)
            default:
                return (error("unknown or not yet available command \"\(cmd)\" (available: screen, open, back, tab, search, tap, quick, more, accessory, add, delete, respond, edit, set, quit)"), false)
            }
            let offset = object["offset"] as? Int ?? 0
            let limit = object["limit"] as? Int ?? 200
            let snap = try shell.snapshot(offset: offset, limit: limit)
            return ("{\"ok\":true,\"snapshot\":\(snap.json)}", false)
        } catch {
            return (self.error("\(error)"), false)
        }
    }

    /// A JSON value as an engine value.
    static func value(_ v: Any?) -> Value {
        switch v {
        case let n as NSNumber:
            // JSON true/false arrive as boolean NSNumbers (objCType "c"); 0 and 1 are numbers.
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            let d = n.doubleValue
            return d == d.rounded() && abs(d) < 9e15 ? .int(Int(d)) : .double(d)
        case let s as String: return .string(s)
        default: return .null
        }
    }

    func error(_ message: String) -> String {
        var w = ""
        for u in message.unicodeScalars {
            switch u {
            case "\"": w += "\\\""
            case "\\": w += "\\\\"
            case "\n": w += "\\n"
            default: if u.value < 0x20 { w += " " } else { w.unicodeScalars.append(u) }
            }
        }
        return "{\"ok\":false,\"error\":\"\(w)\"}"
    }
}
