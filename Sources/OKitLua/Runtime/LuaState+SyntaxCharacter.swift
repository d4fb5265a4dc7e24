import CLua
import Foundation

/// A syntax error at a character Lua does not read outside strings and comments: an accented letter in a name
/// (`libellé = { "string" }`), a no-break space, a typographic quote. Lua names only the character's first byte
/// (`near '<\195>'`) and no column; the message shows the character as written, at its column, and for a letter
/// says what Lua names are and what to write instead (lua-api.md "Names").
extension LuaState {
    /// The message with the character as written, its column and a hint, when Lua stopped at a byte of a
    /// character outside ASCII; nil for any other message.
    func withForeignCharacter(_ message: String, source bytes: [UInt8], chunkName: String) -> String? {
        guard let token = Self.nearToken(message), token.hasPrefix("<\\"), token.hasSuffix(">"),
              let byte = UInt8(token.dropFirst(2).dropLast()), byte >= 0x80,
              let (head, line) = Self.lineOfMessage(message),
              let (start, at) = syntaxByte(byte, message: message, line: line, source: bytes, chunkName: chunkName) else { return nil }
        let character = Self.character(in: bytes, at: at)
        let column = String(decoding: bytes[start..<at], as: UTF8.self).count + 1
        var out = message
        out.replaceSubrange(out.range(of: "'\(token)'", options: .backwards)!, with: "'\(character)'")
        out.insert(contentsOf: ":\(column)", at: head)
        return out + Self.foreignCharacterHint(character, word: Self.word(in: bytes, around: at))
    }

    /// What to write instead: for a letter in a name, a bracketed key (a field or table key) or an ASCII name.
    static func foreignCharacterHint(_ character: String, word: (text: String, isKey: Bool)) -> String {
        let code = character.unicodeScalars.map { String(format: "U+%04X", $0.value) }.joined(separator: " ")
        guard character.first?.isLetter == true else {
            return " (\(code)): outside strings and comments Lua reads ASCII only"
        }
        let ascii = word.text.folding(options: .diacriticInsensitive, locale: nil)
        let asciiName = ascii.allSatisfy(\.isASCII) ? " such as \(ascii)" : ""
        let instead = word.isKey
            ? "write [\"\(word.text)\"] = … (a field name may have any characters in brackets) or an ASCII name\(asciiName)"
            : "write an ASCII name\(asciiName)"
        return " in \"\(word.text)\": Lua names are ASCII letters, digits and _; \(instead)"
    }

    /// The line's start and the offset of the occurrence of `byte` on `line` at which the source, cut right after
    /// it, fails with the same message (as `syntaxColumn` finds a token).
    private func syntaxByte(_ byte: UInt8, message: String, line: Int, source bytes: [UInt8],
                            chunkName: String) -> (Int, Int)? {
        var start = 0, current = 1
        while current < line, let nl = bytes[start...].firstIndex(of: 10) { start = nl + 1; current += 1 }
        guard current == line else { return nil }
        let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
        var tries = 0
        for i in start..<end where bytes[i] == byte && tries < 50 {
            tries += 1
            let status = loadStatus(bytes[0...i], chunkName: chunkName)
            let text = status == LUA_OK ? nil : errorText(at: -1)
            pop()
            if status == LUA_ERRSYNTAX, text == message { return (start, i) }
        }
        return nil
    }

    /// The UTF-8 character starting at `at` (its lead byte), as written.
    static func character(in bytes: [UInt8], at: Int) -> String {
        var end = at + 1
        while end < bytes.count, end - at < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let text = String(decoding: bytes[at..<end], as: UTF8.self)
        return text.first.map(String.init) ?? text
    }

    /// The name around `at` (ASCII letters, digits, _ and any character outside ASCII), and whether it is a
    /// table key: after `{`, `,` or `;` and before a single `=`.
    static func word(in bytes: [UInt8], around at: Int) -> (text: String, isKey: Bool) {
        func inName(_ b: UInt8) -> Bool { b >= 0x80 || b == 95 || (b >= 48 && b <= 57) || ((b | 0x20) >= 97 && (b | 0x20) <= 122) }
        var from = at, to = at
        while from > 0, inName(bytes[from - 1]) { from -= 1 }
        while to < bytes.count, inName(bytes[to]) { to += 1 }
        func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 }
        var before = from - 1
        while before >= 0, isSpace(bytes[before]) { before -= 1 }
        var after = to
        while after < bytes.count, isSpace(bytes[after]) { after += 1 }
        let opens = before >= 0 && [UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: ";")].contains(bytes[before])
        let assigns = after < bytes.count && bytes[after] == UInt8(ascii: "=")
            && (after + 1 >= bytes.count || bytes[after + 1] != UInt8(ascii: "="))
        return (String(decoding: bytes[from..<to], as: UTF8.self), opens && assigns)
    }
}
