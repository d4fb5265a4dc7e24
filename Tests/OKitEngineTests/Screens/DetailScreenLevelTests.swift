import Foundation
import Testing
@testable import OKitEngine

/// What OKit's detail controller has as a ModelBaseTableController and a ModelDetailTableController beside its
/// cells: the title's count (`titleCount`, `subTitleObject`, `subTitleObjectPlural`, `subTitleSwap`, computed as
/// a list computes it) and the controller-level `tap`, `tapEdit`, `accyTap`, `accyEditTap` — run on the screen's
/// context for every cell without its own (screens.md "Detail").
@Suite struct DetailScreenLevelTests {
    func screen(kind: String = "detail", _ configure: (inout DetailDeclaration) -> Void) throws -> (ShopFixture, DetailScreen) {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        var d = DetailDeclaration(id: "shop", kind: kind)
        d.titlePath = "name"
        d.sections = [SectionDeclaration(cells: [
            CellDeclaration(kind: "table", properties: ["path": "%Plain", "accyPath": "#detailDisclosure"]),
            CellDeclaration(kind: "table", properties: ["path": "%Own"], actions: ["tap": .binding("books[0]/setAsMarked()"),
                                                                                    "accyTap": .binding("books[0]/setAsMarked()")]),
            CellDeclaration(kind: "table", properties: ["path": "%Author", "contextPath": "books[1]/authors[0]"]),
        ])]
        configure(&d)
        return (f, try DetailScreen(engine: f.engine, declaration: d, context: f.root))
    }

    @Test func titleCountAndSubTitleObjectGiveTheSubtitleAsOnAList() throws {
        let (f, s) = try screen { $0.titleCount = "books.@count"; $0.subTitleObject = "#Book" }
        var snap = try s.snapshot()
        #expect(snap.title == "Book Shop" && snap.subtitle == "2 Books")
        try f.engine.remove(at: 1, from: f.engine.collection(f.root, "books"))
        snap = try s.snapshot()
        #expect(snap.subtitle == "1 Book", "follows the count")
        var list = ListDeclaration(id: "l")
        list.titlePath = "name"; list.titleCount = "books.@count"; list.subTitleObject = "#Book"; list.subTitleSwap = "#true"
        var detail = s.declaration
        detail.subTitleSwap = "#true"
        let l = try ListScreen(engine: f.engine, declaration: list, context: f.root).snapshot()
        let d = try DetailScreen(engine: f.engine, declaration: detail, context: f.root).snapshot()
        #expect(d.title == "1 Book" && d.subtitle == "Book Shop" && d.title == l.title && d.subtitle == l.subtitle,
                "one function computes both")
    }

    @Test func titleCountWithoutAnObjectCountsInTheTitleOnSettingsScreensToo() throws {
        let (_, s) = try screen(kind: "settings") { $0.titleCount = "books.@count" }
        #expect(try s.snapshot().title == "Book Shop (2)")
        let (_, plural) = try screen { $0.titleCount = "#3"; $0.subTitleObject = "#Goose"; $0.subTitleObjectPlural = "#Geese" }
        #expect(try plural.snapshot().subtitle == "3 Geese")
    }

    @Test func theScreensTapRunsOnItsContextForCellsWithoutTheirOwn() throws {
        var log: [String] = []
        let (f, s) = try screen {
            $0.actions["tap"] = .function { e, _ in log.append("tap \(e?.type.name ?? "-")") }
            $0.actions["tapEdit"] = .function { e, _ in log.append("tapEdit \(e?.type.name ?? "-")") }
        }
        try s.tap(.key("Plain"))
        try s.tap(.key("Author"))
        #expect(log == ["tap Shop", "tap Shop"], "on the screen's context, not the cell's (an Author)")
        try s.tap(.key("Own"))
        #expect(log.count == 2 && f.book(0)["marked"]?.truthy == true, "a cell's own tap wins")
        try s.setEditing(true)
        try s.tap(.key("Plain"))
        #expect(log.last == "tapEdit Shop", "tapEdit in edit mode")
        #expect(throws: ShellError.self) { try s.tap(.key("Own")) }   // its own tap only, and no tapEdit
    }

    @Test func theScreensAccessoryActionsRunForCellsThatShowAnAccessory() throws {
        var log: [String] = []
        let (f, s) = try screen {
            $0.actions["accyTap"] = .function { e, _ in log.append("accy \(e?.type.name ?? "-")") }
            $0.actions["accyEditTap"] = .function { e, _ in log.append("accyEdit \(e?.type.name ?? "-")") }
        }
        try s.accessory(.key("Plain"))
        #expect(log == ["accy Shop"])
        #expect(throws: DetailError.self) { try s.accessory(.key("Author")) }   // it shows no accessory
        try s.accessory(.key("Own"))
        #expect(log == ["accy Shop"] && f.book(0)["marked"]?.truthy == true, "a cell's own accyTap wins")
        try s.setEditing(true)
        try s.accessory(.key("Plain"))
        #expect(log == ["accy Shop", "accyEdit Shop"])
    }

    @Test func editImagePathIsTheImageInEditMode() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        var d = DetailDeclaration(id: "book")
        d.sections = [SectionDeclaration(cells: [
            CellDeclaration(kind: "table", properties: ["path": "name", "imagePath": "#star", "editImagePath": "#pencil"]),
        ])]
        let s = try DetailScreen(engine: f.engine, declaration: d, context: f.book(0))
        #expect(try s.snapshot().sections[0].rows[0].image == "star")
        try s.setEditing(true)
        #expect(try s.snapshot().sections[0].rows[0].image == "pencil")
        #expect(CellDeclaration.knownProperties("table").contains("editImagePath"))
    }
}
