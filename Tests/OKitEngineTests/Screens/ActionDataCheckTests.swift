import Testing
@testable import OKitEngine

/// `check` on cells that store texts as Action Data does (issue 36 item 12): a switch on a text field is accepted,
/// a text picker and a `byTitle` segment need a text field, plain `optionValues` are no bindings.
@Suite struct ActionDataCheckTests {
    func messages(_ cells: [CellDeclaration]) throws -> [String] {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        let shell = AppShell(engine: f.engine)
        var book = DetailDeclaration(id: "book")
        book.type = "Book"
        book.sections = [SectionDeclaration(cells: cells)]
        try shell.declare(book)
        try shell.start(home: ["book"])
        return shell.check().filter { $0.screen == "book" }.map { "\($0.property): \($0.message)" }
    }

    @Test func aSwitchOnATextFieldIsAccepted() throws {
        #expect(try messages([CellDeclaration(kind: "switch", properties: ["path": "%Signed", "onPath": "comment"])]) == [])
        #expect(try messages([CellDeclaration(kind: "switch", properties: ["path": "%Signed", "onPath": "date"])]).count == 1)
    }

    @Test func plainOptionValuesAreTextsAndTheirFieldMustBeAText() throws {
        #expect(try messages([CellDeclaration(kind: "picker", properties: ["path": "%Kind", "optionValues": "Dog,Cat", "selectionPath": "comment"])]) == [])
        let onRef = try messages([CellDeclaration(kind: "picker", properties: ["path": "%Kind", "optionValues": "Dog,Cat", "selectionPath": "author"])])
        #expect(onRef.count == 1 && onRef[0].hasPrefix("cell Kind.selectionPath: a picker over optionValues stores the chosen text"))
    }

    @Test func boundOptionValuesAreChecked() throws {
        let found = try messages([CellDeclaration(kind: "picker", properties: ["path": "%Kind", "optionValues": "#Dog,kinds", "selectionPath": "comment"])])
        #expect(found.count == 1 && found[0].hasPrefix("cell Kind.optionValues"))
    }

    @Test func optionValuesAndDataPathTogetherAreAProblem() throws {
        let found = try messages([CellDeclaration(kind: "picker", properties: ["path": "%Kind", "optionValues": "Dog,Cat", "dataPath": "authors",
                                                                               "selectionPath": "comment"])])
        #expect(found == ["cell Kind.optionValues: a picker takes its options from dataPath (entities) or optionValues (texts), not both"])
    }

    @Test func byTitleNeedsATextField() throws {
        func segment(_ field: String, _ byTitle: String) -> CellDeclaration {
            CellDeclaration(kind: "segment", properties: ["path": "%Size", "segmentsPath": "#S,#L", "selectIndexPath": field, "byTitle": byTitle])
        }
        #expect(try messages([segment("comment", "#true")]) == [])
        let onInt = try messages([segment("copies", "#true")])
        #expect(onInt.count == 1 && onInt[0].contains("a segment with byTitle stores the chosen title"))
        #expect(try messages([segment("copies", "#false")]) == [])
        #expect(try messages([segment("comment", "true")]).count == 1, "a bare word is a flag that names nothing")
    }
}
