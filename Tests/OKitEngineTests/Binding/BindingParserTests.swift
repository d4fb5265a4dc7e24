import Testing
@testable import OKitEngine

/// Renders a compiled binding canonically, for tests: parts joined by " , ", call arguments by "; ",
/// expression operands in parentheses, paths inside expressions in braces.
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
        var out = ""
        for key in k {
            switch key {
            case .name(let n, _): out += (out.isEmpty ? "" : ".") + n
            case .aggregate(let a): out += (out.isEmpty ? "" : ".") + "@" + a.rawValue
            case .filter(let f): out += "[\(expr(f.predicate))]"
            }
        }
        return out
    }

    static func segment(_ s: Segment) -> String {
        switch s {
        case .current: return "."
        case .parent: return ".."
        case .root: return "~"
        case .ref(let k, _): return "$" + keys(k)
        case .property(let k, let i, _): return keys(k) + (i.map { "[\($0)]" } ?? "")
        case .call(let n, let args, let i, _):
            return n + "(" + args.map(part).joined(separator: "; ") + ")" + (i.map { "[\($0)]" } ?? "")
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

    /// The columns of every path, segment and expression call, in order: `path@5 call b@8 …`.
    static func columns(_ b: Binding) -> String {
        var out: [String] = []
        func part(_ p: BindingPart) {
            switch p {
            case .path(let x): path(x)
            case .expression(let e, _): expr(e)
            default: break
            }
        }
        func path(_ p: PathExpression) {
            out.append("path@\(p.column)")
            for s in p.segments {
                switch s {
                case .ref(let k, let c): out.append("$\(keys(k))@\(c)")
                case .property(let k, _, let c):
                    out.append("\(keys(k))@\(c)")
                    for case .filter(let f) in k {
                        out.append("[]@\(f.column)")
                        expr(f.predicate)
                    }
                case .call(let n, let args, _, let c):
                    out.append("\(n)()@\(c)")
                    args.forEach(part)
                default: break
                }
            }
        }
        func expr(_ e: Expression) {
            switch e {
            case .path(let p): path(p)
            case .negate(let x), .not(let x): expr(x)
            case .binary(_, let a, let b), .and(let a, let b), .or(let a, let b): expr(a); expr(b)
            case .ternary(let a, let b, let c), .between(let a, let b, let c): expr(a); expr(b); expr(c)
            case .inList(let x, let l): expr(x); l.forEach(expr)
            case .call(let n, let a, let c): out.append("\(n)()@\(c)"); a.forEach(expr)
            default: break
            }
        }
        b.parts.forEach(part)
        return out.joined(separator: " ")
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

@Suite struct BindingParserTests {
    func render(_ text: String) throws -> String { ASTPrinter.render(try BindingParser.parse(text)) }

    func error(_ text: String) -> BindingError? {
        do {
            _ = try BindingParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Parts, constants, quotes, escapes

    @Test(arguments: [
        // empty, splitting, trimming, empty parts
        ("", ""),
        ("   ", ""),
        ("name", "name"),
        ("  name  ", "name"),
        ("a, b ,c", "a , b , c"),
        (",!marked", "const(nil) , !marked"),
        ("a,,b", "a , const(nil) , b"),
        ("a, ", "a , const(nil)"),
        (",", "const(nil) , const(nil)"),
        ("fn(a,b),c", "fn(a; b) , c"),
        ("fn(g(a, b), c), d", "fn(g(a; b); c) , d"),
        ("fn(a[0], b[-1]), c", "fn(a[0]; b[-1]) , c"),
        ("fn('a)b, c', d), e", "fn(const(\"a)b, c\"); d) , e"),
        ("#x(y,z)", "const(\"x(y,z)\")"),
        ("#x[y,z], #w{a,b}", "const(\"x[y,z]\") , const(\"w{a,b}\")"),
        ("#x\\,y, z", "const(\"x,y\") , z"),
        ("'a/b(c)', x", "const(\"a/b(c)\") , x"),
        ("%Price: ,price/round2, %EUR", "loc(Price:) , price/round2 , loc(EUR)"),
        // typed constants
        ("#5", "const(int 5)"),
        ("#-3", "const(int -3)"),
        ("#0", "const(int 0)"),
        ("#2.5", "const(double 2.5)"),
        ("#-0.25", "const(double -0.25)"),
        ("#true", "const(bool true)"),
        ("#false", "const(bool false)"),
        ("#TRUE", "const(\"TRUE\")"),
        ("#007", "const(\"007\")"),
        ("#1e3", "const(\"1e3\")"),
        ("#5.0", "const(\"5.0\")"),
        ("#+5", "const(\"+5\")"),
        ("#-0", "const(\"-0\")"),
        ("#.5", "const(\".5\")"),
        ("#1.10", "const(\"1.10\")"),
        ("#5 ", "const(int 5)"),
        ("#Mark", "const(\"Mark\")"),
        ("#", "const(\"\")"),
        ("#it's", "const(\"it's\")"),
        ("#a: 'b, c", "const(\"a: 'b\") , c"),
        // escapes
        ("#a\\,b", "const(\"a,b\")"),
        ("#a\\/b\\(c\\)\\\\", "const(\"a/b(c)\\\")"),
        ("#\\u{2c}x", "const(\",x\")"),
        ("#\\u{1F600}", "const(\"\u{1F600}\")"),
        ("#\\u{35}", "const(int 5)"),
        ("#don\\'t", "const(\"don't\")"),
        ("%\\u{41}b", "loc(Ab)"),
        // quoted strings
        ("'a, b'", "const(\"a, b\")"),
        ("'it\\'s'", "const(\"it's\")"),
        ("''", "const(\"\")"),
        ("  '  a  '  ", "const(\"  a  \")"),
        ("'a\\u{2c}b'", "const(\"a,b\")"),
        ("'x', 'y'", "const(\"x\") , const(\"y\")"),
        // localized
        ("%Price:", "loc(Price:)"),
        ("%Don't", "loc(Don't)"),
        ("%Don't, x", "loc(Don't) , x"),
        ("%Say: 'hi, x", "loc(Say: 'hi) , x"),
        ("%a\\,b", "loc(a,b)"),
        ("%", "loc()"),
    ])
    func parts(_ text: String, _ expected: String) throws {
        #expect(try render(text) == expected, "\(text)")
    }

    // MARK: Paths

    @Test(arguments: [
        ("books[0]/name", "books[0]/name"),
        ("books[-1]/name", "books[-1]/name"),
        ("books [ 2 ] / name", "books[2]/name"),
        ("books / name", "books/name"),
        ("/books", "/books"),
        ("/", "/"),
        ("!/", "!/"),
        ("directory>/authors", "directory>/authors"),
        ("directory>authors", "directory>/authors"),
        ("directory > authors", "directory>/authors"),
        ("directory>", "directory>/"),
        ("!marked", "!marked"),
        ("! marked", "!marked"),
        ("!directory>/x", "!directory>/x"),
        (".", "."),
        ("./name", "./name"),
        ("../name", "../name"),
        ("../../name", "../../name"),
        (". / ..", "./.."),
        ("~/name", "~/name"),
        ("</name", "~/name"),
        ("$author", "$author"),
        ("$author.refKey/name", "$author.refKey/name"),
        ("$a.@first", "$a.@first"),
        ("authors.@count", "authors.@count"),
        ("books.@sum.copies", "books.@sum.copies"),
        ("books/@avg", "books/@avg"),
        ("a.@min/b.@max/c.@distinct/d.@first/e.@last", "a.@min/b.@max/c.@distinct/d.@first/e.@last"),
        ("a.b.c[3]", "a.b.c[3]"),
        ("_x1/é", "_x1/é"),
        ("setAsMarked()", "setAsMarked()"),
        ("fn( )", "fn()"),
        ("fn()[-1]", "fn()[-1]"),
        ("fn(x)[2]", "fn(x)[2]"),
        ("label(#!)", "label(const(\"!\"))"),
        ("copies/suffixPlural(#piece)", "copies/suffixPlural(const(\"piece\"))"),
        ("fn(a, #1, 'x, y', %k)", "fn(a; const(int 1); const(\"x, y\"); loc(k))"),
        ("fn(g(h(x)))", "fn(g(h(x)))"),
        ("fn(/genres, directory>/a)", "fn(/genres; directory>/a)"),
        ("fn(=1 + 2)", "fn(expr((int 1 + int 2)))"),
        ("fn(=a .. 'x, y')", "fn(expr(({a} .. \"x, y\")))"),
        ("fn(#a: 'b)", "fn(const(\"a: 'b\"))"),
        ("fn(!a, ../b)", "fn(!a; ../b)"),
        ("and/or/not", "and/or/not"),
    ])
    func paths(_ text: String, _ expected: String) throws {
        #expect(try render(text) == expected, "\(text)")
    }

    // MARK: Expressions

    @Test(arguments: [
        // arithmetic and precedence
        ("=1 + 2 * 3", "expr((int 1 + (int 2 * int 3)))"),
        ("=(1 + 2) * 3", "expr(((int 1 + int 2) * int 3))"),
        ("=10 - 4 - 3", "expr(((int 10 - int 4) - int 3))"),
        ("=a / b % c", "expr((({a} / {b}) % {c}))"),
        ("=a%b", "expr(({a} % {b}))"),
        ("=-a * b", "expr(((-{a}) * {b}))"),
        ("=a * -b", "expr(({a} * (-{b})))"),
        ("=a - -b", "expr(({a} - (-{b})))"),
        ("=- -a", "expr((-(-{a})))"),
        ("=-2", "expr((-int 2))"),
        // concatenation
        ("=a .. b .. c", "expr((({a} .. {b}) .. {c}))"),
        ("=a + b .. c", "expr((({a} + {b}) .. {c}))"),
        ("=a..'x'", "expr(({a} .. \"x\"))"),
        ("=name .. 'x'", "expr(({name} .. \"x\"))"),
        ("=a.b..c", "expr(({a.b} .. {c}))"),
        ("=1..2", "expr((int 1 .. int 2))"),
        ("=name .. ' (' .. authors.@count .. ')'", "expr(((({name} .. \" (\") .. {authors.@count}) .. \")\"))"),
        // comparisons
        ("=a == b", "expr(({a} == {b}))"),
        ("=a != b", "expr(({a} != {b}))"),
        ("=a <= b", "expr(({a} <= {b}))"),
        ("=a >= b", "expr(({a} >= {b}))"),
        ("=a < b", "expr(({a} < {b}))"),
        ("=a > b", "expr(({a} > {b}))"),
        ("=a+1<b*2", "expr((({a} + int 1) < ({b} * int 2)))"),
        ("=a .. b == c", "expr((({a} .. {b}) == {c}))"),
        ("=x between 1 and 5", "expr(({x} between int 1 and int 5))"),
        ("=x between 1 and 5 and y", "expr((({x} between int 1 and int 5) and {y}))"),
        ("=x between a + 1 and b * 2", "expr(({x} between ({a} + int 1) and ({b} * int 2)))"),
        ("=t in ('1', '2')", "expr(({t} in [\"1\", \"2\"]))"),
        ("=t in ('1','2')", "expr(({t} in [\"1\", \"2\"]))"),
        ("=x in(1, 2)", "expr(({x} in [int 1, int 2]))"),
        ("=x in (1)", "expr(({x} in [int 1]))"),
        ("=x in (a ? 1 : 2, 3)", "expr(({x} in [({a} ? int 1 : int 2), int 3]))"),
        // logic
        ("=a or b and c", "expr(({a} or ({b} and {c})))"),
        ("=(a or b) and c", "expr((({a} or {b}) and {c}))"),
        ("=a and b or c and d", "expr((({a} and {b}) or ({c} and {d})))"),
        ("=not a == b", "expr((not ({a} == {b})))"),
        ("=!a", "expr((not {a}))"),
        ("=!a == b", "expr((not ({a} == {b})))"),
        ("=not not a", "expr((not (not {a})))"),
        ("=not(a)", "expr((not {a}))"),
        ("=a and(b)", "expr(({a} and {b}))"),
        ("=a or(b)", "expr(({a} or {b}))"),
        ("=a and not b", "expr(({a} and (not {b})))"),
        ("=not a and b", "expr(((not {a}) and {b}))"),
        ("=a == b and c != d", "expr((({a} == {b}) and ({c} != {d})))"),
        // ternary
        ("=c ? a : b", "expr(({c} ? {a} : {b}))"),
        ("=c ? a : d ? e : f", "expr(({c} ? {a} : ({d} ? {e} : {f})))"),
        ("=c ? d ? e : f : g", "expr(({c} ? ({d} ? {e} : {f}) : {g}))"),
        ("=a or b ? 1 : 2", "expr((({a} or {b}) ? int 1 : int 2))"),
        ("=a < b ? 'y' : 'n'", "expr((({a} < {b}) ? \"y\" : \"n\"))"),
        ("=marked ? '%Marked' : 'Open'", "expr(({marked} ? loc(Marked) : \"Open\"))"),
        // literals
        ("=true or false", "expr((bool true or bool false))"),
        ("=nil", "expr(nil)"),
        ("=0", "expr(int 0)"),
        ("=0.5", "expr(double 0.5)"),
        ("=1e3", "expr(double 1000.0)"),
        ("=2.5e1", "expr(double 25.0)"),
        ("=1.5E-2", "expr(double 0.015)"),
        ("=99999999999999999999", "expr(double 1e+20)"),
        ("=''", "expr(\"\")"),
        ("='a\\'b'", "expr(\"a'b\")"),
        ("='a, b'", "expr(\"a, b\")"),
        ("='%'", "expr(loc())"),
        ("='%Price'", "expr(loc(Price))"),
        // paths and calls
        ("=authors.@count > 0", "expr(({authors.@count} > int 0))"),
        ("=a.b.@sum", "expr({a.b.@sum})"),
        ("=books[0]", "expr({books[0]})"),
        ("=$ref.id", "expr({$ref.id})"),
        ("=andy + nothing", "expr(({andy} + {nothing}))"),
        ("={/genres[0]/name}", "expr({/genres[0]/name})"),
        ("={date/formatDate} .. '!'", "expr(({date/formatDate} .. \"!\"))"),
        ("={!marked}", "expr({!marked})"),
        ("={m>x}", "expr({m>/x})"),
        ("={/}", "expr({/})"),
        ("={ .. }", "expr({..})"),
        ("={fn(#a, b)}", "expr({fn(const(\"a\"); b)})"),
        ("={fn('}')}", "expr({fn(const(\"}\"))})"),
        ("=round2(price * 1.2)", "expr(round2(({price} * double 1.2)))"),
        ("=if(c, 1, 2)", "expr(if({c}, int 1, int 2))"),
        ("=coalesce(a, 'x, y')", "expr(coalesce({a}, \"x, y\"))"),
        ("=upper(name) .. '!'", "expr((upper({name}) .. \"!\"))"),
        ("=now()", "expr(now())"),
        ("=f(g(1), -2)", "expr(f(g(int 1), (-int 2)))"),
        ("=  a  ", "expr({a})"),
        ("=a, b", "expr({a}) , b"),
        ("=a, =b", "expr({a}) , expr({b})"),
    ])
    func expressions(_ text: String, _ expected: String) throws {
        #expect(try render(text) == expected, "\(text)")
    }

    @Test func expressionKeepsItsText() throws {
        let b = try BindingParser.parse("#x, = a + b ")
        guard case .expression(_, let text) = b.parts[1] else { Issue.record("not an expression"); return }
        #expect(text == " a + b")
        #expect(b.text == "#x, = a + b ")
        #expect(try BindingParser.parse("").isEmpty)
        #expect(try !BindingParser.parse("a").isEmpty)
    }

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
        ("a//b", 3, "expected a segment (empty segments are not allowed)"),
        ("a/", 3, "expected a segment (empty segments are not allowed)"),
        ("/ /", 3, "expected a segment (empty segments are not allowed)"),
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
        ("={a/}", 5, "expected a segment (empty segments are not allowed)"),
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

    // MARK: Columns

    @Test(arguments: [
        ("%x, !a/b(c)", "path@5 a@6 b()@8 path@10 c@10"),
        ("  books / name", "path@3 books@3 name@11"),
        ("$a.b/c", "path@1 $a.b@1 c@6"),
        ("m>x/ y", "path@1 x@3 y@6"),
        ("fn(a, 'q', b)", "path@1 fn()@1 path@4 a@4 path@12 b@12"),
        ("=a + {b/c} * f(d)", "path@2 a@2 path@7 b@7 c@9 f()@14 path@16 d@16"),
        ("x,  =  $r", "path@1 x@1 path@8 $r@8"),
    ])
    func columnsOfPathsAndSegments(_ text: String, _ expected: String) throws {
        #expect(ASTPrinter.columns(try BindingParser.parse(text)) == expected, "\(text)")
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

    // MARK: Part texts

    @Test func partTextsSplitLikeTheParser() throws {
        #expect(try BindingParser.partTexts(" a , fn(b, c), 'x,y', #p\\,q,, %Say: 'hi, z")
                == ["a", "fn(b, c)", "'x,y'", "#p\\,q", "", "%Say: 'hi", "z"])
        #expect(throws: BindingError.self) { try BindingParser.partTexts("a, 'b") }
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

    @Test func compiledBindingsAreCachedByText() throws {
        let cache = BindingCache()
        let a = try cache.binding("books[0]/name")
        let b = try cache.binding("books[0]/name")
        #expect(a === b && cache.count == 1)
        #expect(throws: BindingError.self) { try cache.binding("books[") }
        #expect(throws: BindingError.self) { try cache.binding("books[") }
    }
}
