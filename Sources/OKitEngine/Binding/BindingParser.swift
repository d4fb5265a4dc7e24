/// Parses binding text into a `Binding` (bindings.md, "Grammar"). Columns in errors are 1-based positions
/// (in Unicode scalars) in the whole binding text.
public enum BindingParser {
    /// Nesting limit of (), [] and {} (bindings.md: binding nesting 64).
    public static let maxDepth = 64
    /// Depth limit of an expression tree, counting the expressions nested in its paths' arguments (`=a + b + …`
    /// is as deep as it is long): evaluating and freeing a tree cannot exhaust the stack.
    public static let maxExpressionDepth = 256

    /// Longest binding text, in bytes (lua-api.md "Sandbox and limits"): parse structures, checks and warnings
    /// grow with the text and live outside Lua's memory limit.
    public static let maxTextLength = 64 * 1024

    /// Refuses a binding text over `maxTextLength` (before anything is allocated for it).
    static func checkLength(_ text: String) throws(BindingError) {
        let n = text.utf8.count
        guard n <= maxTextLength else {
            throw BindingError(binding: text, column: 1,
                               message: "binding text too long (\(n) bytes; the limit is \(maxTextLength / 1024) KiB)")
        }
    }

    public static func parse(_ text: String) throws(BindingError) -> Binding {
        try checkLength(text)
        var p = BindingScanner(text)
        return Binding(text: text, parts: try p.binding())
    }

    /// The texts of a binding's parts (split on top-level commas), trimmed — for multipart action properties
    /// whose parts run one by one.
    public static func partTexts(_ text: String) throws(BindingError) -> [String] {
        try checkLength(text)
        let p = BindingScanner(text)
        return try p.split(0..<p.s.count).map { p.string(p.trimmed($0)) }
    }
}

/// The scanner and recursive-descent parser over the binding's Unicode scalars.
struct BindingScanner {
    let text: String
    let s: [Unicode.Scalar]
    /// Where quoted strings start and end.
    let quotes: QuoteMap
    /// Current nesting of brackets, `not`, unary minus and ternaries (limit `BindingParser.maxDepth`).
    var depth = 0
    /// The greatest tree depth of the `=` parts parsed since the expression parser last reset it (the depth of
    /// the expressions inside a path's call arguments, for the depth of an expression around the path).
    var innerDepth = 0

    init(_ text: String) {
        self.text = text
        s = Array(text.unicodeScalars)
        quotes = QuoteMap(s)
    }

    func fail(_ at: Int, _ message: String) -> BindingError {
        BindingError(binding: text, column: min(at, s.count) + 1, message: message)
    }

    /// `unexpected "c"` at `at`; a double quote there (`=total .. " €"`, `format("yyyy")`) is a text written as Lua
    /// writes one: said with the text in single quotes, as bindings write texts (bindings.md "Expressions").
    func unexpected(_ at: Int, in expression: Bool) -> BindingError {
        var error = fail(at, at < s.count ? "unexpected \"\(s[at])\"" : "expected a value")
        guard at < s.count, s[at] == "\"" else { return error }
        var j = at + 1
        var inner = String.UnicodeScalarView()
        while j < s.count, s[j] != "\"" {
            if s[j] == "'" { inner.append("\\") }
            inner.append(s[j])
            j += 1
        }
        let text = j < s.count && !inner.isEmpty ? "'" + String(inner) + "'" : "'…'"
        error.hint = "texts in \(expression ? "expressions" : "bindings") are in single quotes: write \(text)"
        return error
    }

    static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }
    /// A letter or `_` (ASCII decided without a Unicode property lookup).
    @inline(__always) static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return (v | 0x20) &- 0x61 < 26 || v == 0x5F }
        return c.properties.isAlphabetic
    }

    /// A letter, digit or `_`.
    @inline(__always) static func isNameChar(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return (v | 0x20) &- 0x61 < 26 || v == 0x5F || v &- 0x30 < 10 }
        return c.properties.isAlphabetic
    }

    /// The text of `s[r]` (ASCII copied byte by byte, without the generic scalar-view path).
    func string(_ r: Range<Int>) -> String {
        var ascii = true
        for k in r where s[k].value >= 0x80 {
            ascii = false
            break
        }
        guard ascii else {
            var v = String.UnicodeScalarView()
            for k in r { v.append(s[k]) }
            return String(v)
        }
        return String(unsafeUninitializedCapacity: r.count) { buf in
            var n = 0
            for k in r {
                buf[n] = UInt8(truncatingIfNeeded: s[k].value)
                n += 1
            }
            return n
        }
    }

    func trimmed(_ r: Range<Int>) -> Range<Int> {
        var a = r.lowerBound, b = r.upperBound
        while a < b, Self.isSpace(s[a]) { a += 1 }
        while b > a, Self.isSpace(s[b - 1]) { b -= 1 }
        return a..<b
    }

    // MARK: Splitting

    /// Whether a `'` at `i` starts a quoted string: only where a part, an argument or an operand starts
    /// (see `QuoteMap`; `partStart` is not needed any more, the map knows the structure of the whole text).
    func quoteStarts(at i: Int, partStart: Int) -> Bool { quotes.close(at: i) != nil }

    /// Splits `r` at commas of depth 0, outside quotes and escapes.
    func split(_ r: Range<Int>) throws(BindingError) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var start = r.lowerBound
        var level = 0
        var i = r.lowerBound
        while i < r.upperBound {
            let c = s[i]
            if c == "\\" { i += 2; continue }
            if c == "'", let close = quotes.close(at: i) {
                if close < 0 || close >= r.upperBound { throw fail(i, "unterminated quoted string") }
                i = close + 1
                continue
            }
            switch c {
            case "(", "[", "{":
                level += 1
                if level > BindingParser.maxDepth { throw fail(i, "nesting deeper than \(BindingParser.maxDepth)") }
            case ")", "]", "}": if level > 0 { level -= 1 }
            case "," where level == 0:
                parts.append(start..<i)
                start = i + 1
            default: break
            }
            i += 1
        }
        parts.append(start..<min(r.upperBound, max(start, r.upperBound)))
        return parts
    }

    // MARK: Parts

    mutating func binding() throws(BindingError) -> [BindingPart] {
        let all = 0..<s.count
        if trimmed(all).isEmpty { return [] }
        var parts: [BindingPart] = []
        for r in try split(all) { parts.append(try part(r)) }
        return parts
    }

    mutating func part(_ raw: Range<Int>) throws(BindingError) -> BindingPart {
        let r = trimmed(raw)
        guard let first = r.first else { return .constant(.null) }
        switch s[first] {
        case "#": return .constant(Self.typedConstant(try unescape((first + 1)..<r.upperBound)))
        case "%": return .localized(try unescape((first + 1)..<r.upperBound))
        case "'": return .constant(.string(try quoted(r)))
        case "!" where negatedConstantStart(r) != nil:
            // OKit's getBool strips one `!` and reads the rest: `!#false` is true, `!#true` false.
            let constant = try part((negatedConstantStart(r) ?? first)..<r.upperBound)
            guard case .constant(let v) = constant else { return constant }
            return .constant(.bool(!v.truthy))
        case "=":
            var ep = ExpressionParser(scanner: self, range: (first + 1)..<r.upperBound)
            let (e, d) = try ep.parse()
            depth = ep.scanner.depth
            innerDepth = max(innerDepth, d)
            return .expression(e, text: string((first + 1)..<r.upperBound))
        default:
            return .path(try path(r))
        }
    }

    /// Where the constant of a negated constant (`!#false`, `! 'no'`) starts, or nil for a negated path.
    func negatedConstantStart(_ r: Range<Int>) -> Int? {
        var i = r.lowerBound + 1
        skipSpaces(&i, r.upperBound)
        return i < r.upperBound && (s[i] == "#" || s[i] == "'") ? i : nil
    }

    /// `#text` typing: booleans, and numbers that render back to exactly the text.
    static func typedConstant(_ t: String) -> Value {
        if t == "true" { return .bool(true) }
        if t == "false" { return .bool(false) }
        if let i = Int(t), String(i) == t { return .int(i) }
        if t.contains("."), !t.contains("e"), !t.contains("E"), let d = Double(t), d.isFinite, Value.displayDouble(d) == t {
            return .double(d)
        }
        return .string(t)
    }

    /// The text of a quoted string spanning exactly `r` (`'…'`, `\'` for a quote, other escapes as usual).
    func quoted(_ r: Range<Int>) throws(BindingError) -> String {
        var out = String.UnicodeScalarView()
        var i = r.lowerBound + 1
        while i < r.upperBound {
            let c = s[i]
            if c == "'" {
                if i + 1 != r.upperBound { throw fail(i + 1, "unexpected text after the quoted string") }
                return String(out)
            }
            if c == "\\" {
                if i + 1 < r.upperBound, s[i + 1] == "'" { out.append("'"); i += 2; continue }
                let (scalar, next) = try escape(at: i, end: r.upperBound)
                out.append(scalar)
                i = next
                continue
            }
            out.append(c)
            i += 1
        }
        throw fail(r.lowerBound, "unterminated quoted string")
    }

    /// Text with escapes resolved.
    func unescape(_ r: Range<Int>) throws(BindingError) -> String {
        var out = String.UnicodeScalarView()
        var i = r.lowerBound
        while i < r.upperBound {
            if s[i] == "\\" {
                let (scalar, next) = try escape(at: i, end: r.upperBound)
                out.append(scalar)
                i = next
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return String(out)
    }

    /// The escape at `i` (`\,` `\/` `\(` `\)` `\\` `\u{hex}`): its scalar and the index after it.
    func escape(at i: Int, end: Int) throws(BindingError) -> (Unicode.Scalar, Int) {
        guard i + 1 < end else { throw fail(i, "incomplete escape") }
        let c = s[i + 1]
        switch c {
        case ",", "/", "(", ")", "\\", "'": return (c, i + 2)
        case "u":
            guard i + 2 < end, s[i + 2] == "{" else { throw fail(i + 2, "expected \"{\" after \\u") }
            var j = i + 3
            var value: UInt32 = 0
            var digits = 0
            while j < end, let h = Self.hex(s[j]) {
                if digits == 8 { throw fail(j, "too many hex digits in \\u{…}") }
                value = value * 16 + h
                digits += 1
                j += 1
            }
            guard digits > 0 else { throw fail(j, "expected hex digits in \\u{…}") }
            guard j < end, s[j] == "}" else { throw fail(j, "expected \"}\"") }
            guard let scalar = Unicode.Scalar(value) else { throw fail(i, "\\u{…} is not a valid Unicode scalar") }
            return (scalar, j + 1)
        default:
            throw fail(i, "unknown escape \"\\\(c)\" (use \\, \\/ \\( \\) \\\\ \\' or \\u{hex})")
        }
    }

    static func hex(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": return c.value - 48
        case "a"..."f": return c.value - 87
        case "A"..."F": return c.value - 55
        default: return nil
        }
    }
}
