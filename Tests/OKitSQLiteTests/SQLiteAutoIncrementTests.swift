import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitSQLite

/// `key = "autoincrement"` on two types of one sqlite model (storage.md "SQLite models", "Autoincrement ids"): a
/// German plant app's `Fertilizer` and `Supplier` each numbered 1, 2, … on their own, so both held id "1" and every
/// store was refused (exit 4, the session's changes lost). They take their ids from one serial now.
@Suite struct SQLiteAutoIncrementTests {
    static func catalog(_ schema: Schema) throws {
        try schema.entity("Fertilizer", fields: [FieldSpec("name", .string)])
            .tableMapping = TableMapping(table: "Duenger", autoIncrement: true)
        try schema.entity("Supplier", fields: [FieldSpec("name", .string)])
            .tableMapping = TableMapping(table: "Lieferanten", autoIncrement: true)
        try schema.entity("Shop", fields: [try FieldSpec("fertilizers", "[Fertilizer]"), try FieldSpec("suppliers", "[Supplier]")])
        try schema.validate()
    }

    /// Appends a new entity of `type` named `name` to the root's `field`; returns its id.
    @discardableResult
    static func add(_ f: SQLiteStorageTests.Fixture, _ type: String, to field: String, _ name: String, id: String? = nil) throws -> String {
        var fields: [String: Value] = ["name": .string(name)]
        if let id { fields["id"] = .string(id) }
        let e = try f.engine.make(type, fields)
        try f.engine.insert(.entity(e), into: f.engine.collection(f.root, field), append: true)
        return e.id ?? ""
    }

    @Test func twoAutoincrementTypesOfOneModelNeverShareAnId() throws {
        let folder = try TempFolder()
        let db = SQLiteStorageTests.db(folder)
        do {
            let f = try SQLiteStorageTests.Fixture(folder, schema: Self.catalog)
            defer { f.close() }
            #expect(try Self.add(f, "Fertilizer", to: "fertilizers", "Hornspäne") == "1")
            #expect(try Self.add(f, "Supplier", to: "suppliers", "Gärtnerei Müller") == "2", "not a second \"1\"")
            #expect(try Self.add(f, "Fertilizer", to: "fertilizers", "Kompost") == "3")
            try f.engine.store(f.model)       // refused before: id "1" was held by a Fertilizer and a Supplier
        }
        #expect(try SQLiteStorageTests.sqlite3(db, "select id || ':' || name from Duenger order by id") == "1:Hornspäne\n3:Kompost")
        #expect(try SQLiteStorageTests.sqlite3(db, "select id || ':' || name from Lieferanten") == "2:Gärtnerei Müller")

        // The next start continues after the highest id of either table, whichever type is made first.
        let f = try SQLiteStorageTests.Fixture(folder, schema: Self.catalog)
        defer { f.close() }
        #expect(try Self.add(f, "Supplier", to: "suppliers", "Baumschule") == "4")
        #expect(try Self.add(f, "Fertilizer", to: "fertilizers", "Guano") == "5")
        try f.engine.store(f.model)
        #expect(try SQLiteStorageTests.sqlite3(db, "select group_concat(id) from (select id from Duenger order by id)") == "1,3,5")
        #expect(try SQLiteStorageTests.sqlite3(db, "select group_concat(id) from (select id from Lieferanten order by id)") == "2,4")
    }

    /// A database keeps the ids it has (numbered each on its own, given by hand); a new id comes after the highest of
    /// any table, and never takes one a row holds.
    @Test func aDatabaseKeepsItsIdsAndNewOnesComeAfterTheHighestOfAnyTable() throws {
        let folder = try TempFolder()
        let db = SQLiteStorageTests.db(folder)
        do {
            let f = try SQLiteStorageTests.Fixture(folder, schema: Self.catalog)
            defer { f.close() }
            try Self.add(f, "Fertilizer", to: "fertilizers", "Hornspäne", id: "1")
            try Self.add(f, "Fertilizer", to: "fertilizers", "Kompost", id: "2")
            try Self.add(f, "Supplier", to: "suppliers", "Gärtnerei Müller", id: "7")
            #expect(try Self.add(f, "Fertilizer", to: "fertilizers", "Guano") == "8", "after an id given by hand")
            try f.engine.store(f.model)
        }
        let f = try SQLiteStorageTests.Fixture(folder, schema: Self.catalog)
        defer { f.close() }
        let fertilizers = try f.engine.collection(f.root, "fertilizers").items.compactMap { $0.entity?.id }
        let suppliers = try f.engine.collection(f.root, "suppliers").items.compactMap { $0.entity?.id }
        #expect(fertilizers == ["1", "2", "8"] && suppliers == ["7"])
        #expect(try Self.add(f, "Fertilizer", to: "fertilizers", "Hornmehl") == "9")
        try f.engine.store(f.model)
        #expect(try SQLiteStorageTests.sqlite3(db, "select group_concat(id) from (select id from Duenger order by id)") == "1,2,8,9")
    }
}
