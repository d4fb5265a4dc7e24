import Foundation
import OKitEngine

/// The driver's commands (screens.md "Commands"), shared by the JSON-lines protocol and the terminal shell.
enum DriverCommands {
    struct UsageError: Error { let message: String }

    static let available = "screen, open, back, tab, search, tap, quick, more, accessory, add, delete, respond, edit, set, help, quit"

    /// Runs a command; true when the session ends (`quit`).
    static func run(_ shell: AppShell, _ cmd: String, _ o: [String: Any]) throws -> Bool {
        func need(_ key: String) throws -> String {
            guard let v = o[key] else { throw UsageError(message: "\(cmd) needs \"\(key)\"") }
            return "\(v)"
        }
        switch cmd {
        case "screen", "help": break
        case "open": try shell.open(try need("id"), context: o["context"] as? String)
        case "back": try shell.back()
        case "tab": try shell.tab(try need("id"))
        case "search": try shell.search(o["text"] as? String ?? "")
        case "tap": try shell.tap(row: try need("row"))
        case "quick": try shell.quick(row: try need("row"))
        case "more": try shell.more(row: try need("row"))
        case "accessory": try shell.accessory(row: try need("row"))
        case "add": try shell.add(text: o["text"] as? String)
        case "delete": try shell.delete(row: try need("row"))
        case "respond": try shell.respond(try need("action"), fields: (o["fields"] as? [Any])?.map { "\($0)" } ?? [])
        case "edit": try shell.edit(o["on"] as? Bool ?? true)
        case "set": try shell.set(cell: try need("cell"), value: JSONLinesDriver.jsonValue(o["value"]))
        case "quit": return true
        default: throw UsageError(message: "unknown or not yet available command \"\(cmd)\" (available: \(available))")
        }
        return false
    }
}
