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
        // a negated constant, as OKit's flags read it (one `!` stripped, the rest read): `!#false` is true
        ("!#false", "const(bool true)"), ("!#true", "const(bool false)"), ("! #0", "const(bool true)"),
        ("!'no'", "const(bool true)"), ("!#Mark", "const(bool false)"), ("!marked", "!marked"),
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

    // MARK: Part texts

    @Test func partTextsSplitLikeTheParser() throws {
        #expect(try BindingParser.partTexts(" a , fn(b, c), 'x,y', #p\\,q,, %Say: 'hi, z")
                == ["a", "fn(b, c)", "'x,y'", "#p\\,q", "", "%Say: 'hi", "z"])
        #expect(throws: BindingError.self) { try BindingParser.partTexts("a, 'b") }
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
