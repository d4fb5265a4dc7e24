import Foundation
import Testing
@testable import OKitEngine

/// A path written with `/` inside an expression (`=name .. ' (' .. author/ref/name .. ')'`) is a division there
/// (bindings.md "Expressions"): the check says so, with the path written as expressions take it, at the operand
/// the division cannot read, instead of "Book has no field" for each operand; the warning at run time says it too.
@Suite struct SlashPathTests {
    let f: ShopFixture
    let checker: BindingChecker

    init() throws {
        f = try ShopFixture()
        try f.start()
        checker = BindingChecker(engine: f.engine)
    }

    func issues(_ text: String, on type: String = "Book") -> [String] {
        checker.check(text, context: f.engine.schema.type(named: type)).map { "\($0.column): \($0.message)" }
    }

    static let advice = "in an expression \"/\" divides; write author.ref.name or {author/ref/name}"

    @Test(arguments: [
        ("=name .. ' (' .. author/ref/name .. ')'", ["25: \(advice)"]),
        ("=author / ref / name", ["11: \(advice)"]),
        ("=author/ref/nmae", ["9: in an expression \"/\" divides; write author.ref.nmae or {author/ref/nmae}",
                               "13: Author has no field \"nmae\" (did you mean \"name\"?)"]),
        ("=author.ref/name", ["13: in an expression \"/\" divides; write author.ref.name or {author.ref/name}"]),
        ("=len(author/ref/name)", ["13: \(advice)"]),
        // a division, as written
        ("=price / copies", []),
        ("=price / copis", ["10: Book has no field \"copis\" (did you mean \"copies\"?)"]),
        ("=price / author", []),
        ("=author / copies", []),
        // the operands make no path either: each is named as it is
        ("=author/reff/name", ["9: Book has no field \"reff\""]),
        ("=price/nme", ["8: Book has no field \"nme\" (did you mean \"name\"?)"]),
        // the paths it advises are clean
        ("=name .. ' (' .. author.ref.name .. ')'", []),
        ("=name .. ' (' .. {author/ref/name} .. ')'", []),
    ])
    func aPathWrittenWithSlashesInAnExpressionIsNamedAsOne(_ text: String, _ expected: [String]) {
        #expect(issues(text) == expected, "\(text)")
    }

    @Test func theWarningAtRunTimeCarriesTheSameAdvice() throws {
        let text = "=name .. ' (' .. author/ref/name .. ')'"
        let shown = try f.engine.get(f.book(0), text, mode: .display)
        #expect(shown.displayString == "\(f.book(0)["name"]!.displayString ?? "") ()")
        #expect(f.engine.warnings == ["binding \"\(text)\": Book has no field, method or extension \"ref\"; \(Self.advice)"])
    }

    @Test func aWarningAboutAnotherNameHasNoAdvice() throws {
        _ = try f.engine.get(f.book(0), "=price / copis", mode: .display)
        #expect(f.engine.warnings == ["binding \"=price / copis\": Book has no field, method or extension \"copis\""])
    }
}
