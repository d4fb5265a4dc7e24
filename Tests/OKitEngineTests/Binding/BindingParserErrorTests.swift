import Testing
@testable import OKitEngine

/// The binding parser's refusals (each with its column), its limits, and fuzzing: no input crashes it.
@Suite struct BindingParserErrorTests {
    func render(_ text: String) throws -> String { try BindingParserTests().render(text) }

    func error(_ text: String) -> BindingError? { BindingParserTests().error(text) }

    // MARK: Errors

    @Test(arguments: [
        // indexes and brackets
        ("books[0/name", 8, "expected \"]\""),
        ("books[0", 8, "expected \"]\""),
        ("books[1.5]", 7, "an index must be an integer"),
        ("books[-]", 8, "expected a value"),
        ("books[99999999999999999999]", 7, "index too large"),
        ("a,b[", 5, "expected \"]\""),
        ("fn(a)[0", 8, "expected \"]\""),
        ("fn(a, b[x > ])", 12, "expected a value"),
        // segments
        ("a b", 3, "unexpected \"b\""),
        ("a/b)", 4, "unexpected \")\""),
        ("(a", 1, "unexpected \"(\""),
        ("...", 1, "unexpected \".\""),
        ("a..b", 3, "unexpected \".\""),
        ("a.b.", 5, "expected a name"),
        ("$", 2, "expected a name"),
        ("$.x", 2, "unexpected \".\""),
        ("!!a", 2, "unexpected \"!\""),
        ("!", 2, "expected a path after \"!\""),
        ("x, ! ", 5, "expected a path after \"!\""),
        // model prefix
        ("a>b>c", 4, "unexpected \">\" (a model prefix like \"directory>\" must start the path)"),
        ("a/b>c", 4, "unexpected \">\" (a model prefix like \"directory>\" must start the path)"),
        ("/m>x", 3, "unexpected \">\" (a model prefix like \"directory>\" must start the path)"),
        ("x, a>b>c", 7, "unexpected \">\" (a model prefix like \"directory>\" must start the path)"),
        ("m>>x", 3, "unexpected \">\""),
        ("a/>", 3, "unexpected \">\""),
        // aggregates
        ("a.@nope", 4, "unknown aggregate \"@nope\" (count, sum, avg, min, max, distinct, first, last)"),
        ("a.@avgx", 4, "unknown aggregate \"@avgx\" (did you mean \"@avg\"?) (count, sum, avg, min, max, distinct, first, last)"),
        ("a.@distinctUnionOfObjects.b", 4, "unknown aggregate \"@distinctUnionOfObjects\"; Foundation's @distinctUnionOfObjects is @distinct here (books.@distinct.genre) (count, sum, avg, min, max, distinct, first, last)"),
        ("a.@average", 4, "unknown aggregate \"@average\" (did you mean \"@avg\"?) (count, sum, avg, min, max, distinct, first, last)"),
        ("a.@", 4, "expected an aggregate name after \"@\""),
        // calls
        ("fn(a", 5, "expected \")\""),
        ("fn(a,)", 6, "expected an argument"),
        ("fn(,a)", 4, "expected an argument"),
        ("fn(a]", 5, "expected \")\""),
        ("fn(a)(b)", 6, "unexpected \"(\""),
        ("fn(a))", 6, "unexpected \")\""),
        // quotes
        ("'abc", 1, "unterminated quoted string"),
        ("'a'b", 4, "unexpected text after the quoted string"),
        ("'it''s'", 5, "unexpected text after the quoted string"),
        ("fn('a", 4, "unterminated quoted string"),
        ("x, 'a\\'", 4, "unterminated quoted string"),
        // escapes
        ("#a\\q", 3, "unknown escape \"\\q\" (use \\, \\/ \\( \\) \\\\ \\' or \\u{hex})"),
        ("#a\\[", 3, "unknown escape \"\\[\" (use \\, \\/ \\( \\) \\\\ \\' or \\u{hex})"),
        ("%a\\n", 3, "unknown escape \"\\n\" (use \\, \\/ \\( \\) \\\\ \\' or \\u{hex})"),
        ("'a\\tb'", 3, "unknown escape \"\\t\" (use \\, \\/ \\( \\) \\\\ \\' or \\u{hex})"),
        ("#\\", 2, "incomplete escape"),
        ("#\\u2c", 4, "expected \"{\" after \\u"),
        ("#\\u{zz}", 5, "expected hex digits in \\u{…}"),
        ("#\\u{}", 5, "expected hex digits in \\u{…}"),
        ("#\\u{41", 7, "expected \"}\""),
        ("#\\u{123456789}", 13, "too many hex digits in \\u{…}"),
        ("#\\u{110000}", 2, "\\u{…} is not a valid Unicode scalar"),
        ("#\\u{d800}", 2, "\\u{…} is not a valid Unicode scalar"),
        // expressions
        ("=", 2, "expected an expression after \"=\""),
        ("= ", 2, "expected an expression after \"=\""),
        ("a, =1 +", 8, "expected a value"),
        ("=1 +", 5, "expected a value"),
        ("=-", 3, "expected a value"),
        ("=not", 5, "expected a value"),
        ("=(1", 4, "expected \")\""),
        ("=a)", 3, "unexpected \")\""),
        ("=a ? b", 7, "expected \":\" in a ? b : c"),
        ("=a ? b :", 9, "expected a value"),
        ("=x between 1", 13, "expected \"and\" in x between a and b"),
        ("=x between 1 or 2", 14, "expected \"and\" in x between a and b"),
        ("=x in 1", 7, "expected \"(\" after in"),
        ("=x in (1, 2", 12, "expected \")\""),
        ("=x in ()", 8, "unexpected \")\""),
        ("=1 2", 4, "unexpected \"2\""),
        ("=a = b", 4, "unexpected \"=\""),
        ("=a == b == c", 9, "unexpected \"=\""),
        ("=and", 2, "unexpected \"and\""),
        ("=between", 2, "unexpected \"between\""),
        ("=a or in", 7, "unexpected \"in\""),
        ("=true(", 6, "unexpected \"(\""),
        ("={}", 3, "expected a path inside { }"),
        ("={a", 4, "expected \"}\""),
        ("=3x", 3, "unexpected \"x\" after a number"),
        ("=1e", 3, "unexpected \"e\" after a number"),
        ("=1.", 3, "unexpected \".\""),
        ("=1e999", 2, "number out of range"),
        ("=#", 2, "unexpected \"#\""),
        ("=@a", 2, "unexpected \"@\""),
        ("=a.@nope", 5, "unknown aggregate \"@nope\" (count, sum, avg, min, max, distinct, first, last)"),
        ("=$", 3, "expected a name"),
        ("=a[0", 5, "expected \"]\""),
        ("=a[x", 5, "expected \"]\""),
        ("books[]", 7, "expected a filter expression or an index inside [ ]"),
        ("books[ ]/name", 8, "expected a filter expression or an index inside [ ]"),
        ("books[price >]", 14, "expected a value"),
        ("books[price > 10", 17, "expected \"]\""),
        ("books[price = 10]", 13, "unexpected \"=\""),
        ("books[price > 10)", 17, "expected \"]\""),
        ("books[name == 'x]", 15, "unterminated quoted string"),
        ("=books[paid == ] > 1", 15, "expected a value"),
        ("fn(x)[price > 1]", 7, "expected an integer index"),
        ("=books[0].name", 10, "unexpected \".\""),
        ("=books[-1].name", 11, "unexpected \".\""),
        ("=fn(a", 6, "expected \")\""),
        ("=fn(a b)", 7, "expected \")\""),
        ("=a == 'x", 7, "unterminated quoted string"),
        ("='a\\q'", 4, "unknown escape \"\\q\" (use \\, \\/ \\( \\) \\\\ \\' or \\u{hex})"),
    ])
    func errorsCarryTheColumn(_ text: String, _ column: Int, _ message: String) {
        guard let e = error(text) else {
            Issue.record("\(text) parsed")
            return
        }
        #expect(e.column == column, "\(text): \(e.message)")
        #expect(e.message == message, "\(text)")
        #expect(e.binding == text)
        #expect(e.description == "binding \"\(text)\": \(message) at column \(column)")
    }

    @Test func errorDescription() {
        #expect(error("books[0/name") == BindingError(binding: "books[0/name", column: 8, message: "expected \"]\""))
        #expect(error("books[0/name")?.description == "binding \"books[0/name\": expected \"]\" at column 8")
    }

    // MARK: Limits

    @Test func nestingIsLimitedTo64() {
        func nest(_ open: String, _ inner: String, _ close: String, _ n: Int) -> String {
            String(repeating: open, count: n) + inner + String(repeating: close, count: n)
        }
        #expect((try? BindingParser.parse(nest("f(", "x", ")", 64))) != nil)
        #expect(error(nest("f(", "x", ")", 65)) == BindingError(binding: nest("f(", "x", ")", 65), column: 130,
                                                                 message: "nesting deeper than 64"))
        #expect((try? BindingParser.parse("=" + nest("(", "1", ")", 64))) != nil)
        #expect(error("=" + nest("(", "1", ")", 65))?.column == 66)
        #expect(error("=" + nest("(", "1", ")", 65))?.message == "nesting deeper than 64")
        #expect(error(nest("[", "", "", 65))?.column == 65)
        #expect(error("#" + nest("{", "", "", 70))?.message == "nesting deeper than 64")
        #expect(error(nest("f(", "'x'", ")", 65))?.column == 130)
        // not, unary minus and ternaries nest too
        #expect((try? BindingParser.parse("=" + String(repeating: "-", count: 64) + "1")) != nil)
        #expect(error("=" + String(repeating: "-", count: 65) + "1")?.column == 66)
        #expect(error("=" + String(repeating: "!", count: 65) + "a")?.column == 66)
        #expect(error("=" + String(repeating: "not ", count: 65) + "a")?.column == 258)
        #expect(error("=" + String(repeating: "a ? b : ", count: 65) + "c")?.message == "nesting deeper than 64")
        #expect(error("=" + String(repeating: "f(", count: 40) + String(repeating: "{g(", count: 30) + "x")?
            .message == "nesting deeper than 64")
        // A huge input of either kind is an error, never a crash.
        #expect(error("=" + String(repeating: "-", count: 60_000) + "1")?.message == "nesting deeper than 64")
        #expect(error(String(repeating: "(", count: 60_000))?.message == "nesting deeper than 64")
        #expect(error(String(repeating: "(", count: 100_000))?.message == "binding text too long (100000 bytes; the limit is 64 KiB)")
    }

    @Test func expressionTreesAreLimitedInDepth() {
        let max = BindingParser.maxExpressionDepth
        let message = "expression nested too deeply (more than \(max) levels)"
        // A chain of n operators is a tree n + 1 deep.
        let ok = "=1" + String(repeating: "+1", count: max - 1)
        #expect((try? BindingParser.parse(ok)) != nil)
        let long = "=1" + String(repeating: "+1", count: max)
        #expect(error(long) == BindingError(binding: long, column: 2 * max + 1, message: message))
        // A chain inside a chain's first operand counts too.
        let inner = "(a" + String(repeating: " and a", count: 200) + ")"
        #expect(error("=" + inner + String(repeating: " or a", count: 100))?.message == message)
        #expect((try? BindingParser.parse("=" + inner + String(repeating: " or a", count: 50))) != nil)
        // So do expressions inside a path's arguments.
        let arg = "={f(=1" + String(repeating: "+1", count: 200) + ")}"
        #expect(error(arg + String(repeating: "+1", count: 100))?.message == message)
        #expect((try? BindingParser.parse(arg + String(repeating: "+1", count: 50))) != nil)
        #expect(error("=x in (" + String(repeating: "1 .. ", count: 300) + "1)")?.message == message)
        // Huge inputs are errors, not crashes.
        #expect(error("=1" + String(repeating: " .. 1", count: 12_000))?.message == message)
        #expect(error("=1" + String(repeating: "*1", count: 30_000))?.message == message)
        #expect(error("=a" + String(repeating: " or a", count: 12_000))?.message == message)
        // Past the length limit, texts are refused before parsing.
        #expect(error("=1" + String(repeating: "*1", count: 1_000_000))?.message == "binding text too long (2000002 bytes; the limit is 64 KiB)")
    }

    @Test func longFlatInputsParse() throws {
        let parts = Array(repeating: "books[1]/name", count: 4_000).joined(separator: ", ")
        #expect(try BindingParser.parse(parts).parts.count == 4_000)
        let path = Array(repeating: "a", count: 5_000).joined(separator: "/")
        guard case .path(let p) = try BindingParser.parse(path).parts[0] else { Issue.record("not a path"); return }
        #expect(p.segments.count == 5_000)
        #expect(try BindingParser.parse("#" + String(repeating: "'", count: 10_001)).parts.count == 1)
        #expect(try BindingParser.parse("%" + String(repeating: "a: 'b ", count: 10_000)).parts.count == 1)
    }

    // MARK: Fuzz

    @Test func randomInputNeverCrashes() {
        let alphabet = Array("ab_.@/\\$!#%=>()[]{}',- 0123456789+*<>?:uUnotandorbetweenin\u{e9}\u{1F600}")
        var rng = FuzzRandom(state: 7)
        for _ in 0..<20_000 {
            let n = rng.below(24)
            var s = ""
            for _ in 0..<n { s.append(alphabet[rng.below(alphabet.count)]) }
            check(s)
        }
    }

    /// Mutations of valid bindings: insert, delete or replace a few scalars.
    @Test func mutatedBindingsNeverCrash() {
        let seeds = [
            "%Price: ,price/round2, %EUR", "books[0]/authors[-1]/name", "directory>/groups/@count",
            "fn(a, #1, 'x, y', %k)[2]", "=price * copies > 10 ? 'big' : 'small'", "=x between 1 and 5 or t in ('1','2')",
            "=name .. ' (' .. authors.@count .. ')'", "={/genres[0]/name} .. round2(-a % 3)", "!$author.refKey/../~/<",
            "#\\u{2c}\\,\\/\\(\\)\\\\", "=not a and !(b or c) == 1e3",
        ]
        let pieces = Array("()[]{}'\\,/=!#%$@.<>?:-+ u{}0aZ\u{301}")
        var rng = FuzzRandom(state: 42)
        for _ in 0..<20_000 {
            var s = Array(seeds[rng.below(seeds.count)].unicodeScalars)
            for _ in 0..<(1 + rng.below(3)) {
                let at = rng.below(s.count + 1)
                let piece = pieces[rng.below(pieces.count)].unicodeScalars.first ?? "x"
                switch rng.below(3) {
                case 0: s.insert(piece, at: at)
                case 1: if at < s.count { s.remove(at: at) }
                default: if at < s.count { s[at] = piece }
                }
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: s)
            check(String(text))
        }
    }

    /// Random expression trees written fully parenthesized (spaced or compact) parse back to the same tree.
    @Test func randomExpressionTreesRoundTrip() throws {
        var rng = FuzzRandom(state: 2024)
        func gen(_ depth: Int) -> (source: String, tree: String) {
            let atoms: [(String, String)] = [
                ("5", "int 5"), ("2.5", "double 2.5"), ("a", "{a}"), ("price", "{price}"), ("x.@count", "{x.@count}"),
                ("'q'", "\"q\""), ("true", "bool true"), ("nil", "nil"), ("{a/b}", "{a/b}"), ("$r", "{$r}"),
            ]
            if depth == 0 || rng.below(4) == 0 { return atoms[rng.below(atoms.count)] }
            let compact = rng.below(2) == 0
            let sp = compact ? "" : " "
            switch rng.below(9) {
            case 0, 1, 2:
                let ops = ["+", "-", "*", "/", "%", "..", "==", "!=", "<", "<=", ">", ">="]
                let op = ops[rng.below(ops.count)]
                let l = gen(depth - 1), r = gen(depth - 1)
                return ("(\(l.source)\(sp)\(op)\(sp)\(r.source))", "(\(l.tree) \(op) \(r.tree))")
            case 3:
                let op = rng.below(2) == 0 ? "and" : "or"
                let l = gen(depth - 1), r = gen(depth - 1)
                return ("(\(l.source) \(op) \(r.source))", "(\(l.tree) \(op) \(r.tree))")
            case 4:
                let x = gen(depth - 1)
                if rng.below(2) == 0 { return ("(-\(x.source))", "(-\(x.tree))") }
                return (rng.below(2) == 0 ? "(not \(x.source))" : "(!\(x.source))", "(not \(x.tree))")
            case 5:
                let c = gen(depth - 1), a = gen(depth - 1), b = gen(depth - 1)
                return ("(\(c.source)\(sp)?\(sp)\(a.source)\(sp):\(sp)\(b.source))", "(\(c.tree) ? \(a.tree) : \(b.tree))")
            case 6:
                let x = gen(depth - 1), a = gen(depth - 1), b = gen(depth - 1)
                return ("(\(x.source) between \(a.source) and \(b.source))", "(\(x.tree) between \(a.tree) and \(b.tree))")
            case 7:
                let x = gen(depth - 1)
                let items = (0..<(1 + rng.below(3))).map { _ in gen(depth - 1) }
                return ("(\(x.source) in (\(items.map(\.source).joined(separator: ",\(sp)"))))",
                        "(\(x.tree) in [\(items.map(\.tree).joined(separator: ", "))])")
            default:
                let args = (0..<rng.below(3)).map { _ in gen(depth - 1) }
                return ("f(\(args.map(\.source).joined(separator: ",\(sp)")))",
                        "f(\(args.map(\.tree).joined(separator: ", ")))")
            }
        }
        for _ in 0..<3_000 {
            let (source, tree) = gen(5)
            #expect(try render("=" + source) == "expr(\(tree))", "\(source)")
        }
    }

    func check(_ s: String) {
        do {
            let b = try BindingParser.parse(s)
            #expect(b.text == s)
            _ = ASTPrinter.render(b)
            _ = ASTPrinter.columns(b)
        } catch {
            #expect(error.column >= 1 && error.column <= s.unicodeScalars.count + 1, "\(s): \(error)")
            #expect(error.binding == s)
        }
    }
}

/// A fixed-seed generator for the fuzz tests (SplitMix64).
fileprivate struct FuzzRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
