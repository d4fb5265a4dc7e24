/// Paths: `[!] [model>] [/] segment {/ segment}` (bindings.md "Grammar").
extension BindingScanner {
    func skipSpaces(_ i: inout Int, _ end: Int) { while i < end, Self.isSpace(s[i]) { i += 1 } }

    func name(at i: inout Int, _ end: Int) -> String? {
        guard i < end, Self.isNameStart(s[i]) else { return nil }
        let a = i
        while i < end, Self.isNameChar(s[i]) { i += 1 }
        return String(String.UnicodeScalarView(s[a..<i]))
    }

    mutating func path(_ r: Range<Int>) throws(BindingError) -> PathExpression {
        var i = r.lowerBound
        let end = r.upperBound
        var negate = false
        if i < end, s[i] == "!" {
            negate = true
            i += 1
            skipSpaces(&i, end)
            if i == end { throw fail(i, "expected a path after \"!\"") }
        }
        var model: String?
        var absolute = false
        // model>: an identifier directly followed by ">" at the very start.
        var j = i
        if let m = name(at: &j, end) {
            var k = j
            skipSpaces(&k, end)
            if k < end, s[k] == ">" {
                model = m
                absolute = true
                i = k + 1
                skipSpaces(&i, end)
            }
        }
        if i < end, s[i] == "/" {
            absolute = true
            i += 1
        }
        var segments: [Segment] = []
        skipSpaces(&i, end)
        if i == end {
            if !absolute { throw fail(i, "expected a path") }
        } else {
            while true {
                skipSpaces(&i, end)
                // As in OKit (okit-behaviour §1.2–1.3): an empty segment in the middle (`books//name`) is kept and
                // means `.`, an empty one at the end (`books/`) is dropped.
                if i == end { break }
                if s[i] == "/" { segments.append(.current); i += 1; continue }
                segments.append(try segment(&i, end))
                skipSpaces(&i, end)
                if i == end { break }
                if s[i] == "/" { i += 1; continue }
                if s[i] == ">" { throw fail(i, "unexpected \">\" (a model prefix like \"directory>\" must start the path)") }
                throw unexpected(i, in: false)
            }
        }
        return PathExpression(negate: negate, model: model, absolute: absolute, segments: segments,
                              text: String(String.UnicodeScalarView(s[r])), column: r.lowerBound + 1)
    }

    mutating func segment(_ i: inout Int, _ end: Int) throws(BindingError) -> Segment {
        let start = i
        let c = s[i]
        func boundary(_ k: Int) -> Bool { k == end || s[k] == "/" || Self.isSpace(s[k]) }
        if c == ".", i + 1 < end, s[i + 1] == ".", boundary(i + 2) { i += 2; return .parent }
        if c == ".", boundary(i + 1) { i += 1; return .current }
        if (c == "~" || c == "<"), boundary(i + 1) { i += 1; return .root }
        if c == "$" {
            i += 1
            let keys = try keyPath(&i, end)
            return .ref(keys: keys, column: start + 1)
        }
        if Self.isNameStart(c) {
            var j = i
            let n = name(at: &j, end) ?? ""
            if j < end, s[j] == "(" {
                i = j
                let args = try arguments(&i, end)
                let idx = try index(&i, end)
                return .call(name: n, args: args, index: idx, column: start + 1)
            }
        }
        let keys = try keyPath(&i, end)
        let idx = try index(&i, end)
        return .property(keys: keys, index: idx, column: start + 1)
    }

    /// What okit calls Foundation's collection operators a port of an OKit app may bring (OKit's KVC took them).
    static func foundationOperatorHint(_ name: String) -> String {
        switch name {
        case "distinctUnionOfObjects", "distinctUnionOfArrays", "distinctUnionOfSets":
            return "; Foundation's @\(name) is @distinct here (books.@distinct.genre)"
        case "unionOfObjects", "unionOfArrays", "unionOfSets":
            return "; Foundation's @\(name) is the path itself here (books/genre gives every book's genre)"
        case "average", "mean": return " (did you mean \"@avg\"?)"
        case "minimum": return " (did you mean \"@min\"?)"
        case "maximum": return " (did you mean \"@max\"?)"
        default:
            let known = ["count", "sum", "avg", "min", "max", "distinct", "first", "last"]
            return NameSuggestion.closest(to: name, in: known).map { " (did you mean \"@\($0)\"?)" } ?? ""
        }
    }

    /// `key {. key}` with filter steps after any key (`expenses[paid == false].@sum.amount`); an integer index
    /// ends the key path (the caller reads it).
    mutating func keyPath(_ i: inout Int, _ end: Int) throws(BindingError) -> [Key] {
        var keys: [Key] = []
        while true {
            if i < end, s[i] == "@" {
                i += 1
                let at = i
                guard let a = name(at: &i, end) else { throw fail(at, "expected an aggregate name after \"@\"") }
                guard let agg = Aggregate(rawValue: a) else {
                    throw fail(at, "unknown aggregate \"@\(a)\"" + Self.foundationOperatorHint(a) + " (count, sum, avg, min, max, distinct, first, last)")
                }
                keys.append(.aggregate(agg))
            } else if let n = name(at: &i, end) {
                keys.append(.name(n, SlotCache()))
            } else {
                throw i < end ? unexpected(i, in: false) : fail(i, "expected a name")
            }
            while let open = filterOpening(after: i, end) { keys.append(.filter(try filter(open, &i, end))) }
            if i < end, s[i] == "." { i += 1; continue }
            return keys
        }
    }

    func index(_ i: inout Int, _ end: Int) throws(BindingError) -> Int? {
        var look = i
        skipSpaces(&look, end)
        guard look < end, s[look] == "[" else { return nil }
        i = look
        i += 1
        skipSpaces(&i, end)
        var negative = false
        if i < end, s[i] == "-" { negative = true; i += 1 }
        let a = i
        var value = 0
        while i < end, ("0"..."9").contains(s[i]) {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (v, o2) = m.addingReportingOverflow(Int(s[i].value - 48))
            if o1 || o2 { throw fail(a, "index too large") }
            value = v
            i += 1
        }
        if i == a { throw fail(i, "expected an integer index") }
        skipSpaces(&i, end)
        guard i < end, s[i] == "]" else { throw fail(i, "expected \"]\"") }
        i += 1
        return negative ? -value : value
    }

    /// `( part {, part} )` starting at the "(".
    mutating func arguments(_ i: inout Int, _ end: Int) throws(BindingError) -> [BindingPart] {
        let open = i
        depth += 1
        defer { depth -= 1 }
        if depth > BindingParser.maxDepth { throw fail(open, "nesting deeper than \(BindingParser.maxDepth)") }
        // Find the matching ")".
        var level = 0
        var j = i
        var close = -1
        while j < end {
            let c = s[j]
            if c == "\\" { j += 2; continue }
            if c == "'", quoteStarts(at: j, partStart: open + 1) {
                let q = j
                j += 1
                while j < end, s[j] != "'" { j += s[j] == "\\" ? 2 : 1 }
                if j >= end { throw fail(q, "unterminated quoted string") }
            } else if c == "(" || c == "[" || c == "{" {
                level += 1
            } else if c == ")" || c == "]" || c == "}" {
                level -= 1
                if level == 0 {
                    guard c == ")" else { throw fail(j, "expected \")\"") }
                    close = j
                    break
                }
            }
            j += 1
        }
        if close < 0 { throw fail(end, "expected \")\"") }
        i = close + 1
        let inner = (open + 1)..<close
        if trimmed(inner).isEmpty { return [] }
        var args: [BindingPart] = []
        for r in try split(inner) {
            if trimmed(r).isEmpty { throw fail(r.lowerBound, "expected an argument") }
            args.append(try part(r))
        }
        return args
    }
}
