import Testing
@testable import OKitEngine

/// Renders a compiled binding canonically, for tests.
enum ASTPrinter {
    static func render(_ b: Binding) -> String { b.parts.map(part).joined(separator: " , ") }

    static func part(_ p: BindingPart) -> String {
        switch p {
        case .constant(let v): return "const(\(value(v)))"
        case .localized(let k): return "loc(\(k))"
        case .path(let p): return path(p)
        case .expression(let e, _): return "expr(\(expr(e)))"
        }
    }

    static func value(_ v: Value) -> String {
        switch v {
        case .null: return "nil"
        case .bool(let b): return "bool \(b)"
        case .int(let i): return "int \(i)"
        case .double(let d): return "double \(d)"
        case .string(let s): return "\"\(s)\""
        default: return v.typeName
        }
    }

    static func path(_ p: PathExpression) -> String {
        var s = p.negate ? "!" : ""
        if let m = p.model { s += m + ">" }
        if p.absolute { s += "/" }
        return s + p.segments.map(segment).joined(separator: "/")
    }

    static func keys(_ k: [Key]) -> String {
        k.map { key -> String in
            switch key {
            case .name(let n, _): return n
            case .aggregate(let a): return "@" + a.rawValue
            }
        }.joined(separator: ".")
    }

    static func segment(_ s: Segment) -> String {
        switch s {
        case .current: return "."
        case .parent: return ".."
        case .root: return "~"
        case .ref(let k, _): return "$" + keys(k)
        case .property(let k, let i, _): return keys(k) + (i.map { "[\($0)]" } ?? "")
        case .call(let n, let args, let i, _): return n + "(" + args.map(part).joined(separator: "; ") + ")" + (i.map { "[\($0)]" } ?? "")
        }
    }

    static func expr(_ e: Expression) -> String {
        switch e {
        case .literal(let v): return value(v)
        case .localized(let k): return "loc(\(k))"
        case .path(let p): return "{\(path(p))}"
        case .negate(let x): return "(-\(expr(x)))"
        case .not(let x): return "(not \(expr(x)))"
        case .binary(let op, let l, let r): return "(\(expr(l)) \(op.rawValue) \(expr(r)))"
        case .and(let l, let r): return "(\(expr(l)) and \(expr(r)))"
        case .or(let l, let r): return "(\(expr(l)) or \(expr(r)))"
        case .ternary(let c, let a, let b): return "(\(expr(c)) ? \(expr(a)) : \(expr(b)))"
        case .between(let x, let a, let b): return "(\(expr(x)) between \(expr(a)) and \(expr(b)))"
        case .inList(let x, let l): return "(\(expr(x)) in [\(l.map(expr).joined(separator: ", "))])"
        case .call(let n, let a, _): return "\(n)(\(a.map(expr).joined(separator: ", ")))"
        }
    }
}

@Suite struct BindingParserTests {
    func render(_ text: String) throws -> String { ASTPrinter.render(try BindingParser.parse(text)) }

    @Test(arguments: [
        ("", ""),
        ("   ", ""),
        ("name", "name"),
        ("  name  ", "name"),
        ("books[0]/name", "books[0]/name"),
        ("books[-1]/name", "books[-1]/name"),
        ("books [ 2 ] / name", "books[2]/name"),
        ("/books", "/books"),
        ("/", "/"),
        ("directory>/authors", "directory>/authors"),
        ("directory>authors", "directory>/authors"),
        ("directory>", "directory>/"),
        ("!marked", "!marked"),
        ("!directory>/x", "!directory>/x"),
        ("./name", "./name"),
        ("../name", "../name"),
        ("~/name", "~/name"),
        ("</name", "~/name"),
        ("$author.refKey/name", "$author.refKey/name"),
        ("authors.@count", "authors.@count"),
        ("books.@sum.copies", "books.@sum.copies"),
        ("books/@avg", "books/@avg"),
        ("a.b.c[3]", "a.b.c[3]"),
        ("setAsMarked()", "setAsMarked()"),
        ("label(#!)", "label(const(\"!\"))"),
        ("copies/suffixPlural(#piece)", "copies/suffixPlural(const(\"piece\"))"),
        ("fn(a, #1, 'x, y', %k)", "fn(a; const(int 1); const(\"x, y\"); loc(k))"),
        ("fn(g(h(x)))", "fn(g(h(x)))"),
        ("fn(x)[2]", "fn(x)[2]"),
        ("fn(/genres, directory>/a)", "fn(/genres; directory>/a)"),
        ("fn(=1 + 2)", "fn(expr((int 1 + int 2)))"),
        ("#5", "const(int 5)"),
        ("#-3", "const(int -3)"),
        ("#2.5", "const(double 2.5)"),
        ("#true", "const(bool true)"),
        ("#false", "const(bool false)"),
        ("#007", "const(\"007\")"),
        ("#1e3", "const(\"1e3\")"),
        ("#5.0", "const(\"5.0\")"),
        ("#+5", "const(\"+5\")"),
        ("#Mark", "const(\"Mark\")"),
        ("#", "const(\"\")"),
        ("#a\\,b", "const(\"a,b\")"),
        ("#a\\/b\\(c\\)\\\\", "const(\"a/b(c)\\\")"),
        ("#\\u{2c}x", "const(\",x\")"),
        ("'a, b'", "const(\"a, b\")"),
        ("'it\\'s'", "const(\"it's\")"),
        ("%Price:", "loc(Price:)"),
        ("%Don't", "loc(Don't)"),
        ("%a\\,b", "loc(a,b)"),
        ("%Price: ,price/round2, %EUR", "loc(Price:) , price/round2 , loc(EUR)"),
        (",!marked", "const(nil) , !marked"),
        ("a,,b", "a , const(nil) , b"),
        ("fn(a,b),c", "fn(a; b) , c"),
        ("#x(y,z)", "const(\"x(y,z)\")"),
    ])
    func grammarForms(_ text: String, _ expected: String) throws {
        #expect(try render(text) == expected, "\(text)")
    }

    @Test(arguments: [
        ("=1 + 2 * 3", "expr((int 1 + (int 2 * int 3)))"),
        ("=(1 + 2) * 3", "expr(((int 1 + int 2) * int 3))"),
        ("=10 - 4 - 3", "expr(((int 10 - int 4) - int 3))"),
        ("=a / b % c", "expr((({a} / {b}) % {c}))"),
        ("=-a * b", "expr(((-{a}) * {b}))"),
        ("=a .. b .. c", "expr((({a} .. {b}) .. {c}))"),
        ("=a + b .. c", "expr((({a} + {b}) .. {c}))"),
        ("=a..'x'", "expr(({a} .. \"x\"))"),
        ("=a == b", "expr(({a} == {b}))"),
        ("=a != b", "expr(({a} != {b}))"),
        ("=a <= b", "expr(({a} <= {b}))"),
        ("=a >= b", "expr(({a} >= {b}))"),
        ("=a < b", "expr(({a} < {b}))"),
        ("=a > b", "expr(({a} > {b}))"),
        ("=a or b and c", "expr(({a} or ({b} and {c})))"),
        ("=not a == b", "expr((not ({a} == {b})))"),
        ("=!a", "expr((not {a}))"),
        ("=a and not b", "expr(({a} and (not {b})))"),
        ("=x between 1 and 5", "expr(({x} between int 1 and int 5))"),
        ("=t in ('1', '2')", "expr(({t} in [\"1\", \"2\"]))"),
        ("=c ? a : b", "expr(({c} ? {a} : {b}))"),
        ("=c ? a : d ? e : f", "expr(({c} ? {a} : ({d} ? {e} : {f})))"),
        ("=marked ? '%Marked' : 'Open'", "expr(({marked} ? loc(Marked) : \"Open\"))"),
        ("=true or false", "expr((bool true or bool false))"),
        ("=nil", "expr(nil)"),
        ("=2.5e1", "expr(double 25.0)"),
        ("=authors.@count > 0", "expr(({authors.@count} > int 0))"),
        ("={/genres[0]/name}", "expr({/genres[0]/name})"),
        ("={date/formatDate} .. '!'", "expr(({date/formatDate} .. \"!\"))"),
        ("=round2(price * 1.2)", "expr(round2(({price} * double 1.2)))"),
        ("=if(c, 1, 2)", "expr(if({c}, int 1, int 2))"),
        ("=now()", "expr(now())"),
        ("=$ref.id", "expr({$ref.id})"),
        ("=books[0]", "expr({books[0]})"),
    ])
    func expressions(_ text: String, _ expected: String) throws {
        #expect(try render(text) == expected, "\(text)")
    }

    @Test(arguments: [
        ("books[0/name", 8, "expected \"]\""),
        ("books[x]", 7, "expected an integer index"),
        ("books[]", 7, "expected an integer index"),
        ("a//b", 3, "expected a segment (empty segments are not allowed)"),
        ("a/", 3, "expected a segment (empty segments are not allowed)"),
        ("a>b>c", 4, "unexpected \">\" (a model prefix like \"directory>\" must start the path)"),
        ("a/b>c", 4, "unexpected \">\" (a model prefix like \"directory>\" must start the path)"),
        ("!", 2, "expected a path after \"!\""),
        ("a.@nope", 4, "unknown aggregate \"@nope\" (count, sum, avg, min, max, distinct, first, last)"),
        ("a.@", 4, "expected an aggregate name after \"@\""),
        ("fn(a", 5, "expected \")\""),
        ("fn(a,)", 6, "expected an argument"),
        ("fn(a]", 5, "expected \")\""),
        ("'abc", 1, "unterminated quoted string"),
        ("'a'b", 4, "unexpected text after the quoted string"),
        ("#a\\q", 3, "unknown escape \"\\q\" (use \\, \\/ \\( \\) \\\\ or \\u{hex})"),
        ("#\\u{zz}", 5, "expected hex digits in \\u{…}"),
        ("#\\u{110000}", 2, "\\u{…} is not a valid Unicode scalar"),
        ("#\\u2c", 4, "expected \"{\" after \\u"),
        ("a.b.", 5, "expected a name"),
        ("a b", 3, "unexpected \"b\""),
        ("a,b[", 5, "expected an integer index"),
        ("=", 2, "expected an expression after \"=\""),
        ("=1 +", 5, "expected a value"),
        ("=(1", 4, "expected \")\""),
        ("=a ? b", 7, "expected \":\" in a ? b : c"),
        ("=x between 1", 13, "expected \"and\" in x between a and b"),
        ("=x in 1", 7, "expected \"(\" after in"),
        ("=1 2", 4, "unexpected \"2\""),
        ("=and", 2, "unexpected \"and\""),
        ("={}", 3, "expected a path inside { }"),
        ("={a", 4, "expected \"}\""),
        ("=3x", 3, "unexpected \"x\" after a number"),
        ("=#", 2, "unexpected \"#\""),
        ("=books[0].name", 10, "unexpected \".\""),
    ])
    func errorsCarryTheColumn(_ text: String, _ column: Int, _ message: String) {
        do {
            _ = try BindingParser.parse(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.column == column, "\(text): \(error.message)")
            #expect(error.message == message, "\(text)")
            #expect(error.description == "binding \"\(text)\": \(message) at column \(column)")
        }
    }

    @Test func columnsOfPathsAndSegments() throws {
        let b = try BindingParser.parse("%x, !a/b(c)")
        guard case .path(let p) = b.parts[1] else { Issue.record("not a path"); return }
        #expect(p.column == 5)
        guard case .call(_, _, _, let col) = p.segments[1] else { Issue.record("not a call"); return }
        #expect(col == 8)
    }

    @Test func nestingIsLimited() {
        let deep = String(repeating: "f(", count: 70) + "x" + String(repeating: ")", count: 70)
        #expect(throws: BindingError.self) { try BindingParser.parse(deep) }
        let ok = String(repeating: "f(", count: 30) + "x" + String(repeating: ")", count: 30)
        #expect((try? BindingParser.parse(ok)) != nil)
        let deepExpr = "=" + String(repeating: "(", count: 80) + "1" + String(repeating: ")", count: 80)
        #expect(throws: BindingError.self) { try BindingParser.parse(deepExpr) }
        let minus = "=" + String(repeating: "-", count: 200) + "1"
        #expect(throws: BindingError.self) { try BindingParser.parse(minus) }
    }

    @Test func randomInputNeverCrashes() {
        let alphabet = Array("ab_.@/\\$!#%=>()[]{}',- 0123456789+*<>?:uUnotandorbetweenin\u{e9}\u{1F600}")
        var rng = SplitMix(seed: 7)
        for _ in 0..<20_000 {
            let n = Int(rng.next() % 24)
            var s = ""
            for _ in 0..<n { s.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            do { _ = try BindingParser.parse(s) } catch {
                #expect(error.column >= 1 && error.column <= s.unicodeScalars.count + 1, "\(s): \(error)")
            }
        }
    }

    @Test func compiledBindingsAreCachedByText() throws {
        let cache = BindingCache()
        let a = try cache.binding("books[0]/name")
        let b = try cache.binding("books[0]/name")
        #expect(a === b && cache.count == 1)
        #expect(throws: BindingError.self) { try cache.binding("books[") }
        #expect(throws: BindingError.self) { try cache.binding("books[") }
    }
}
