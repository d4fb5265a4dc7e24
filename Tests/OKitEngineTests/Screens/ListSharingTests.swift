import Foundation
import Testing
@testable import OKitEngine

/// Many shells on one list share its rows (issue 39): one keeper per declaration and context keeps the keys and
/// the order; each screen keeps what is its person's own — search, matches, scope, edit mode — and never shows
/// another's.
@Suite struct ListSharingTests {
    func shop(_ names: [String]) throws -> ShopFixture {
        let f = try ShopFixture()
        try f.start(books: names)
        f.engine.extensions.register("string", "initial") { v, _, _ in .string(String((v.displayString ?? "").prefix(1)).uppercased()) }
        return f
    }

    func decl() -> ListDeclaration {
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"
        d.cellPath = "name"
        d.rowSort = "name"
        d.group = "name/initial"
        d.index = "#true"
        return d
    }

    func texts(_ s: ScreenSnapshot) -> [String] { s.sections.flatMap { $0.rows.map { $0.text ?? "" } } }

    func shared(_ f: ShopFixture) throws -> ListScreen {
        try ListScreen.sharingRows(engine: f.engine, declaration: decl(), context: f.root)
    }

    @Test func screensOfOneListShareOneKeeperAndOneFullPass() throws {
        let f = try shop(["Dune", "Emma", "Anna", "Beloved"])
        let a = try shared(f), b = try shared(f)
        #expect(a.keeper != nil && a.keeper === b.keeper)
        #expect(texts(try a.snapshot()) == ["Anna", "Beloved", "Dune", "Emma"])
        #expect(texts(try b.snapshot()) == ["Anna", "Beloved", "Dune", "Emma"])
        #expect(a.fullPasses == 1 && b.fullPasses == 1, "the second screen used the rows the first one's keeper made")
        // A rename moves the row once, for both.
        try f.engine.set(f.book(2), "name", .string("Zorro"))
        #expect(texts(try a.snapshot()) == ["Beloved", "Dune", "Emma", "Zorro"])
        #expect(texts(try b.snapshot()) == ["Beloved", "Dune", "Emma", "Zorro"])
        #expect(a.fullPasses == 1)
        #expect(try b.indexLettersPresent() == ["B", "D", "E", "Z"])
    }

    @Test func onePersonsSearchScopeAndEditModeStayTheirs() throws {
        let f = try shop(["Dune", "Emma", "Anna", "Beloved"])
        let a = try shared(f), b = try shared(f)
        a.search("e")
        try a.setEditing(true)
        let seenByA = try a.snapshot(), seenByB = try b.snapshot()
        #expect(texts(seenByA) == ["Beloved", "Dune", "Emma"])
        #expect(seenByA.search?.text == "e" && seenByA.editing)
        #expect(texts(seenByB) == ["Anna", "Beloved", "Dune", "Emma"])
        #expect(seenByB.search?.text == "" && !seenByB.editing)
        // The other person's rows are addressed among what they see, not among the searcher's matches.
        #expect(try b.entity(row: "1") === f.book(2))
    }

    @Test func aSearchFollowsAWriteAnotherPersonMade() throws {
        let f = try shop(["Dune", "Emma", "Anna", "Beloved"])
        let a = try shared(f), b = try shared(f)
        a.search("un")
        #expect(texts(try a.snapshot()) == ["Dune"])
        _ = try b.snapshot()
        try f.engine.set(f.book(1), "name", .string("Emma Unbound"))        // made through another screen's person
        #expect(texts(try a.snapshot()) == ["Dune", "Emma Unbound"])
        a.search("unb")                                                       // refines the matches of the new rows
        #expect(texts(try a.snapshot()) == ["Emma Unbound"])
    }

    @Test func theRowsGoWithTheLastScreenThatShowsThem() throws {
        let f = try shop(["Dune", "Emma"])
        var a: ListScreen? = try shared(f)
        var b: ListScreen? = try shared(f)
        _ = try a?.snapshot()
        #expect(f.engine.sharedParts.liveCount == 1)
        a = nil
        #expect(f.engine.sharedParts.liveCount == 1, "the other screen still shows them")
        _ = try b?.snapshot()
        b = nil
        #expect(f.engine.sharedParts.liveCount == 0)
        // A new screen makes a new keeper and sees the data as it is now.
        try f.engine.set(f.book(0), "name", .string("Alpha"))
        #expect(texts(try shared(f).snapshot()) == ["Alpha", "Emma"])
    }

    @Test func listsOfOtherBindingsOrContextsDoNotShare() throws {
        let f = try shop(["Dune", "Emma"])
        var other = decl()
        other.rowSort = "id"
        let a = try shared(f)
        let b = try ListScreen.sharingRows(engine: f.engine, declaration: other, context: f.root)
        #expect(a.keeper !== b.keeper)
        let c = try ListScreen.sharingRows(engine: f.engine, declaration: decl(), context: f.book(0))
        #expect(c.keeper !== a.keeper)
    }
}
