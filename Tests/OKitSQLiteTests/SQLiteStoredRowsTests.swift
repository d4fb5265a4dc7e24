import Foundation
import GRDB
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitSQLite

/// What a SQLite model's storage knows the database holds after a load (`RelationalStoredRows` over the rows read,
/// `RelationalRowIndex`, `RelationalRowHash`): a store after a load writes exactly the rows that changed.
@Suite struct SQLiteStoredRowsTests {
    typealias Fixture = SQLiteStorageTests.Fixture

    /// The filled shop of `SQLiteStorageTests` and an author with a generated (UUID) id, stored and closed.
    func storedShop() throws -> TempFolder {
        let folder = try TempFolder()
        let f = try Fixture(folder)
        defer { f.close() }
        _ = try SQLiteStorageTests().fill(f)
        let generated = try f.engine.make("Author", ["name": .string("Generated")])
        try f.engine.insert(.entity(generated), into: f.engine.collection(f.root, "authors"), append: true)
        try f.engine.store(f.model)
        return folder
    }

    /// Every row re-derived after a load hashes as the row read: a store of the whole model writes nothing. The
    /// reader hashes the columns as SQLite hands them over and the writer the values it binds; this fails when
    /// the two differ for any field kind, text or UUID key, or keyless row.
    @Test func aLoadedModelStoredWholeWritesNoRow() throws {
        let folder = try storedShop()
        let g = try Fixture(folder, seed: 2)
        defer { g.close() }
        g.model.wholeDirty = true
        #expect(try g.engine.store(g.model) == .rows(written: 0, deleted: 0))
    }

    /// After a load: an edit writes its row only, a removal deletes its rows (with the rows under them), an
    /// insertion writes the new row; the next load reads what was stored.
    @Test func aLoadedModelWritesWhatChangedAndDeletesWhatWentAway() throws {
        let folder = try storedShop()
        do {
            let g = try Fixture(folder, seed: 2)
            defer { g.close() }
            let items = try g.engine.collection(g.root, "items")
            guard let item = items.items.first?.entity else { Issue.record("no item read"); return }
            try g.engine.set(item, "name", .string("Dune Messiah"))
            #expect(try g.engine.store(g.model) == .rows(written: 1, deleted: 0))
            // The generated author (a UUID key) edited, then the copy C1 removed.
            let authors = try g.engine.collection(g.root, "authors")
            guard let generated = authors.items.last?.entity else { Issue.record("no author read"); return }
            try g.engine.set(generated, "name", .string("Renamed"))
            #expect(try g.engine.store(g.model) == .rows(written: 1, deleted: 0))
            let copies = try g.engine.collection(item, "authors")
            try g.engine.remove(copies.items[0], from: copies)
            #expect(try g.engine.store(g.model) == .rows(written: 0, deleted: 1))
            // The item removed: its row and every row under it go.
            try g.engine.remove(.entity(item), from: items)
            let under = try SQLiteStorageTests.sqlite3(SQLiteStorageTests.db(folder), "select count(*) from Author where okit_parent = 'I1'")
            let stamps = try SQLiteStorageTests.sqlite3(SQLiteStorageTests.db(folder), "select count(*) from Stamp")
            guard case .rows(let written, let deleted) = try g.engine.store(g.model) else { Issue.record("not a row store"); return }
            #expect(written == 0 && deleted == 1 + (Int(under) ?? -1) + (Int(stamps) ?? -1))
            #expect(try g.engine.store(g.model) == .unchanged)
        }
        let h = try Fixture(folder, seed: 3)
        defer { h.close() }
        #expect(try h.engine.collection(h.root, "items").count == 0)
        #expect(try h.engine.collection(h.root, "authors").items.last?.entity?["name"]?.description == "Renamed")
        h.model.wholeDirty = true
        #expect(try h.engine.store(h.model) == .rows(written: 0, deleted: 0))
    }

    /// The hash of a row as read from a statement equals the hash of the values the writer binds, for every
    /// storage class; values that differ (in class or content) hash apart.
    @Test func aRowHashesAlikeReadAndWritten() throws {
        let values: [RelationalValue] = [
            .null, .int64(0), .int64(-42), .int64(.max), .double(0.1), .double(-0.0),
            .string(""), .string("A1"), .string("line\nbreak ✓ and more than eight bytes"),
            .string("5F0A5B3E-1C2D-4E5F-8A9B-0C1D2E3F4A5B"), .blob(Data([0, 1, 2, 255])), .blob(Data()),
        ]
        let db = try DatabaseQueue()
        let read: Int = try db.read { db in
            let sql = "SELECT " + values.indices.map { _ in "?" }.joined(separator: ", ")
            let statement = try db.makeStatement(sql: sql)
            statement.setUncheckedArguments(StatementArguments(values))
            let cursor = try Row.fetchCursor(statement)
            guard try cursor.next() != nil else { return 0 }
            let columns = SQLiteStatementColumns(statement: statement.sqliteStatement)
            var hash = RelationalRowHash()
            for k in values.indices { hash.add(columns.column(Int32(k))) }
            return hash.value
        }
        #expect(read == RelationalRowHash.of(values))
        let array = ArrayColumns(values: values)
        var hash = RelationalRowHash()
        for k in values.indices { hash.add(array.column(Int32(k))) }
        #expect(hash.value == RelationalRowHash.of(values))
        let apart: [[RelationalValue]] = [[.null], [.string("")], [.int64(0)], [.double(0)], [.string("0")],
                                          [.blob(Data([0x30]))], [.string("ab"), .string("c")], [.string("a"), .string("bc")]]
        #expect(Set(apart.map(RelationalRowHash.of)).count == apart.count)
    }

    /// The rows of a load by key: a row found by its UUID or text key with its place and its children; an
    /// unattached row is not held; a store's changes and deletions stand in front of the rows loaded, and
    /// `count`, `keys` and iteration agree.
    @Test func storedRowsAreTheLoadedRowsWithTheChangesInFront() {
        let type = EntityType(name: "T", hasId: true)
        let root = "00000000-0000-4000-8000-000000000001", child = "00000000-0000-4000-8000-000000000002"
        var rows = RelationalReadRows()
        func add(_ key: String, table: Int32, parent: String?, position: Int?) {
            rows.append(entity: Entity(type: type), key: RelationalRowKey(key), table: table, field: parent == nil ? nil : "items",
                        position: position, mapKey: nil, hash: key.count, parent: parent.map(RelationalRowKey.init))
        }
        add(root, table: 0, parent: nil, position: nil)
        add(child, table: 1, parent: root, position: 0)
        add("text-key", table: 1, parent: root, position: 1)
        add("orphan", table: 1, parent: "nobody", position: 0)
        rows.link(parentTables: [true, true])
        #expect(RelationalRowKey(root) == .uuid(0x4000, 0x8000_0000_0000_0001) && RelationalRowKey("text-key") == .text("text-key"))
        // As `RelationalRowReader.attach` leaves them: the root and its two children attached, the orphan not.
        rows.childStart[0] = 0; rows.childEnd[0] = 2; rows.childList = [1, 2]
        for r in [1, 2] { rows.childStart[r] = 2; rows.childEnd[r] = 2 }
        var stored = RelationalStoredRows(loaded: rows)
        #expect(stored.count == 3)
        #expect(stored[root]?.children == [RelationalRowKey(child), .text("text-key")])
        #expect(stored[child]?.parent == RelationalRowKey(root) && stored[child]?.position == 0 && stored[child]?.field == "items")
        #expect(stored["text-key"]?.hash == 8 && stored["orphan"] == nil && stored["nobody"] == nil)
        let copy = stored
        stored["text-key"]?.position = 7
        #expect(stored["text-key"]?.position == 7 && copy["text-key"]?.position == 1)
        #expect(stored.removeValue(forKey: child)?.position == 0)
        #expect(stored[child] == nil && stored.count == 2)
        stored["new"] = RelationalStoredRow(table: 1, position: 2, hash: 0, parent: RelationalRowKey(root), field: "items", mapKey: nil, children: [])
        stored[root]?.children.append(.text("new"))
        #expect(stored.count == 3 && stored[root]?.children.count == 3)
        #expect(Set(stored.keys) == [RelationalRowKey(root), .text("text-key"), .text("new")])
        #expect(Set(stored.map(\.key)) == Set(stored.keys) && stored.map(\.value).count == 3)
        stored["new"] = nil
        stored[child] = nil
        #expect(stored.count == 2 && !stored.isEmpty && copy.count == 3)
    }

    /// The index of a load's rows finds every key among many, UUID or text, and keeps the first row of a key
    /// unless told to prefer the other.
    @Test func theRowIndexFindsEveryKey() {
        var keys: [RelationalRowKey] = []
        for i in 0..<5_000 { keys.append(i % 2 == 0 ? .uuid(UInt64(i), UInt64(i) &* 31) : .text("key-\(i)")) }
        keys.append(.text("key-1"))
        var index = RelationalRowIndex(capacity: keys.count)
        keys.withUnsafeBufferPointer { k in
            for i in 0..<k.count { index.insert(Int32(i), keys: k) }
        }
        #expect(index.count == 5_000)
        for i in 0..<5_000 { #expect(index.find(keys[i], keys: keys) == Int32(i)) }
        #expect(index.find(.text("key-5000"), keys: keys) == nil && index.find(.uuid(1, 31), keys: keys) == nil)
        keys.withUnsafeBufferPointer { k in _ = index.insert(5_000, keys: k) { _ in false } }
        #expect(index.find(.text("key-1"), keys: keys) == 5_000)
    }
}
