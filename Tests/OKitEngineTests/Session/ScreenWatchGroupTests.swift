import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// Live snapshots of alike shells follow one group (issue 39 item 2, ScreenWatchGroup.swift): computed once per
/// change however many watch it, each watch still told of every write that changes what it shows — and a shell
/// with anything of its own (a search, another theme, an alert) never follows or gives a group.
@Suite struct ScreenWatchGroupTests {
    /// A shop with two tabs: the books, and a shelf whose title is the shop's `title` (the tab bar shows it).
    func shop(_ folder: TempFolder, books: [String]) throws -> AppSession {
        let session = try SharedListWindowTests.session(folder, book: [FieldSpec("name", .string)],
                                                        shop: [FieldSpec("title", .string), try FieldSpec("books", "[Book]")])
        var list = ListDeclaration(id: "books")
        list.type = "Book"
        list.dataPath = "books"; list.cellPath = "name"; list.rowSort = "name"; list.titlePath = "%Books"
        list.addName = "name"
        list.help = "Tap a book."
        try session.shell.declare(list)
        var shelf = ListDeclaration(id: "shelf")
        shelf.type = "Book"
        shelf.dataPath = "books"; shelf.cellPath = "name"; shelf.titlePath = "title"
        try session.shell.declare(shelf)
        try session.start(home: ["books", "shelf"], menu: nil)
        try session.engine.set(try #require(session.engine.defaultModel?.root), "title", .string("Shelf"))
        for name in books { try session.driver.run("add", ["text": .string(name)]) }
        return session
    }

    func rename(_ session: AppSession, _ from: String, _ to: String) throws {
        let books = try session.engine.collection(try #require(session.engine.defaultModel?.root), "books")
        let book = try #require(books.items.compactMap(\.entity).first { $0["name"]?.displayString == from })
        try session.engine.transaction { try session.engine.set(book, "name", .string(to)) }
    }

    func texts(_ s: Snapshot) -> [String] { s.screen.sections.flatMap(\.rows).compactMap(\.text) }

    /// `n` shells on the books, each watched, its snapshot taken once, counting what it is told.
    func viewers(_ session: AppSession, _ n: Int) throws -> (watches: [ScreenWatch], told: () -> [Int]) {
        final class Counts { var told: [Int] = [] }
        let counts = Counts()
        counts.told = Array(repeating: 0, count: n)
        let watches = try (0..<n).map { i in
            let w = session.watch(try session.makeShell(), limit: 50)
            w.onStale = { counts.told[i] += 1 }
            _ = try w.snapshot()
            return w
        }
        return (watches, { counts.told })
    }

    @Test func alikeViewersFollowOneGroupComputedOncePerChangeAndEachIsTold() throws {
        let folder = try TempFolder()
        let session = try shop(folder, books: ["Dune", "Emma", "Anna"])
        let (watches, told) = try viewers(session, 6)
        #expect(watches.allSatisfy { $0.followsGroup && $0.showsSharedWindow })
        let group = try #require(watches[0].group)
        #expect(watches.allSatisfy { $0.group === group })
        let (computed, revisions) = (group.computations, watches.map(\.revision))
        try rename(session, "Dune", "Zorro")
        #expect(told() == Array(repeating: 1, count: 6), "every viewer is told once")
        for w in watches { #expect(texts(try w.snapshot()) == ["Anna", "Emma", "Zorro"]) }
        #expect(group.computations == computed + 1, "one snapshot computed for the six")
        #expect(zip(watches, revisions).allSatisfy { $0.revision.follows($1) }, "the next revision: a different snapshot")
        let now = watches.map(\.revision)
        #expect(zip(watches, now).allSatisfy { $0.revision == $1 }, "asked again unchanged: the same revision")
        _ = try watches[0].snapshot()
        #expect(watches[0].revision == now[0])
    }

    @Test func aShellThatSearchesLeavesAtOnceAndNobodyElseSeesItsSearch() throws {
        let folder = try TempFolder()
        let session = try shop(folder, books: ["Dune", "Emma", "Anna"])
        let (watches, told) = try viewers(session, 3)
        let searcher = watches[0]
        try searcher.shell.search("un")
        // Asked without `fresh` (a front end that forgot its navigation): the watch still sees its shell differs.
        #expect(texts(try searcher.snapshot()) == ["Dune"])
        #expect(!searcher.followsGroup)
        for w in watches.dropFirst() {
            #expect(w.followsGroup)
            #expect(texts(try w.snapshot()) == ["Anna", "Dune", "Emma"])
            #expect(try w.snapshot().screen.search?.text == "")
        }
        #expect(told() == [0, 0, 0], "a search is nobody else's change")
        try rename(session, "Emma", "Dunes")
        #expect(told() == [1, 1, 1])
        #expect(texts(try searcher.snapshot()) == ["Dune", "Dunes"])
        #expect(texts(try watches[2].snapshot()) == ["Anna", "Dune", "Dunes"])
    }

    @Test func theShellTheGroupComputedWithMayNavigateOrGoAndTheOthersAreStillTold() throws {
        let folder = try TempFolder()
        let session = try shop(folder, books: ["Dune", "Emma"])
        // The first viewer's shell computes the group's snapshot: the others join it.
        var first: ScreenWatch? = session.watch(try session.makeShell(), limit: 50)
        _ = try first?.snapshot()
        weak var firstShell = first?.shell
        let (watches, told) = try viewers(session, 2)
        let group = try #require(first?.group)
        #expect(watches.allSatisfy { $0.group === group })
        // It opens the shelf tab, then its person goes: its shell and screens are gone.
        try Driver(shell: try #require(first?.shell), host: session).run("tab", ["id": .string("shelf")])
        _ = try first?.snapshot(fresh: true)
        #expect(first?.group !== group)
        first?.cancel()
        session.dropShell(try #require(first?.shell))
        first = nil
        #expect(firstShell == nil)
        // The tab bar's title of the shelf is read through a tab's first screen: the others still see it change.
        try session.engine.transaction {
            try session.engine.set(try #require(session.engine.defaultModel?.root), "title", .string("Stock"))
        }
        #expect(told() == [1, 1])
        for w in watches { #expect(try w.snapshot().app.tabTitles == ["Books", "Stock"]) }
        try rename(session, "Dune", "Anna")
        #expect(told() == [2, 2])
        for w in watches { #expect(texts(try w.snapshot()) == ["Anna", "Emma"]) }
    }

    @Test func aThemeOfItsOwnAnAlertOrHelpIsNeverShared() throws {
        let folder = try TempFolder()
        let session = try shop(folder, books: ["Dune"])
        let (watches, _) = try viewers(session, 3)
        watches[0].shell.themeOverride = "dark"
        _ = try watches[0].snapshot(fresh: true)
        #expect(watches[0].followsGroup && watches[0].group !== watches[1].group, "a group of its own theme")
        #expect(try watches[0].snapshot().app.theme == "dark")
        #expect(try watches[1].snapshot().app.theme == "default")
        try Driver(shell: watches[2].shell, host: session).run("help", [:])
        _ = try watches[2].snapshot(fresh: true)
        #expect(!watches[2].followsGroup)
        #expect(try watches[2].snapshot().screen.help == "Tap a book.")
        #expect(try watches[1].snapshot().screen.help == nil)
        #expect(try watches[1].snapshot().app.theme == "default")
    }
}
