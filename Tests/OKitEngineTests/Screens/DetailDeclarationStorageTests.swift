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

    /// The cells' ids and flat positions are computed once and shared; any write computes them again.
    @Test func theLayoutFollowsWrites() {
        var d = DetailDeclaration(id: "book")
        d.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "table", properties: ["path": "name"])]),
                      SectionDeclaration(cells: [CellDeclaration(kind: "table", properties: ["path": "name"])])]
        #expect(d.layout.ids == [["name"], ["name#2"]] && d.layout.cellStart == [0, 1] && d.layout.cellCount == 2)
        d.sections[0].cells.append(CellDeclaration(kind: "table", properties: ["path": "price"]))
        #expect(d.layout.ids == [["name", "price"], ["name#2"]] && d.layout.cellStart == [0, 2] && d.layout.cellCount == 3)
    }

    /// A row's control lives in a box of its own and compares by value.
    @Test func rowsCompareTheirControlsByValue() {
        var a = RowSnapshot(id: "copies", text: "Copies", detail: nil)
        var b = a
        #expect(a == b && a.control == nil)
        a.control = ControlSnapshot(value: .int(1), enabled: true)
        #expect(a != b)
        b.control = ControlSnapshot(value: .int(1), enabled: true)
        #expect(a == b)
        b.control?.value = .int(2)
        #expect(a != b && b.control?.value == .int(2) && a.control?.value == .int(1))
    }
}
