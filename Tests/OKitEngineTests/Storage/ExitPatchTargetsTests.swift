import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// The exit patch finds the entities its journal names where this process met them — journaled, or replayed at
/// load — not by walking the whole model (issue 38: the walk was 13 ms of a 17 ms quit at 100,000 books); one no
/// longer in the model under its id is looked for by the walk, as before.
@Suite struct ExitPatchTargetsTests {
    /// ExitPatchTests' helpers: a fixture on a file storage, the model file's inode, the model as a fresh engine loads it.
    let base = ExitPatchTests()

    /// A shop of 50 books written whole; its inode.
    func written(_ folder: TempFolder) throws -> Int {
        do {
            let (f, s) = try base.open(folder)
            try f.start(storage: s, books: (0..<50).map { "Book \($0)" })
            #expect(try f.engine.store(f.shop) != .unchanged)
            try f.engine.compactAll()
        }
        return try base.inode(folder)
    }

    @Test func entitiesJournaledByThisProcessArePatchedWithoutAWalk() throws {
        let folder = try TempFolder()
        let ino = try written(folder)
        let expected: String
        do {
            let (f, s) = try base.open(folder)
            try f.start(storage: s, books: [])
            try f.engine.set(f.book(7), "name", .string("Seven"))
            try f.engine.set(f.book(9), "price", .double(1.5))
            guard case .journal = try f.engine.store(f.shop) else { Issue.record("expected a journal write"); return }
            expected = f.engine.json(of: f.shop)
            try f.engine.compactAll()
            #expect(s.exitPatchWalks == 0, "the journaled books were not looked for in the whole model")
        }
        #expect(try base.inode(folder) == ino, "patched in place")
        #expect(folder.read("default.journal") == nil)
        #expect(try base.reloaded(folder) == expected)
    }

    @Test func entitiesOfAReplayedJournalArePatchedWithoutAWalk() throws {
        let folder = try TempFolder()
        let ino = try written(folder)
        do {
            // A process that journals a rename and ends without its exit (killed): the journal stays.
            let (f, s) = try base.open(folder)
            try f.start(storage: s, books: [])
            try f.engine.set(f.book(3), "name", .string("Three"))
            guard case .journal = try f.engine.store(f.shop) else { Issue.record("expected a journal write"); return }
        }
        #expect(folder.read("default.journal") != nil)
        let expected: String
        do {
            let (g, s) = try base.open(folder)
            try g.start(storage: s, books: [])
            #expect(g.engine.json(of: g.shop).contains(#""Three""#), "the journal was replayed")
            expected = g.engine.json(of: g.shop)
            try g.engine.compactAll()
            #expect(s.exitPatchWalks == 0, "the replayed book was not looked for in the whole model")
        }
        #expect(try base.inode(folder) == ino, "patched in place")
        #expect(try base.reloaded(folder) == expected)
    }

    @Test func aJournaledEntityThatLeftTheModelIsLookedForAsBefore() throws {
        let folder = try TempFolder()
        _ = try written(folder)
        let expected: String
        do {
            let (f, s) = try base.open(folder)
            try f.start(storage: s, books: [])
            let authors = try f.engine.collection(f.book(5), "authors")
            let author = try #require(authors.items[0].entity)
            try f.engine.set(author, "name", .string("Renamed Author"))
            guard case .journal = try f.engine.store(f.shop) else { Issue.record("expected a journal write"); return }
            // The author goes: its record stays in the journal, but nothing in the model has its id now.
            try f.engine.remove(at: 0, from: authors)
            _ = try f.engine.store(f.shop)
            expected = f.engine.json(of: f.shop)
            try f.engine.compactAll()
            #expect(s.exitPatchWalks <= 1, "at most the one walk of before")
        }
        #expect(!(folder.read("default.json") ?? "").contains("Renamed Author"), "the removed author is not written back")
        #expect(try base.reloaded(folder) == expected)
    }
}
