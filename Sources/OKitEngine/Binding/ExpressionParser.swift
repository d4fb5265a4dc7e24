/// Parses `=…` expressions with the precedence table of bindings.md "Expressions":
/// ternary < or < and < not < comparison < `..` < `+ -` < `* / %` < unary minus < primary.
///
/// Recursion is bounded: brackets, `not`, unary minus and ternaries count against `BindingParser.maxDepth`
/// (shared with the paths nested inside); the tree's depth (long operator chains included) against
/// `BindingParser.maxExpressionDepth`.
struct ExpressionParser {
    var scanner: BindingScanner
    let s: [Unicode.Scalar]
    let end: Int
    var i: Int

    static let reserved: Set<String> = ["and", "or", "not", "between", "in", "true", "false", "nil"]

    init(scanner: BindingScanner, range: Range<Int>) {
        self.scanner = scanner
        s = scanner.s
        end = range.upperBound
        i = range.lowerBound
    }

    func fail(_ at: Int, _ m: String) -> BindingError { scanner.fail(at, m) }

    /// A node of the tree and its depth (a leaf is 1).
    struct Node {
        let e: Expression
        let d: Int
    }

    /// The expression and the depth of its tree.
    mutating func parse() throws(BindingError) -> (Expression, Int) {
        skip()
        if i == end { throw fail(i, "expected an expression after \"=\"") }
        let n = try ternary()
        skip()
        if i < end { throw scanner.unexpected(i, in: true) }
        return (n.e, n.d)
    }

    // MARK: Tokens

    mutating func skip() { while i < end, BindingScanner.isSpace(s[i]) { i += 1 } }

    /// The scalar `k` places ahead of `i` (a space past the end).
    @inline(__always) func at(_ k: Int) -> Unicode.Scalar { i + k < end ? s[i + k] : " " }

    /// True (and consumed) when the next token is the one-scalar operator `c`.
    mutating func take(_ c: Unicode.Scalar) -> Bool {
        skip()
        guard i < end, s[i] == c else { return false }
        i += 1
        return true
    }

    /// True (and consumed) when the next token is the keyword `word` (a whole name, not a prefix of one).
    mutating func keyword(_ word: StaticString) -> Bool {
        skip()
        let n = word.utf8CodeUnitCount
        guard i + n <= end else { return false }
        var matches = true
        word.withUTF8Buffer { w in
            for k in 0..<n where s[i + k].value != UInt32(w[k]) {
                matches = false
                break
            }
        }
        guard matches, i + n == end || !BindingScanner.isNameChar(s[i + n]) else { return false }
        i += n
        return true
    }

    /// Runs `body` one nesting level deeper.
    mutating func nested<T>(_ at: Int, _ body: (inout ExpressionParser) throws(BindingError) -> T) throws(BindingError) -> T {
        scanner.depth += 1
        defer { scanner.depth -= 1 }
        if scanner.depth > BindingParser.maxDepth { throw fail(at, "nesting deeper than \(BindingParser.maxDepth)") }
        return try body(&self)
    }

    /// A node over children of tree depth `d`, checked against `BindingParser.maxExpressionDepth`.
    func node(_ e: Expression, over d: Int, _ at: Int) throws(BindingError) -> Node {
        if d + 1 > BindingParser.maxExpressionDepth {
            throw fail(at, "expression nested too deeply (more than \(BindingParser.maxExpressionDepth) levels)")
        }
        return Node(e: e, d: d + 1)
    }

    // MARK: Precedence levels

    mutating func ternary() throws(BindingError) -> Node {
        let c = try or()
        skip()
        let pos = i
        guard take("?") else { return c }
        return try nested(pos) { (p: inout ExpressionParser) throws(BindingError) -> Node in
            let a = try p.ternary()
            guard p.take(":") else { throw p.fail(p.i, "expected \":\" in a ? b : c") }
            let b = try p.ternary()
            return try p.node(.ternary(c.e, a.e, b.e), over: max(c.d, a.d, b.d), pos)
        }
    }

    mutating func or() throws(BindingError) -> Node {
        var l = try and()
        while true {
            skip()
            let pos = i
            guard keyword("or") else { return l }
            let r = try and()
            l = try node(.or(l.e, r.e), over: max(l.d, r.d), pos)
        }
    }

    mutating func and() throws(BindingError) -> Node {
        var l = try not()
        while true {
            skip()
            let pos = i
            guard keyword("and") else { return l }
            let r = try not()
            l = try node(.and(l.e, r.e), over: max(l.d, r.d), pos)
        }
    }

    mutating func not() throws(BindingError) -> Node {
        skip()
        let pos = i
        if keyword("not") || (at(0) == "!" && at(1) != "=" && take("!")) {
            return try nested(pos) { (p: inout ExpressionParser) throws(BindingError) -> Node in
                let x = try p.not()
                return try p.node(.not(x.e), over: x.d, pos)
            }
        }
        return try comparison()
    }

    /// The comparison operator at `i` and its length.
    func comparisonOperator() -> (BinaryOperator, Int)? {
        let eq = at(1) == "="
        switch at(0) {
        case "=": return eq ? (.equal, 2) : nil
        case "!", "~": return eq ? (.notEqual, 2) : nil
        case "<": return eq ? (.lessEqual, 2) : (.less, 1)
        case ">": return eq ? (.greaterEqual, 2) : (.greater, 1)
        default: return nil
        }
    }

    mutating func comparison() throws(BindingError) -> Node {
        var l = try concat()
        skip()
        if let (op, length) = comparisonOperator() {
            let pos = i
            i += length
            let r = try concat()
            l = try node(.binary(op, l.e, r.e), over: max(l.d, r.d), pos)
        }
        skip()
        var pos = i
        if keyword("between") {
            let lo = try concat()
            guard keyword("and") else { throw fail(i, "expected \"and\" in x between a and b") }
            let hi = try concat()
            l = try node(.between(l.e, lo.e, hi.e), over: max(l.d, lo.d, hi.d), pos)
        }
        skip()
        pos = i
        if keyword("in") {
            skip()
            let open = i
            guard take("(") else { throw fail(i, "expected \"(\" after in") }
            l = try nested(open) { (p: inout ExpressionParser) throws(BindingError) -> Node in
                let first = try p.ternary()
                var items = [first.e]
                var d = max(l.d, first.d)
                while p.take(",") {
                    let item = try p.ternary()
                    items.append(item.e)
                    d = max(d, item.d)
                }
                guard p.take(")") else { throw p.fail(p.i, "expected \")\"") }
                return try p.node(.inList(l.e, items), over: d, pos)
            }
        }
        return l
    }

    mutating func concat() throws(BindingError) -> Node {
        var l = try additive()
        while true {
            skip()
            guard at(0) == ".", at(1) == "." else { return l }
            let pos = i
            i += 2
            let r = try additive()
            l = try node(.binary(.concat, l.e, r.e), over: max(l.d, r.d), pos)
        }
    }

    mutating func additive() throws(BindingError) -> Node {
        var l = try multiplicative()
        while true {
            skip()
            let op: BinaryOperator
            switch at(0) {
            case "+": op = .add
            case "-": op = .subtract
            default: return l
            }
            let pos = i
            i += 1
            let r = try multiplicative()
            l = try node(.binary(op, l.e, r.e), over: max(l.d, r.d), pos)
        }
    }

    mutating func multiplicative() throws(BindingError) -> Node {
        var l = try unary()
        while true {
            skip()
            let op: BinaryOperator
            switch at(0) {
            case "*": op = .multiply
            case "/": op = .divide
            case "%": op = .modulo
            default: return l
            }
            let pos = i
            i += 1
            let r = try unary()
            l = try node(.binary(op, l.e, r.e), over: max(l.d, r.d), pos)
        }
    }

    mutating func unary() throws(BindingError) -> Node {
        skip()
        let pos = i
        if take("-") {
            return try nested(pos) { (p: inout ExpressionParser) throws(BindingError) -> Node in
                let x = try p.unary()
                return try p.node(.negate(x.e), over: x.d, pos)
            }
        }
        return try primary()
    }

    // MARK: Primaries

    mutating func primary() throws(BindingError) -> Node {
        skip()
        guard i < end else { throw fail(i, "expected a value") }
        let start = i
        let c = s[i]
        switch c {
        case "0"..."9":
            return Node(e: .literal(try number()), d: 1)
        case "'":
            let close = scanner.quotes.close(at: i) ?? localClose(from: i)
            if close < 0 || close >= end { throw fail(i, "unterminated quoted string") }
            let text = try scanner.quoted(i..<(close + 1))
            i = close + 1
            if text.unicodeScalars.first == "%" {
                return Node(e: .localized(String(String.UnicodeScalarView(text.unicodeScalars.dropFirst()))), d: 1)
            }
            return Node(e: .literal(.string(text)), d: 1)
        case "(":
            i += 1
            return try nested(start) { (p: inout ExpressionParser) throws(BindingError) -> Node in
                let e = try p.ternary()
                guard p.take(")") else { throw p.fail(p.i, "expected \")\"") }
                return e
            }
        case "{":
            return try braced()
        case "$":
            return try barePath(start, after: start + 1)
        default:
            guard BindingScanner.isNameStart(c) else { throw scanner.unexpected(i, in: true) }
            var j = i
            let n = scanner.name(at: &j, end) ?? ""
            switch n {
            case "true": i = j; return Node(e: .literal(.bool(true)), d: 1)
            case "false": i = j; return Node(e: .literal(.bool(false)), d: 1)
            case "nil": i = j; return Node(e: .literal(.null), d: 1)
            default: break
            }
            if Self.reserved.contains(n) { throw fail(start, "unexpected \"\(n)\"") }
            if j < end, s[j] == "(" { return try call(n, start, open: j) }
            return try barePath(start, after: j)
        }
    }

    /// Parses the path in `r` as a node: as deep as the expressions in its call arguments, plus one.
    mutating func path(_ r: Range<Int>) throws(BindingError) -> Node {
        let outer = scanner.innerDepth
        scanner.innerDepth = 0
        let p = try scanner.path(r)
        let inner = scanner.innerDepth
        scanner.innerDepth = outer
        return try node(.path(p), over: inner, r.lowerBound)
    }

    /// The closing quote of a string at `i` the quote map did not see (-1: none).
    func localClose(from i: Int) -> Int {
        var j = i + 1
        while j < end, s[j] != "'" { j += s[j] == "\\" ? 2 : 1 }
        return j < end ? j : -1
    }

    /// `{path}`: any path syntax inside braces.
    mutating func braced() throws(BindingError) -> Node {
        let open = i
        var level = 0
        var j = i
        var close = -1
        while j < end {
            let c = s[j]
            if c == "\\" { j += 2; continue }
            if c == "'", let q = scanner.quotes.close(at: j) {
                if q < 0 { break }
                j = q + 1
                continue
            }
            if c == "{" {
                level += 1
            } else if c == "}" {
                level -= 1
                if level == 0 { close = j; break }
            }
            j += 1
        }
        if close < 0 { throw fail(end, "expected \"}\"") }
        let inner = scanner.trimmed((open + 1)..<close)
        if inner.isEmpty { throw fail(open + 1, "expected a path inside { }") }
        let p = try nested(open) { (p: inout ExpressionParser) throws(BindingError) -> Node in try p.path(inner) }
        i = close + 1
        return p
    }

    /// A bare path from `start`, whose first name (if any) ends at `j`: `[$]name{.name|.@agg|[filter]}[index]`.
    mutating func barePath(_ start: Int, after j: Int) throws(BindingError) -> Node {
        var k = j
        if s[start] == "$" { _ = scanner.name(at: &k, end) }
        while k < end {
            if s[k] == "[" {
                // An index or a filter: up to its `]` (the path parser reports a bracket that is not closed).
                guard let close = scanner.closingBracket(from: k, end) else { k = end; break }
                k = close + 1
                continue
            }
            guard k + 1 < end, s[k] == "." else { break }
            let next = s[k + 1]
            guard next == "@" || BindingScanner.isNameStart(next) else { break }
            k += next == "@" ? 2 : 1
            _ = scanner.name(at: &k, end)
        }
        let p = try path(start..<k)
        i = k
        return p
    }

    /// `name(args)`, with `open` the index of the "(".
    mutating func call(_ name: String, _ start: Int, open: Int) throws(BindingError) -> Node {
        i = open + 1
        return try nested(open) { (p: inout ExpressionParser) throws(BindingError) -> Node in
            var args: [Expression] = []
            var d = 0
            if !p.take(")") {
                repeat {
                    let a = try p.ternary()
                    args.append(a.e)
                    d = max(d, a.d)
                } while p.take(",")
                guard p.take(")") else { throw p.fail(p.i, "expected \")\"") }
            }
            return try p.node(.call(name: name, args: args, column: start + 1), over: d, start)
        }
    }
}
