import Testing
@testable import OKitEngine

/// A misspelt field's "did you mean" names what can be written there (outside tester, finding 6): the entity's
/// own fields, computed fields and methods first; an extension every value takes (`not`, `eq`, `isNil`) only when no
/// own name is near and the extension is nearer still. `datePath = "dat"` on a Book of title and price suggested
/// "not", a bool, which no date cell can show.
@Suite struct MemberSuggestionTests {
    let f: ShopFixture
    let checker: BindingChecker

    init() throws {
        f = try ShopFixture()
        try f.start()
        checker = BindingChecker(engine: f.engine)
    }

    func issues(_ text: String, on type: String) -> [String] {
        checker.check(text, context: f.engine.schema.type(named: type)).map { "\($0.column): \($0.message)" }
    }

    @Test func aFarExtensionIsNoSuggestionForAField() {
        #expect(issues("dat", on: "Author") == ["1: Author has no field \"dat\""])
        #expect(issues("author/ref/dat", on: "Book") == ["12: Author has no field \"dat\""])
    }

    @Test func theEntitysOwnNamesComeBeforeAnExtension() {
        // "nat" is one edit from the extension `not` and two from the field `name`.
        #expect(issues("nat", on: "Author") == ["1: Author has no field \"nat\" (did you mean \"name\"?)"])
        #expect(issues("labl", on: "Book") == ["1: Book has no field \"labl\" (did you mean \"label\"?)"])
        #expect(issues("pricewithtx", on: "Book") == ["1: Book has no field \"pricewithtx\" (did you mean \"priceWithTax\"?)"])
        // An extension of the entity's type is one of its own names.
        f.engine.extensions.register("Author", "nod") { _, _, _ in .null }
        #expect(issues("nad", on: "Author") == ["1: Author has no field \"nad\" (did you mean \"nod\"?)"])
    }

    @Test func aNearExtensionIsStillSuggestedWhenNoOwnNameIs() {
        #expect(issues("isnill", on: "Author") == ["1: Author has no field \"isnill\" (did you mean \"isNil\"?)"])
        #expect(issues("defualt", on: "Author") == ["1: Author has no field \"defualt\" (did you mean \"default\"?)"])
        // On a text value every name is an extension: no field to prefer, the old suggestion stays.
        #expect(issues("name/initail", on: "Author") == ["6: no extension \"initail\" for string values (did you mean \"initial\"?)"])
    }

    @Test func preferringFallsBackOnlyToNearerNames() {
        #expect(NameSuggestion.closest(to: "dat", preferring: ["title", "price"], else: ["not", "eq"]) == nil)
        #expect(NameSuggestion.closest(to: "nat", preferring: ["name"], else: ["not"]) == "name")
        #expect(NameSuggestion.closest(to: "nott", preferring: ["title"], else: ["not"]) == "not")
        #expect(NameSuggestion.hint(for: "isnil", preferring: [String](), else: ["isNil"]) == " (did you mean \"isNil\"?)")
    }
}
