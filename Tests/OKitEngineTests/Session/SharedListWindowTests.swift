import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// Viewers of a list in its first state share one window of its rows (issue 39 item 2): computed once per change
/// however many watch it — and a viewer with a search, a scope, edit mode or another offset never gets it, nor
/// gives anyone theirs.
@Suite struct SharedListWindowTests {
    /// A session on the virtual clock whose default model is a `Shop` of `Book`s with these fields, in a file.
    static func session(_ folder: TempFolder, book: [FieldSpec], shop: [FieldSpec]) throws -> AppSession {
        var options = SessionOptions()
        options.dataFolder = folder.url
        options.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
        let session = AppSession(options: options)
        let schema = session.engine.schema
        try schema.entity("Book", fields: book)
        try schema.entity("Shop", fields: shop)
        try schema.validate()
        _ = try session.engine.register(model: "default", type: "Shop", storage: try session.makeStorage(kind: .file, model: "default"))
        return session
    }

    func bookshop(_ folder: TempFolder, books: [String]) throws -> AppSession {
        let session = try Self.session(folder, book: [FieldSpec("name", .string), FieldSpec("kind", .string)],
                                       shop: [try FieldSpec("books", "[Book]")])
        var list = ListDeclaration(id: "books")
        list.type = "Book"
        list.dataPath = "books"; list.cellPath = "name"; list.rowSort = "name"; list.titlePath = "%Books"
        list.addName = "name"
        list.searchFilters = "novel,poem"; list.searchFilterPath = "kind"
        try session.shell.declare(list)
        try session.start(home: ["books"], menu: nil)
        for (i, name) in books.enumerated() {
            try session.driver.run("add", ["text": .string(name)])
            try session.engine.set(try book(session, name), "kind", .string(i % 2 == 0 ? "novel" : "poem"))
        }
        return session
    }

    func book(_ session: AppSession, _ name: String) throws -> Entity {
        let books = try session.engine.collection(try #require(session.engine.defaultModel?.root), "books")
        return try #require(books.items.compactMap(\.entity).first { $0["name"]?.displayString == name })
    }

    func texts(_ s: Snapshot) -> [String] { s.screen.sections.flatMap(\.rows).compactMap(\.text) }

    func list(_ shell: AppShell) throws -> ListScreen { try #require(shell.top as? ListScreen) }

    /// `n` more shells on the list, each with its live snapshot taken once.
    func viewers(_ session: AppSession, _ n: Int, limit: Int = 50) throws -> [ScreenWatch] {
        try (0..<n).map { _ in
            let w = session.watch(try session.makeShell(), limit: limit)
            _ = try w.snapshot()
            return w
        }
    }

    @Test func viewersInTheFirstStateShareOneWindowComputedOncePerChange() throws {
        let folder = try TempFolder()
        let session = try bookshop(folder, books: ["Dune", "Emma", "Anna"])
        let watches = try viewers(session, 5)
        #expect(watches.allSatisfy { $0.showsSharedWindow })
        let window = try #require(try list(watches[0].shell).sharedWindow(offset: 0, limit: 50))
        #expect(try watches.allSatisfy { try list($0.shell).sharedWindow(offset: 0, limit: 50) === window })
        let before = window.computations
        var told = 0
        for w in watches { w.onStale = { told += 1 } }
        try session.engine.transaction { try session.engine.set(try book(session, "Dune"), "name", .string("Zorro")) }
        #expect(told == 5, "every viewer is told")
        for w in watches { #expect(texts(try w.snapshot()) == ["Anna", "Emma", "Zorro"]) }
        #expect(window.computations == before + 1, "one window computed for the five")
        #expect(try watches.allSatisfy { try list($0.shell).rowComputations == 0 }, "no viewer computed rows of its own")
    }

    @Test func aSearchAScopeOrEditModeGetsItsOwnWindowAndNeverTheSharedOne() throws {
        let folder = try TempFolder()
        let session = try bookshop(folder, books: ["Dune", "Emma", "Anna", "Beloved"])
        let watches = try viewers(session, 4)
        let (searcher, scoper, editor, plain) = (watches[0], watches[1], watches[2], watches[3])
        try searcher.shell.search("un")
        try scoper.shell.search("", scope: "poem")
        try Driver(shell: editor.shell, host: session).run("edit", ["on": .bool(true)])
        for w in [searcher, scoper, editor] { _ = try w.snapshot(fresh: true) }
        #expect(!searcher.showsSharedWindow && !scoper.showsSharedWindow && !editor.showsSharedWindow)
        #expect(try texts(searcher.snapshot()) == ["Dune"])
        #expect(try searcher.snapshot().screen.search?.text == "un")
        #expect(texts(try scoper.snapshot()) == ["Emma", "Beloved"].sorted())
        #expect(try editor.snapshot().screen.editing)
        // The plain viewer, after everyone else's state and a write, sees the list as it is and nothing of theirs.
        try session.engine.transaction { try session.engine.set(try book(session, "Anna"), "name", .string("Ada")) }
        let seen = try plain.snapshot()
        #expect(plain.showsSharedWindow)
        #expect(texts(seen) == ["Ada", "Beloved", "Dune", "Emma"])
        #expect(seen.screen.search?.text == "" && seen.screen.search?.scope == "All" && !seen.screen.editing)
        #expect(seen.screen.sections.flatMap(\.rows).allSatisfy { !$0.selected })
        #expect(texts(try searcher.snapshot()) == ["Dune"], "the searcher keeps their matches")
    }

    @Test func aViewerWhoLeavesAndComesBackToTheFirstStateDropsItsOwnRows() throws {
        let folder = try TempFolder()
        let session = try bookshop(folder, books: ["Dune", "Emma", "Anna"])
        let w = try viewers(session, 2)[0]
        try w.shell.search("e")
        #expect(texts(try w.snapshot(fresh: true)) == ["Dune", "Emma"])
        #expect(try list(w.shell).keepsOwnWindow)
        try w.shell.search("")
        #expect(texts(try w.snapshot(fresh: true)) == ["Anna", "Dune", "Emma"])
        #expect(w.showsSharedWindow)
        #expect(try !list(w.shell).keepsOwnWindow, "its own row snapshots stopped listening")
        // Blanks in the search box are the person's own text: the box shows them, so the window is their own.
        try w.shell.search(" ")
        #expect(try w.snapshot(fresh: true).screen.search?.text == " ")
        #expect(!w.showsSharedWindow)
    }

    @Test func aWindowFromAnotherOffsetIsTheViewersOwn() throws {
        let folder = try TempFolder()
        let session = try bookshop(folder, books: ["Dune", "Emma", "Anna"])
        let w = try viewers(session, 1, limit: 2)[0]
        #expect(try texts(w.snapshot()) == ["Anna", "Dune"])
        #expect(w.showsSharedWindow)
        w.offset = 2
        #expect(texts(try w.snapshot(fresh: true)) == ["Emma"])
        #expect(!w.showsSharedWindow)
    }

    @Test func aRefreshKeepsTheSharedWindowFollowingChangesForEveryone() throws {
        let folder = try TempFolder()
        let session = try bookshop(folder, books: ["Dune", "Emma"])
        let watches = try viewers(session, 3)
        #expect(watches.allSatisfy { $0.showsSharedWindow })
        try list(watches[0].shell).button("refresh")             // anyone's pull to refresh
        for w in watches { _ = try w.snapshot() }
        var told = 0
        for w in watches { w.onStale = { told += 1 } }
        try session.driver.run("add", ["text": .string("Anna")])  // then someone adds a book
        #expect(told == 3, "every viewer is told of the add after the refresh")
        for w in watches { #expect(texts(try w.snapshot()) == ["Anna", "Dune", "Emma"]) }
    }

    @Test func theWindowGoesWithItsLastViewer() throws {
        let folder = try TempFolder()
        let session = try bookshop(folder, books: ["Dune"])
        var watches: [ScreenWatch] = try viewers(session, 3)
        weak let window = try list(watches[0].shell).sharedWindow(offset: 0, limit: 50)
        #expect(window != nil)
        for w in watches { w.cancel() }
        watches = []
        #expect(window == nil)
    }

    @Test func sharedPartsSweepTheirDeadEntriesAsTheyGrow() {
        let parts = SharedParts()
        var alive: [AnyObject] = []
        for k in 0..<1000 {
            let part = SharedListWindowKeyBox()
            if k % 10 == 0 { alive.append(part) }
            parts.keep(part, for: k)
        }
        #expect(parts.liveCount == 100)
        #expect(parts.entryCount < 400, "the dead entries were swept")
        #expect(parts.part(for: 990) === alive.last)
    }
}

/// A part for `SharedParts` that nothing else is.
private final class SharedListWindowKeyBox {}
