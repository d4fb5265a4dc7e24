import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// An app session from Swift alone (no Lua): a front end asks it for snapshots and sends commands through a
/// driver; several shells (one per person) share one engine and its models, each with its own navigation and
/// cover. docs/engine.md "Where to put a new front end" shows the same steps.
@Suite struct AppSessionTests {
    /// A bookshop declared into a session on a data folder: a list of books, a detail screen, protection on.
    func bookshop(_ folder: TempFolder) throws -> AppSession {
        var options = SessionOptions()
        options.dataFolder = folder.url
        options.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
        let session = AppSession(options: options)
        let schema = session.engine.schema
        try schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("notes", .string)])
        try schema.entity("Shop", fields: [try FieldSpec("books", "[Book]"), FieldSpec("locked", .bool, default: .bool(true))])
        try schema.validate()
        let storage = try session.makeStorage(kind: .file, model: "default")
        _ = try session.engine.register(model: "default", type: "Shop", storage: storage)
        var books = ListDeclaration(id: "books")
        books.type = "Book"
        books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"; books.segue = "book"
        books.addName = "name"
        var book = DetailDeclaration(id: "book")
        book.titlePath = "name"
        try session.shell.declare(books)
        try session.shell.declare(book)
        session.shell.settingsBindings["protection"] = "locked"
        session.shell.settingsBindings["protectionTimeout"] = "#1"
        try session.start(home: ["books"], menu: nil)
        return session
    }

    func rows(_ shell: AppShell) throws -> [String] {
        try shell.snapshot().screen.sections.flatMap(\.rows).compactMap(\.text)
    }

    @Test func twoShellsShareTheModelsAndKeepTheirOwnNavigation() throws {
        let folder = try TempFolder()
        let session = try bookshop(folder)
        let other = try session.makeShell()
        let alice = session.driver
        let bob = Driver(shell: other, host: session)
        try alice.run("add", ["text": .string("Dune")])
        #expect(try rows(other) == ["Dune"])                  // one engine: bob sees alice's book
        try bob.run("tap", ["row": .int(1)])
        #expect(try other.snapshot().screen.id == "book")
        #expect(try session.shell.snapshot().screen.id == "books")   // alice did not move
        try bob.run("back", [:])
        #expect(session.shells.count == 2)
        session.dropShell(other)
        #expect(session.shells.count == 1)
    }

    @Test func storingAtExitWritesTheModelFile() throws {
        let folder = try TempFolder()
        let session = try bookshop(folder)
        try session.driver.run("add", ["text": .string("Emma")])
        let pending = try session.storeAtExit()
        #expect(pending.isEmpty)
        #expect(folder.read("default.json")?.contains("Emma") == true)
    }

    @Test func eachShellHasItsOwnCoverAndTheKeysGoOnlyWhenEveryShellIsCovered() throws {
        let folder = try TempFolder()
        let session = try bookshop(folder)
        let other = try session.makeShell()
        try session.background(session.shell)
        #expect(session.shell.covered && !other.covered)
        #expect(!session.allCovered)                          // the keys stay while someone is uncovered
        #expect(try other.snapshot().app.covered == false)
        try session.background(other)
        #expect(other.covered && session.allCovered)
        try session.foreground(other)                        // back within the timeout: uncovered
        #expect(!other.covered && session.shell.covered)
        try session.authenticate(session.shell, true)
        #expect(!session.shell.covered)
        // A front end whose people each have a shell of their own: the unused first shell does not count.
        session.firstShellInUse = false
        try session.background(other)
        #expect(session.allCovered)
    }

    @Test func appCodeNavigationGoesToTheShellWhoseCommandRuns() throws {
        let folder = try TempFolder()
        let session = try bookshop(folder)
        let other = try session.makeShell()
        var seen: [ObjectIdentifier] = []
        session.callbacks.afterCommand = { shell in seen.append(ObjectIdentifier(shell)) }
        try Driver(shell: other, host: session).run("screen", [:])
        try session.driver.run("screen", [:])
        #expect(seen == [ObjectIdentifier(other), ObjectIdentifier(session.shell)])
        #expect(session.activeShell === session.shell)
    }

    @Test func autosaveStoresOnTheAppClock() throws {
        let folder = try TempFolder()
        let session = try bookshop(folder)
        session.autosaveSeconds = 30
        session.startAutosave()
        try session.driver.run("add", ["text": .string("Anna")])
        #expect(folder.read("default.json")?.contains("Anna") != true)
        #expect(session.advance(31).isEmpty)
        #expect(folder.read("default.json")?.contains("Anna") == true)
    }

    @Test func aSessionWithoutADataFolderRefusesStoredModels() throws {
        let session = AppSession()
        #expect(throws: SessionError.noDataFolder) { _ = try session.makeStorage(kind: .file, model: "default") }
        #expect(try session.makeStorage(kind: .transient, model: "scratch") is TransientStorage)
    }
}

/// Live snapshots: a watch goes stale exactly when something its shell's visible screen read changed.
@Suite struct ScreenWatchTests {
    @Test func aWatchGoesStaleWhenWhatItsScreenShowsChanges() throws {
        let folder = try TempFolder()
        let session = try AppSessionTests().bookshop(folder)
        try session.driver.run("add", ["text": .string("Dune")])
        let other = try session.makeShell()
        let bob = Driver(shell: other, host: session)
        try bob.run("tap", ["row": .int(1)])                   // bob looks at Dune's detail screen
        let watchAlice = session.watch(session.shell)
        let watchBob = session.watch(other)
        var told: [String] = []
        watchAlice.onStale = { told.append("alice") }
        watchBob.onStale = { told.append("bob") }
        #expect(try watchAlice.snapshot().screen.id == "books")
        #expect(try watchBob.snapshot().screen.title == "Dune")
        try session.driver.run("add", ["text": .string("Emma")])      // a new row: only the list shows it
        #expect(told == ["alice"])
        #expect(try watchAlice.snapshot().screen.sections.flatMap(\.rows).compactMap(\.text).sorted() == ["Dune", "Emma"])
        told = []
        try session.engine.transaction {
            let books = try session.engine.collection(try #require(session.engine.defaultModel?.root), "books")
            let d = try #require(books.items.compactMap(\.entity).first { $0["name"]?.displayString == "Dune" })
            try session.engine.set(d, "name", .string("Dune Messiah"))
        }
        #expect(Set(told) == ["alice", "bob"])                        // the list row and the detail title
        #expect(try watchBob.snapshot().screen.title == "Dune Messiah")
        _ = try watchAlice.snapshot()
        told = []
        try session.engine.transaction {                              // a field no screen shows
            let books = try session.engine.collection(try #require(session.engine.defaultModel?.root), "books")
            for b in books.items.compactMap(\.entity) { try session.engine.set(b, "notes", .string("read")) }
        }
        #expect(told.isEmpty)
        #expect(!watchAlice.isStale && !watchBob.isStale)
    }
}

/// A live snapshot computed afresh while the screen's own caches are current (after a failed command, a tab left
/// and come back to) still hears of writes: the caches record the subscriptions they reuse.
@Suite struct ScreenWatchCacheTests {
    @Test func aFreshSnapshotOverCurrentCachesStillGoesStale() throws {
        let folder = try TempFolder()
        let session = try AppSessionTests().bookshop(folder)
        try session.driver.run("add", ["text": .string("Dune")])
        let other = try session.makeShell()
        _ = try other.snapshot()                                   // the list's caches are current now
        let watch = session.watch(other)
        var told = 0
        watch.onStale = { told += 1 }
        _ = try watch.snapshot(fresh: true)
        _ = try watch.snapshot(fresh: true)                        // again, over the same current caches
        try session.driver.run("add", ["text": .string("Emma")])
        #expect(told == 1)
        #expect(try watch.snapshot().screen.sections.flatMap(\.rows).compactMap(\.text).sorted() == ["Dune", "Emma"])
    }
}
