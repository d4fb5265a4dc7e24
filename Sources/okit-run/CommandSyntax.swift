import Foundation
import OKitEngine

/// Shell syntax for driver commands (`tap 2`, `add Dune`, `set "Release Date" 2019-05-01`, `respond OK Dune`),
/// turned into the same command objects as the JSON-lines protocol.
enum CommandSyntax {
    /// A line whose quote is not closed: nothing of it is run (a shell would not run it either).
    struct UnclosedQuote: Error, CustomStringConvertible {
        let quote: Character
        let line: String
        var description: String {
            "unclosed quote (\(quote)) in \(ShellError.brief(line)): nothing was done (close it on the same line; "
                + "a line break in a value: $'first\\nsecond')"
        }
    }

    /// Splits a line into words as a POSIX shell does: single or double quotes group words; a backslash takes the
    /// next character as it is outside quotes, and `\"` and `\\` inside double quotes; nothing is special inside
    /// single quotes (`add "Ficus \"Benjamin\""`, `add 'a\b'`); inside `$'…'` a backslash escapes as in C (`\n` a line
    /// break, `\t` a tab, `\\`, `\'`). A quote left open throws `UnclosedQuote`.
    static func words(_ line: String) throws -> [String] {
        var out: [String] = []
        var current = ""
        var quote: Character?
        var started = false
        var chars = Array(line)[...]
        while let c = chars.popFirst() {
            if quote == "$" {
                if c == "'" { quote = nil } else if c == "\\", let next = chars.popFirst() { current += escaped(next) } else { current.append(c) }
            } else if quote == "'" {
                if c == "'" { quote = nil } else { current.append(c) }
            } else if quote == "\"" {
                if c == "\"" {
                    quote = nil
                } else if c == "\\" {
                    guard let next = chars.popFirst() else { current.append(c); break }
                    if next != "\"" && next != "\\" { current.append(c) }
                    current.append(next)
                } else {
                    current.append(c)
                }
            } else if c == "$", chars.first == "'" {
                chars.removeFirst()
                quote = "$"
                started = true
            } else if c == "\"" || c == "'" {
                quote = c
                started = true
            } else if c == "\\" {
                current.append(chars.popFirst() ?? c)
            } else if c == " " || c == "\t" {
                if started || !current.isEmpty { out.append(current); current = ""; started = false }
            } else {
                current.append(c)
            }
        }
        if let quote { throw UnclosedQuote(quote: quote == "$" ? "'" : quote, line: line) }
        if started || !current.isEmpty { out.append(current) }
        return out
    }

    /// What a backslash and `c` stand for inside `$'…'`: `\n`, `\t`, `\r` a line break, tab, carriage return;
    /// `\\`, `\'` and `\"` the character; any other character keeps its backslash, as in bash.
    static func escaped(_ c: Character) -> String {
        switch c {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "\\", "'", "\"": return String(c)
        default: return "\\" + String(c)
        }
    }

    /// The command object of a shell line; nil for an empty line or one with a quote left open (JSON lines answer
    /// it as malformed; the terminal shell says why: `parse`).
    static func command(_ line: String, commands: [CommandDescription] = Driver.builtIn.map(\.description)) -> [String: Any]? {
        try? parse(line, commands: commands)
    }

    /// The command object of a shell line; nil for an empty line, `UnclosedQuote` for a quote left open. The
    /// built-in commands have their own syntax below; any other command (a screen kind's own, in `commands`) takes
    /// its arguments' words in order, the last one the rest of the line.
    static func parse(_ line: String, commands: [CommandDescription] = Driver.builtIn.map(\.description)) throws -> [String: Any]? {
        let w = try words(line)
        guard let name = w.first else { return nil }
        let rest = Array(w.dropFirst())
        let joined = rest.joined(separator: " ")
        var cmd: [String: Any] = ["cmd": name == "?" ? "commands" : name]
        func rowValue(_ word: String) -> Any { Int(word).map { $0 as Any } ?? word }
        switch name {
        case "tap", "quick", "more", "accessory", "delete", "select":
            cmd["row"] = rest.count == 1 ? rowValue(rest[0]) : joined
        case "move":
            if rest.count >= 1 { cmd["from"] = rowValue(rest[0]) }
            if rest.count >= 2 { cmd["to"] = rowValue(rest[1]) }
        case "add":
            if !rest.isEmpty { cmd["text"] = joined }
        case "search":
            var words = rest
            if let last = words.last, last.hasPrefix("@"), last.count > 1 {
                cmd["scope"] = String(last.dropFirst())
                words.removeLast()
            }
            cmd["text"] = words.joined(separator: " ")
        case "tab", "button":
            cmd["id"] = joined
        case "menuItem":
            cmd["title"] = joined
        case "open", "present":
            if let first = rest.first { cmd["id"] = first }
            if rest.count > 1 { cmd["context"] = rest.dropFirst().joined(separator: " ") }
        case "set":
            if let first = rest.first { cmd["cell"] = rowValue(first) }
            if rest.count > 1 {
                let v = rest.dropFirst().joined(separator: " ")
                cmd["value"] = typedValue(v)
            }
        case "respond":
            if let first = rest.first { cmd["action"] = first }
            cmd["fields"] = Array(rest.dropFirst())
        // The words of a command are never dropped: a word a command cannot read (`edit maybe`, `screen a`) or one
        // too many (`advance 60 30`) reaches it as typed, and it refuses it with why.
        case "edit":
            if !rest.isEmpty { cmd["on"] = joined }                             // on/off, yes/no, … as a switch reads them
        case "authenticate":
            // No word: the cover's own check (the terminal asks for the passphrase); `fail` answers no.
            if !rest.isEmpty {
                let word = joined.lowercased()
                if ["fail", "false", "no", "off", "0"].contains(word) {
                    cmd["ok"] = false
                } else if ["true", "yes", "on", "ok", "1"].contains(word) {
                    cmd["ok"] = true
                } else {
                    cmd["ok"] = joined            // refused: neither yes nor no
                }
            }
        case "advance":
            if !rest.isEmpty { cmd["seconds"] = rest.count == 1 ? Double(rest[0]).map { $0 as Any } ?? joined : joined }
        case "screen":
            func number(_ word: String) -> Any { Int(word).map { $0 as Any } ?? word }
            if rest.count >= 1 { cmd["offset"] = number(rest[0]) }
            if rest.count >= 2 { cmd["limit"] = number(rest.dropFirst().joined(separator: " ")) }
        default:
            if let d = commands.first(where: { $0.name == name }) { arguments(d, rest, into: &cmd) }
        }
        return cmd
    }

    /// A command's words by its description: one word per argument, the last one takes the rest of the line; a
    /// row of one word that is a number is a position, `on`/`off` a switch, a value typed as in `set`.
    static func arguments(_ d: CommandDescription, _ words: [String], into cmd: inout [String: Any]) {
        for (i, a) in d.arguments.enumerated() where i < words.count {
            let last = i == d.arguments.count - 1
            let word = last ? words[i...].joined(separator: " ") : words[i]
            switch a.form {
            case .row: cmd[a.name] = Int(word).map { $0 as Any } ?? word
            case .flag: cmd[a.name] = word                                  // read as a switch reads it (or refused)
            case .number: cmd[a.name] = Double(word).map { $0 as Any } ?? word
            case .texts: cmd[a.name] = Array(words[i...])
            case .value: cmd[a.name] = typedValue(word)
            case .text, .optionalText: cmd[a.name] = word
            }
        }
    }

    /// A value typed in shell syntax: `true`/`on` and `false`/`off` a switch, digits alone (`1500`, `-3`) a number,
    /// anything else text — `1.500`, `12,50` and `3.5` reach the cell as typed, which reads them in the app's
    /// language (`1.500` is 1500 in `de`; read here as a number it was 1.5).
    static func typedValue(_ word: String) -> Any {
        switch word {
        case "true", "on": return true
        case "false", "off": return false
        default: return Int(word).map { $0 as Any } ?? word
        }
    }
}
