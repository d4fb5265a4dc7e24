/// A Lua source file cut into tokens, enough to find where a declaration's strings are written (the check's
/// file:line:col). Comments are skipped; strings keep where each of their characters is in the file. It never
/// fails: what it cannot read becomes a one-character token.
struct LuaSourceTokens {
    enum Kind: Equatable { case name, string, number, symbol }

    struct Token {
        let kind: Kind
        /// The name, the symbol, or a string's decoded text.
        let text: String
        /// 1-based line and column (in Unicode scalars) of the token's first character.
        let line: Int
        let column: Int
        /// For strings: the line and column of each decoded character, and of the closing delimiter last.
        var positions: [(line: Int, column: Int)] = []
    }

    private(set) var tokens: [Token] = []
    private let s: [Unicode.Scalar]
    private var i = 0
    private var line = 1
    private var column = 1

    init(_ source: String) {
        s = Array(source.unicodeScalars)
        if s.first == "#" { while i < s.count, s[i] != "\n" { advance() } }   // a shebang line
        while i < s.count { scanToken() }
    }

    private func at(_ k: Int) -> Unicode.Scalar? { k >= 0 && k < s.count ? s[k] : nil }

    private mutating func advance() {
        if s[i] == "\n" { line += 1; column = 1 } else { column += 1 }
        i += 1
    }

    private static func isNameStart(_ c: Unicode.Scalar) -> Bool { c == "_" || (c.isASCII && c.properties.isAlphabetic) }
    private static func isNameChar(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || ("0"..."9").contains(c) }

    private mutating func scanToken() {
        let c = s[i]
        if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0B}" || c == "\u{0C}" { advance(); return }
        let (l, col) = (line, column)
        if c == "-", at(i + 1) == "-" {
            advance(); advance()
            if at(i) == "[", let level = longBracketLevel() { _ = longString(level: level); return }
            while i < s.count, s[i] != "\n" { advance() }
            return
        }
        if c == "[", let level = longBracketLevel() {
            let (text, positions) = longString(level: level)
            tokens.append(Token(kind: .string, text: text, line: l, column: col, positions: positions))
            return
        }
        if c == "\"" || c == "'" { tokens.append(quotedString(c, line: l, column: col)); return }
        if LuaSourceTokens.isNameStart(c) {
            var name = ""
            while i < s.count, LuaSourceTokens.isNameChar(s[i]) { name.unicodeScalars.append(s[i]); advance() }
            tokens.append(Token(kind: .name, text: name, line: l, column: col))
            return
        }
        if ("0"..."9").contains(c) || (c == "." && at(i + 1).map { ("0"..."9").contains($0) } == true) {
            while i < s.count, LuaSourceTokens.isNameChar(s[i]) || s[i] == "." ||
                    ((s[i] == "+" || s[i] == "-") && (at(i - 1) == "e" || at(i - 1) == "E" || at(i - 1) == "p" || at(i - 1) == "P")) {
                advance()
            }
            tokens.append(Token(kind: .number, text: "0", line: l, column: col))
            return
        }
        for symbol in ["...", "..", "==", "~=", "<=", ">=", "//", "::", "<<", ">>"] where matches(symbol) {
            for _ in symbol.unicodeScalars { advance() }
            tokens.append(Token(kind: .symbol, text: symbol, line: l, column: col))
            return
        }
        advance()
        tokens.append(Token(kind: .symbol, text: String(c), line: l, column: col))
    }

    private func matches(_ symbol: String) -> Bool {
        for (k, u) in symbol.unicodeScalars.enumerated() where at(i + k) != u { return false }
        return true
    }

    /// At `[`: the level of a long bracket `[==[` (nil when it is not one).
    private func longBracketLevel() -> Int? {
        var k = i + 1
        while at(k) == "=" { k += 1 }
        return at(k) == "[" ? k - i - 1 : nil
    }

    /// A long string or comment from its opening bracket: its text (a first newline skipped) and positions.
    private mutating func longString(level: Int) -> (String, [(line: Int, column: Int)]) {
        for _ in 0..<(level + 2) { advance() }
        if at(i) == "\r" { advance() }
        if at(i) == "\n" { advance() }
        var text = ""
        var positions: [(line: Int, column: Int)] = []
        while i < s.count {
            if s[i] == "]" {
                var k = i + 1
                while at(k) == "=" { k += 1 }
                if at(k) == "]", k - i - 1 == level {
                    positions.append((line, column))
                    for _ in 0..<(level + 2) { advance() }
                    return (text, positions)
                }
            }
            text.unicodeScalars.append(s[i])
            positions.append((line, column))
            advance()
        }
        positions.append((line, column))
        return (text, positions)
    }

    /// A quoted string: escapes decoded, each decoded character at the position of its source (an escape's
    /// characters at the backslash).
    private mutating func quotedString(_ quote: Unicode.Scalar, line l: Int, column col: Int) -> Token {
        advance()
        var text = ""
        var positions: [(line: Int, column: Int)] = []
        while i < s.count, s[i] != quote, s[i] != "\n" {
            let here = (line, column)
            if s[i] == "\\" {
                advance()
                guard i < s.count else { break }
                let e = s[i]
                let simple: [Unicode.Scalar: Unicode.Scalar] = ["n": "\n", "t": "\t", "r": "\r", "a": "\u{07}", "b": "\u{08}",
                                                                "f": "\u{0C}", "v": "\u{0B}", "\\": "\\", "\"": "\"", "'": "'", "\n": "\n"]
                if let decoded = simple[e] {
                    text.unicodeScalars.append(decoded); positions.append(here); advance()
                } else if e == "z" {
                    advance()
                    while i < s.count, s[i] == " " || s[i] == "\n" || s[i] == "\t" || s[i] == "\r" { advance() }
                } else if ("0"..."9").contains(e) {
                    var n = 0, k = 0
                    while k < 3, i < s.count, ("0"..."9").contains(s[i]) { n = n * 10 + Int(s[i].value - 48); advance(); k += 1 }
                    text.unicodeScalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: n))); positions.append(here)
                } else {
                    // \x, \u{…} and anything else: one character here, the rest of the escape skipped.
                    advance()
                    if e == "x" { for _ in 0..<2 where i < s.count { advance() } }
                    if e == "u", at(i) == "{" { while i < s.count, s[i] != "}" { advance() }; if i < s.count { advance() } }
                    text.unicodeScalars.append("?"); positions.append(here)
                }
                continue
            }
            text.unicodeScalars.append(s[i])
            positions.append(here)
            advance()
        }
        positions.append((line, column))
        if i < s.count, s[i] == quote { advance() }
        return Token(kind: .string, text: text, line: l, column: col, positions: positions)
    }
}
