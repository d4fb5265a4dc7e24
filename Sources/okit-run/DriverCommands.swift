import Foundation
import OKitEngine

/// Turns JSON-lines and shell commands into driver calls: a command object's fields become named arguments.
enum DriverCommands {
    /// Runs a command object (`{"cmd": NAME, …}`); true when the session ends (`quit`). An unknown name fails
    /// with the nearest command name (`alsoKnown`: the front end's own commands, suggested too). A field that is
    /// none of the command's arguments (nor of `fields`, the front end's own: the answer's window) is said in a
    /// warning and not read — a misspelled optional argument is never dropped without a word.
    static func run(_ driver: Driver, _ cmd: String, _ o: [String: Any], alsoKnown: [String] = [],
                    fields: Set<String> = []) throws -> Bool {
        let names = driver.table.names
        guard let command = driver.table[cmd] else {
            // Words other programs end with (`exit`) name the command that does it here.
            let meant = ["exit", "bye", "logout", "q"].contains(cmd.lowercased()) && names.contains("quit")
                ? " (to end the session: quit)" : suggestion(cmd, names + alsoKnown)
            throw Unread(message: "unknown command \"\(ShellError.brief(cmd))\""
                + (meant ?? " (commands: \((names + alsoKnown).joined(separator: ", ")))"))
        }
        let known = command.description.argumentNames
        for key in o.keys.sorted() where key != "cmd" && !known.contains(key) && !fields.contains(key) {
            // Said in the answer's warnings, the command run without it: a program sending a field of its own
            // (a request id) keeps working, and a misspelled one is never dropped without a word.
            let takes = known.isEmpty ? "\(cmd) takes no arguments" : "\(cmd) takes \(known.joined(separator: ", "))"
            driver.shell.engine.warn("\(cmd): unknown field \"\(ShellError.brief(key))\""
                + (suggestion(key, known).map { String($0.dropLast()) + "; \(takes))" } ?? " (\(takes))") + ": not read")
        }
        var args: [String: Value] = [:]
        for (k, v) in o where k != "cmd" && known.contains(k) { args[k] = value(v) }
        return try driver.run(cmd, args)
    }

    /// A line answered before any command ran: an unknown command name or field (a session log records it as
    /// unread, so a replay answers the same error in its place).
    struct Unread: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// ` (did you mean "tap"?)` for the known name nearest to `name` (edit distance, case-insensitive), when it is
    /// near enough (at most 2 edits, or a third of the name); nil otherwise, and for a name longer than
    /// `NameSuggestion.maxLength` (never compared: a megabyte of garbage is answered at once).
    static func suggestion(_ name: String, _ known: [String]) -> String? {
        guard NameSuggestion.comparable(name) else { return nil }
        let typed = Array(name.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if let b = best, b.distance < distance || (b.distance == distance && b.name <= candidate) { continue }
            best = (candidate, distance)
        }
        guard let best, best.distance <= max(2, typed.count / 3), best.distance < max(typed.count, 1) else { return nil }
        return " (did you mean \"\(best.name)\"?)"
    }

    /// The edit distance of two words: insertions, deletions, substitutions and swaps of neighbours (`tpa` is
    /// one edit from `tap`).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// A JSON value as an engine value (arrays become lists: row pairs, prompt fields).
    static func value(_ v: Any?) -> Value {
        switch v {
        case let n as NSNumber:
            // JSON true/false arrive as boolean NSNumbers (objCType "c"); 0 and 1 are numbers.
            let type = String(cString: n.objCType)
            if type == "c" { return .bool(n.boolValue) }
            // A whole number stays exact past what a double holds (9223372036854775807 typed or sent).
            if ["q", "l", "i", "s"].contains(type) { return .int(n.intValue) }
            let d = n.doubleValue
            return d == d.rounded() && abs(d) < 9e15 ? .int(Int(d)) : .double(d)
        case let s as String: return .string(s)
        case let a as [Any]: return .list(a.map { value($0) })
        case let o as [String: Any] where (o["secret"] as? Bool) == true:
            return .string(Driver.secretPlaceholder)   // a secret the session log left out (Driver+Secrets)
        default: return .null
        }
    }
}
