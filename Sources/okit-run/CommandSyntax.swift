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
    static func words(_ line: String) throws -> [String] { try quotedWords(line).map(\.text) }

    /// A word of a line and whether any of it was quoted (`"007"`, `'on'`, `$'…'`, `a\ b`): a quoted word is text as
    /// it is, never a number or a switch.
    struct Word {
        let text: String
        let quoted: Bool
    }

    /// `words`, each with whether it was quoted.
    static func quotedWords(_ line: String) throws -> [Word] {
        var out: [Word] = []
        var quotedNow = false
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
                quotedNow = true
            } else if c == "\"" || c == "'" {
                quote = c
                started = true
                quotedNow = true
            } else if c == "\\" {
                current.append(chars.popFirst() ?? c)
                quotedNow = true
            } else if c == " " || c == "\t" {
                if started || !current.isEmpty {
                    out.append(Word(text: current, quoted: quotedNow))
                    current = ""; started = false; quotedNow = false
                }
            } else {
                current.append(c)
            }
        }
        if let quote { throw UnclosedQuote(quote: quote == "$" ? "'" : quote, line: line) }
        if started || !current.isEmpty { out.append(Word(text: current, quoted: quotedNow)) }
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
        let all = try quotedWords(line)
        guard let name = all.first?.text else { return nil }
        let restWords = Array(all.dropFirst())
        let rest = restWords.map(\.text)
        let joined = rest.joined(separator: " ")
        var cmd: [String: Any] = ["cmd": name == "?" ? "commands" : name]
        // A row of one unquoted word of digits is a position; `tap "12"` is the row titled 12.
        func rowValue(_ i: Int) -> Any { restWords[i].quoted ? rest[i] : number(rest[i]) }
        switch name {
        case "tap", "quick", "more", "accessory", "delete", "select":
            cmd["row"] = rest.count == 1 ? rowValue(0) : joined
        case "move":
            if rest.count >= 1 { cmd["from"] = rowValue(0) }
            if rest.count >= 2 { cmd["to"] = rowValue(1) }
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
            if !rest.isEmpty { cmd["cell"] = rowValue(0) }
            if rest.count > 1 { cmd["value"] = value(restWords.dropFirst()) }
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
            if rest.count >= 1 { cmd["offset"] = number(rest[0]) }
            if rest.count >= 2 { cmd["limit"] = number(rest.dropFirst().joined(separator: " ")) }
        default:
            if let d = commands.first(where: { $0.name == name }) { arguments(d, restWords, into: &cmd) }
        }
        return cmd
    }

    /// A command's words by its description: one word per argument, the last one takes the rest of the line; a
    /// row of one word that is a number is a position, `on`/`off` a switch, a value typed as in `set`.
    static func arguments(_ d: CommandDescription, _ quoted: [Word], into cmd: inout [String: Any]) {
        let words = quoted.map(\.text)
        for (i, a) in d.arguments.enumerated() where i < words.count {
            let last = i == d.arguments.count - 1
            let word = last ? words[i...].joined(separator: " ") : words[i]
            let typed = !quoted[i].quoted && (!last || i == words.count - 1)
            switch a.form {
            case .row: cmd[a.name] = typed ? number(word) : word
            case .flag: cmd[a.name] = word                                  // read as a switch reads it (or refused)
            case .number: cmd[a.name] = Double(word).map { $0 as Any } ?? word
            case .texts: cmd[a.name] = Array(words[i...])
            case .value: cmd[a.name] = last ? value(quoted[i...]) : typed ? typedValue(word) : word
            case .text, .optionalText: cmd[a.name] = word
            }
        }
    }

    /// The value of a command's last words: one unquoted word is typed (`typedValue`); quoted words, or several,
    /// are the text as written (`set Code "007"`, `set Note "on"`, `set Name Dune Messiah`).
    static func value(_ words: ArraySlice<Word>) -> Any {
        if words.count == 1, let only = words.first, !only.quoted { return typedValue(only.text) }
        return words.map(\.text).joined(separator: " ")
    }

    /// A number when the word is an integer as Swift writes it (`12`, `-3`), else the word: `007` and `+5` keep
    /// what was typed (a phone number's zeros), and the cell reads them.
    static func number(_ word: String) -> Any {
        guard let n = Int(word), String(n) == word else { return word }
        return n
    }

    /// A value typed in shell syntax: `true`/`on` and `false`/`off` a switch, digits alone (`1500`, `-3`) a number,
    /// anything else text — `1.500`, `12,50` and `3.5` reach the cell as typed, which reads them in the app's
    /// language (`1.500` is 1500 in `de`; read here as a number it was 1.5), and so do digits with a leading zero
    /// (`007`, `060011122`: a text cell keeps them).
    static func typedValue(_ word: String) -> Any {
        switch word {
        case "true", "on": return true
        case "false", "off": return false
        default: return number(word)
        }
    }
}
