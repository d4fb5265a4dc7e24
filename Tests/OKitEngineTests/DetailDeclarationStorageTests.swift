import Testing
@testable import OKitEngine

/// A detail declaration is a value with its fields in one shared object (copy-on-write): copies share it until
/// one of them is written, and a write never shows in another copy.
@Suite struct DetailDeclarationStorageTests {
    @Test func aWriteAfterACopyLeavesTheOtherCopyAsItWas() {
        var a = DetailDeclaration(id: "book")
        a.titlePath = "name"
        a.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "table", properties: ["path": "name"])])]
        var b = a
        #expect(a.storage === b.storage, "a copy shares the fields")
        b.titlePath = "title"
        b.sections[0].cells.append(CellDeclaration(kind: "table", properties: ["path": "price"]))
        b.hooks = ScreenHooks()
        #expect(a.storage !== b.storage)
        #expect(a.titlePath == "name" && a.sections[0].cells.count == 1)
        #expect(b.titlePath == "title" && b.sections[0].cells.count == 2)
        #expect(b.id == "book" && b.kind == "detail" && b.edit == "#true" && b.editAlways == "#false")
        let settings = DetailDeclaration(id: "prefs", kind: "settings")
        #expect(settings.kind == "settings" && settings.id == "prefs")
    }

    @Test func screensOpenedFromOneDeclarationShareItsFields() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        var d = DetailDeclaration(id: "book")
        d.titlePath = "name"
        let one = try DetailScreen(engine: f.engine, declaration: d, context: f.book(0))
        let two = try DetailScreen(engine: f.engine, declaration: d, context: f.book(1))
        #expect(one.declaration.storage === two.declaration.storage)
        #expect(try one.snapshot().title == "Dune" && two.snapshot().title == "Emma")
    }
}
