import Foundation
import Testing
@testable import OKitEngine

/// A cell's visibility and heights are evaluated as OKit evaluates them (okit-behaviour §5.1 "Heights"): on the
/// screen's context in a detail, on the row's entity in a list — never after the cell's own `contextPath`, which
/// moves only its texts, image, accessory and control. A write to the flag on that entity shows or hides the cell.
@Suite struct CellVisibilityContextTests {
    /// A cell that shows the book's first author (`contextPath`) while the book is marked.
    static var authorCell: CellDeclaration { CellDeclaration(kind: "table", properties: [
        "path": "%Author", "detailPath": "name", "contextPath": "authors[0]", "showDisplay": "marked",
    ]) }

    func detail() throws -> (ShopFixture, DetailScreen) {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        var d = DetailDeclaration(id: "book")
        d.sections = [SectionDeclaration(cells: [
            CellDeclaration(kind: "table", properties: ["path": "%Title", "detailPath": "name"]),
            CellVisibilityContextTests.authorCell,
        ])]
        return (f, try DetailScreen(engine: f.engine, declaration: d, context: f.book(0)))
    }

    func details(_ s: DetailScreen) throws -> [String?] { try s.snapshot().sections.flatMap(\.rows).map(\.detail) }

    @Test func aDetailCellsShowFlagIsReadOnTheScreensContextAndFollowsIt() throws {
        let (f, s) = try detail()
        #expect(try details(s) == ["Dune"], "the book is not marked")
        try f.engine.set(f.book(0), "marked", .bool(true))
        #expect(try details(s) == ["Dune", "Author of Dune"], "the cell shows the author's name, shown by the book's flag")
        try f.engine.set(f.book(0), "marked", .bool(false))
        #expect(try details(s) == ["Dune"], "and hides again")
        #expect(f.engine.warnings.isEmpty, "no binding read `marked` on the author: \(f.engine.warnings)")
    }

    @Test func aDetailCellsHeightIsReadOnTheScreensContext() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        var d = DetailDeclaration(id: "book")
        d.sections = [SectionDeclaration(cells: [
            CellDeclaration(kind: "table", properties: ["path": "name", "contextPath": "authors[0]", "heightDisplay": "copies"]),
        ])]
        let s = try DetailScreen(engine: f.engine, declaration: d, context: f.book(0))
        #expect(try details(s).count == 1, "the book has 1 copy: height 1")
        try f.engine.set(f.book(0), "copies", .int(0))
        #expect(try details(s).isEmpty, "a height of 0 on the book hides the cell")
        try s.setEditing(true)
        #expect(try details(s).isEmpty, "no heightEdit: heightDisplay applies in edit mode too")
    }

    func list(_ f: ShopFixture) throws -> ListScreen {
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"
        d.rowSort = "name"
        d.cell = CellDeclaration(kind: "table", properties: ["path": "name", "contextPath": "authors[0]", "showDisplay": "marked"])
        return try ListScreen(engine: f.engine, declaration: d, context: f.root)
    }

    func texts(_ s: ListScreen) throws -> [String] { try s.snapshot().sections.flatMap(\.rows).compactMap(\.text) }

    @Test func aListRowsShowFlagIsReadOnTheRowAndFollowsIt() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        let s = try list(f)
        #expect(try texts(s).isEmpty, "no book is marked")
        try f.engine.set(f.book(1), "marked", .bool(true))
        #expect(try texts(s) == ["Author of Emma"], "a marked book's row shows its author")
        try f.engine.set(f.book(0), "marked", .bool(true))
        try f.engine.set(f.book(1), "marked", .bool(false))
        #expect(try texts(s) == ["Author of Dune"])
        #expect(f.engine.warnings.isEmpty, "no binding read `marked` on an author: \(f.engine.warnings)")
    }
}
