import Foundation
import Testing
import GRDB
import OKitTestSupport
@testable import OKitEngine
@testable import OKitSQLite

/// Another program holding a write lock on a model's database (the `sqlite3` shell's `BEGIN IMMEDIATE`; storage.md
/// "SQLite models"): a store waits for a brief lock, and one held longer fails as busy, losing nothing.
@Suite struct SQLiteBusyTests {
    static func schema(_ schema: Schema) throws {
        try schema.entity("Item", fields: [FieldSpec("name", .string)])
        try schema.entity("Shop", fields: [FieldSpec("title", .string), FieldSpec("items", "[Item]")])
        try schema.validate()
    }

    /// A connection of another program holding the write lock until `release` is called.
    final class Holder: @unchecked Sendable {
        let queue: DatabaseQueue
        let released = DispatchSemaphore(value: 0)
        let held = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        init(_ path: String) throws {
            queue = try DatabaseQueue(path: path)
            Thread.detachNewThread { [self] in
                try? queue.inDatabase { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    held.signal()
                    released.wait()
                    try db.execute(sql: "COMMIT")
                }
                done.signal()
            }
            held.wait()
        }
        func release() { released.signal(); done.wait() }
    }

    static func fixture(_ folder: TempFolder) throws -> SQLiteStorageTests.Fixture {
        let f = try SQLiteStorageTests.Fixture(folder, schema: schema)
        try f.engine.set(f.root, "title", .string("Shop"))
        try f.engine.store(f.model)
        return f
    }

    @Test func aBriefLockIsWaitedFor() throws {
        let folder = try TempFolder()
        let f = try Self.fixture(folder)
        defer { f.close() }
        let holder = try Holder(f.storage.path)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { holder.release() }
        try f.engine.set(f.root, "title", .string("Shop II"))
        try f.engine.store(f.model)     // was: "database is locked" at once
        #expect(try SQLiteStorageTests.sqlite3(f.storage.path, "SELECT title FROM Shop") == "Shop II")
    }

    @Test func aLockHeldLongerSaysBusyAndTheChangeIsStoredNextTime() throws {
        let folder = try TempFolder()
        let f = try Self.fixture(folder)
        defer { f.close() }
        f.storage.close()
        f.storage.busyTimeout = 0.1
        let holder = try Holder(f.storage.path)
        try f.engine.set(f.root, "title", .string("Shop II"))
        let e = try #require(throws: StorageError.self) { try f.engine.store(f.model) }
        #expect(e.description.contains("the database is busy: another program has held a write lock on it for over 0.1 seconds; nothing was written and nothing is lost: the changes are stored at the next store"), "\(e)")
        #expect(e.description.contains(f.storage.path), "\(e)")
        holder.release()
        try f.engine.store(f.model)
        #expect(try SQLiteStorageTests.sqlite3(f.storage.path, "SELECT title FROM Shop") == "Shop II")
    }
}
