/// Parses `=…` expressions with the precedence table of binding.md "Expressions":
/// ternary < or < and < not < comparison < `..` < `+ -` < `* / %` < unary minus < primary.
struct ExpressionParser {
    var scanner: BindingScanner
    let end: Int
    var i: Int
    var s: [Unicode.Scalar] { scanner.s }

    static let reserved: Set<String> = ["and", "or", "not", "between", "in", "true", "false", "nil"]

    init(scanner: BindingScanner, range: Range<Int>) {
        self.scanner = scanner
        end = range.upperBound
        i = range.lowerBound
    }

    func fail(_ at: Int, _ m: String) -> BindingError { scanner.fail(at, m) }

    mutating func parse() throws(BindingError) -> Expression {
        skip()
        if i == end { throw fail(i, "expected an expression after \"=\"") }
        let e = try expression()
        skip()
        if i < end { throw fail(i, "unexpected \"\(s[i])\"") }
        return e
    }

    mutating func skip() { while i < end, BindingScanner.isSpace(s[i]) { i += 1 } }

    /// True (and consumed) when the next token is the given operator text.
    mutating func accept(_ op: String) -> Bool {
        skip()
        let u = Array(op.unicodeScalars)
        guard i + u.count <= end, Array(s[i..<(i + u.count)]) == u else { return false }
        // Don't take "<" from "<=", "=" from "==", "." from "..", etc.
        if op == "<" || op == ">", i + 1 < end, s[i + 1] == "=" { return false }
        if op == "!", i + 1 < end, s[i + 1] == "=" { return false }
        i += u.count
        return true
    }

    /// True (and consumed) when the next token is the keyword `word`.
    mutating func keyword(_ word: String) -> Bool {
        skip()
        var j = i
        guard let n = scanner.name(at: &j, end), n == word else { return false }
        if j < end, s[j] == "." || s[j] == "(" { return false }
        i = j
        return true
    }

    mutating func nested<T>(_ at: Int, _ body: (inout ExpressionParser) throws(BindingError) -> T) throws(BindingError) -> T {
        scanner.depth += 1
        defer { scanner.depth -= 1 }
        if scanner.depth > BindingParser.maxDepth { throw fail(at, "nesting deeper than \(BindingParser.maxDepth)") }
        return try body(&self)
    }

    mutating func expression() throws(BindingError) -> Expression {
        let at = i
        return try nested(at) { (p: inout ExpressionParser) throws(BindingError) -> Expression in try p.ternary() }
    }

    mutating func ternary() throws(BindingError) -> Expression {
        let c = try or()
        guard accept("?") else { return c }
        let a = try expression()
        skip()
        guard accept(":") else { throw fail(i, "expected \":\" in a ? b : c") }
        let b = try expression()
        return .ternary(c, a, b)
    }

    mutating func or() throws(BindingError) -> Expression {
        var l = try and()
        while keyword("or") { l = .or(l, try and()) }
        return l
    }

    mutating func and() throws(BindingError) -> Expression {
        var l = try not()
        while keyword("and") { l = .and(l, try not()) }
        return l
    }

    mutating func not() throws(BindingError) -> Expression {
        let at = i
        if keyword("not") || accept("!") {
            return try nested(at) { (p: inout ExpressionParser) throws(BindingError) -> Expression in .not(try p.not()) }
        }
        return try comparison()
    }

    mutating func comparison() throws(BindingError) -> Expression {
        var l = try concat()
        let ops: [(String, BinaryOperator)] = [("==", .equal), ("!=", .notEqual), ("<=", .lessEqual), (">=", .greaterEqual),
                                               ("<", .less), (">", .greater)]
        for (text, op) in ops where accept(text) {
            l = .binary(op, l, try concat())
            break
        }
        if keyword("between") {
            let lo = try concat()
            guard keyword("and") else { skip(); throw fail(i, "expected \"and\" in x between a and b") }
            l = .between(l, lo, try concat())
        }
        if keyword("in") {
            skip()
            guard accept("(") else { throw fail(i, "expected \"(\" after in") }
            var items: [Expression] = [try expression()]
            while accept(",") { items.append(try expression()) }
            guard accept(")") else { skip(); throw fail(i, "expected \")\"") }
            l = .inList(l, items)
        }
        return l
    }

    mutating func concat() throws(BindingError) -> Expression {
        var l = try additive()
        while accept("..") { l = .binary(.concat, l, try additive()) }
        return l
    }

    mutating func additive() throws(BindingError) -> Expression {
        var l = try multiplicative()
        while true {
            if accept("+") { l = .binary(.add, l, try multiplicative()) }
            else if accept("-") { l = .binary(.subtract, l, try multiplicative()) }
            else { return l }
        }
    }

    mutating func multiplicative() throws(BindingError) -> Expression {
        var l = try unary()
        while true {
            if accept("*") { l = .binary(.multiply, l, try unary()) }
            else if accept("/") { l = .binary(.divide, l, try unary()) }
            else if accept("%") { l = .binary(.modulo, l, try unary()) }
            else { return l }
        }
    }

    mutating func unary() throws(BindingError) -> Expression {
        let at = i
        if accept("-") {
            return try nested(at) { (p: inout ExpressionParser) throws(BindingError) -> Expression in .negate(try p.unary()) }
        }
        return try primary()
    }

    mutating func primary() throws(BindingError) -> Expression {
        skip()
        guard i < end else { throw fail(i, "expected a value") }
        let start = i
        let c = s[i]
        if ("0"..."9").contains(c) { return .literal(try number()) }
        if c == "'" {
            var j = i + 1
            while j < end, s[j] != "'" { j += s[j] == "\\" ? 2 : 1 }
            if j >= end { throw fail(i, "unterminated quoted string") }
            let text = try scanner.quoted(i..<(j + 1))
            i = j + 1
            if text.hasPrefix("%") { return .localized(String(text.dropFirst())) }
            return .literal(.string(text))
        }
        if c == "(" {
            i += 1
            let e = try expression()
            guard accept(")") else { skip(); throw fail(i, "expected \")\"") }
            return e
        }
        if c == "{" {
            var level = 0
            var j = i
            while j < end {
                if s[j] == "\\" { j += 2; continue }
                if s[j] == "{" { level += 1 } else if s[j] == "}" { level -= 1; if level == 0 { break } }
                j += 1
            }
            if j >= end { throw fail(end, "expected \"}\"") }
            let inner = scanner.trimmed((i + 1)..<j)
            if inner.isEmpty { throw fail(i + 1, "expected a path inside { }") }
            let p = try scanner.path(inner)
            i = j + 1
            return .path(p)
        }
        if c == "$" || BindingScanner.isNameStart(c) {
            var j = c == "$" ? i + 1 : i
            let n = scanner.name(at: &j, end) ?? ""
            if c != "$" {
                switch n {
                case "true": i = j; return .literal(.bool(true))
                case "false": i = j; return .literal(.bool(false))
                case "nil": i = j; return .literal(.null)
                default: break
                }
                if Self.reserved.contains(n) { throw fail(start, "unexpected \"\(n)\"") }
                if j < end, s[j] == "(" { return try call(n, start, after: j) }
            }
            // A bare path: name{.name|.@agg}[index].
            var k = j
            while k < end, s[k] == "." {
                let next = k + 1
                guard next < end, s[next] == "@" || BindingScanner.isNameStart(s[next]) else { break }
                k = next
                if s[k] == "@" { k += 1 }
                _ = scanner.name(at: &k, end)
            }
            if k < end, s[k] == "[" {
                while k < end, s[k] != "]" { k += 1 }
                if k < end { k += 1 }
            }
            let p = try scanner.path(start..<k)
            i = k
            return .path(p)
        }
        throw fail(i, "unexpected \"\(c)\"")
    }

    mutating func call(_ name: String, _ start: Int, after open: Int) throws(BindingError) -> Expression {
        i = open + 1
        var args: [Expression] = []
        skip()
        if !accept(")") {
            args.append(try expression())
            while accept(",") { args.append(try expression()) }
            guard accept(")") else { skip(); throw fail(i, "expected \")\"") }
        }
        return .call(name: name, args: args, column: start + 1)
    }

    mutating func number() throws(BindingError) -> Value {
        let a = i
        while i < end, ("0"..."9").contains(s[i]) { i += 1 }
        var isDouble = false
        if i + 1 < end, s[i] == ".", ("0"..."9").contains(s[i + 1]) {
            isDouble = true
            i += 1
            while i < end, ("0"..."9").contains(s[i]) { i += 1 }
        }
        if i < end, s[i] == "e" || s[i] == "E" {
            var j = i + 1
            if j < end, s[j] == "+" || s[j] == "-" { j += 1 }
            if j < end, ("0"..."9").contains(s[j]) {
                isDouble = true
                i = j
                while i < end, ("0"..."9").contains(s[i]) { i += 1 }
            }
        }
        if i < end, BindingScanner.isNameStart(s[i]) { throw fail(i, "unexpected \"\(s[i])\" after a number") }
        let text = String(String.UnicodeScalarView(s[a..<i]))
        if !isDouble, let n = Int(text) { return .int(n) }
        guard let d = Double(text) else { throw fail(a, "bad number") }
        return .double(d)
    }
}
