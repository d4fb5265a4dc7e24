/// Filter steps of key paths: `expenses[paid == false]`, `books[price > 10 and author.ref.name == 'Herbert']`
/// (bindings.md "Filters"). A bracket whose content is an integer literal (`[0]`, `[-1]`) stays an index.
extension BindingScanner {
    /// The `[` after `i` (spaces skipped) that opens a filter — not an integer index — or nil.
    func filterOpening(after i: Int, _ end: Int) -> Int? {
        var k = i
        skipSpaces(&k, end)
        guard k < end, s[k] == "[", !isIndex(at: k, end) else { return nil }
        return k
    }

    /// Whether the bracket at `open` is an index: an integer literal up to its `]` (`[0]`, `[ -1 ]`). A bracket
    /// that starts like one and is not closed counts as an index too, so `books[0/name` reports the missing `]`
    /// where the index ends.
    func isIndex(at open: Int, _ end: Int) -> Bool {
        var k = open + 1
        skipSpaces(&k, end)
        if k < end, s[k] == "-" { k += 1 }
        let digits = k
        while k < end, ("0"..."9").contains(s[k]) { k += 1 }
        guard k > digits else { return false }
        skipSpaces(&k, end)
        if k < end, s[k] == "]" { return true }
        return closingBracket(from: open, end) == nil
    }

    /// The index of the `]` that closes the `[` at `open` (brackets of every kind nested, quoted strings and
    /// escapes skipped), or nil.
    func closingBracket(from open: Int, _ end: Int) -> Int? {
        let scan = scanBracket(from: open, end)
        return scan.closed ? scan.stop : nil
    }

    /// Where the scan of the bracket at `open` stops: at the closer that brings the nesting back to zero
    /// (`closed` when it is the `]`), at a quote that is not closed before `end`, or at `end`.
    private func scanBracket(from open: Int, _ end: Int) -> (stop: Int, closed: Bool) {
        var level = 0
        var j = open
        while j < end {
            let c = s[j]
            if c == "\\" { j += 2; continue }
            if c == "'", let close = quotes.close(at: j) {
                if close < 0 || close >= end { return (j, false) }
                j = close + 1
                continue
            }
            switch c {
            case "(", "[", "{": level += 1
            case ")", "]", "}":
                level -= 1
                if level == 0 { return (j, c == "]") }
            default: break
            }
            j += 1
        }
        return (end, false)
    }

    /// The filter whose `[` is at `open`; `i` ends after its `]`.
    mutating func filter(_ open: Int, _ i: inout Int, _ end: Int) throws(BindingError) -> Filter {
        guard let close = closingBracket(from: open, end) else {
            throw fail(unclosedAt(open, end), "expected \"]\"")
        }
        let inner = trimmed((open + 1)..<close)
        if inner.isEmpty { throw fail(inner.lowerBound, "expected a filter expression or an index inside [ ]") }
        depth += 1
        defer { depth -= 1 }
        if depth > BindingParser.maxDepth { throw fail(open, "nesting deeper than \(BindingParser.maxDepth)") }
        var ep = ExpressionParser(scanner: self, range: inner)
        let (e, d) = try ep.parse()
        if case .literal(.double) = e { throw fail(inner.lowerBound, "an index must be an integer") }
        innerDepth = max(innerDepth, d)
        i = close + 1
        return Filter(predicate: e, text: string(inner), column: open + 1, closeColumn: close + 1,
                      textColumn: inner.lowerBound + 1)
    }

    /// Where a bracket opened at `open` goes wrong: the first closer of another kind, an unclosed quote, else the
    /// end.
    func unclosedAt(_ open: Int, _ end: Int) -> Int { scanBracket(from: open, end).stop }
}
