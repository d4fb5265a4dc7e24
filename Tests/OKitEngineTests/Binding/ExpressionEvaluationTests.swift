import Foundation
import Testing
@testable import OKitEngine

@Suite struct ExpressionEvaluationTests {
    let f: ShopFixture

    init() throws {
        f = try ShopFixture()
        try f.start()
        try f.engine.set(f.book(1), "marked", .bool(true))
    }

    func eval(_ text: String, on ctx: Entity? = nil) throws -> Value {
        try f.engine.get(ctx ?? f.book(1), text)
    }

    @Test(arguments: [
        ("=1 + 2 * 3", "int 7"),
        ("=(1 + 2) * 3", "int 9"),
        ("=10 - 4 - 3", "int 3"),
        ("=7 / 2", "double 3.5"),
        ("=8 / 4", "double 2"),
        ("=7 % 3", "int 1"),
        ("=-7 % 3", "int 2"),
        ("=7 % -3", "int -2"),
        ("=7.5 % 2", "double 1.5"),
        ("=-(2 + 3)", "int -5"),
        ("=2 * -3", "int -6"),
        ("=1 / 0", "nil"),
        ("=1 % 0", "nil"),
        ("=9223372036854775807 + 1", "double 9223372036854776000"),
        ("=price * copies", "double 42"),
        ("=copies + '3'", "int 5"),
        ("='a' + 1", "nil"),
        ("=name .. ' (' .. authors.@count .. ')'", "string Emma (1)"),
        ("=1 .. 2", "string 12"),
        ("=1 + 2 .. 3", "string 33"),
        ("=copies == 2", "bool true"),
        ("=copies == 2.0", "bool true"),
        ("=copies != 2", "bool false"),
        ("=copies == '2'", "bool false"),
        ("=copies < 3", "bool true"),
        ("=copies <= 2", "bool true"),
        ("=copies > 2", "bool false"),
        ("=copies >= 2", "bool true"),
        ("=name < 'F'", "bool true"),
        ("=name < 'e'", "bool true"),
        ("=name > 3", "bool false"),
        ("=nil == nil", "bool true"),
        ("=comment == nil", "bool true"),
        ("=copies between 1 and 5", "bool true"),
        ("=copies between 3 and 5", "bool false"),
        ("=type in ('0', '2')", "bool true"),
        ("=type in ('1', '2')", "bool false"),
        ("=marked ? 'yes' : 'no'", "string yes"),
        ("=!marked ? 'yes' : 'no'", "string no"),
        ("=not marked", "bool false"),
        ("=not copies == 3", "bool true"),
        ("=true and 5", "int 5"),
        ("=false and 5", "bool false"),
        ("=0 or 'x'", "string x"),
        ("=3 or 'x'", "int 3"),
        ("=false or false and true", "bool false"),
        ("=true or false and false", "bool true"),
        ("=true ? 1 : false ? 2 : 3", "int 1"),
        ("=false ? 1 : false ? 2 : 3", "int 3"),
        ("=if(marked, 1, 2)", "int 1"),
        ("=coalesce(comment, 'none')", "string none"),
        ("=min(3, 1, 2)", "int 1"),
        ("=max(copies, 7)", "int 7"),
        ("=abs(-4)", "int 4"),
        ("=len(name)", "int 4"),
        ("=len(authors)", "int 1"),
        ("={/books[0]/name}", "string Dune"),
        ("={authors[0]/name} .. '!'", "string Author of Emma!"),
        ("=authors.@count > 0", "bool true"),
        ("=round2(price)", "double 21"),
    ])
    func operatorsAndPrecedence(_ text: String, _ expected: String) throws {
        let v = try eval(text)
        #expect(Self.describe(v) == expected, "\(text)")
    }

    static func describe(_ v: Value) -> String {
        switch v {
        case .null: return "nil"
        case .int(let i): return "int \(i)"
        case .double(let d): return "double \(Value.displayDouble(d))"
        case .bool(let b): return "bool \(b)"
        case .string(let s): return "string \(s)"
        default: return v.typeName
        }
    }

    @Test func andOrAreLazy() throws {
        #expect(try eval("=false and fail()").isSame(as: .bool(false)))
        #expect(try eval("=true or fail()").isSame(as: .bool(true)))
        #expect(throws: BindingCallError.self) { try eval("=true and fail()") }
    }

    @Test func quotedPercentStringsAreLocalized() throws {
        f.engine.extensions.register("string", "wrap") { v, _, _ in .string("[\(v.displayString ?? "")]") }
        #expect(try eval("=marked ? '%Marked' : 'Open'").isSame(as: .string("Marked")))
        #expect(try eval("=wrap(name)").isSame(as: .string("[Emma]")))
    }
}
