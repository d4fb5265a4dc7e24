import Testing
@testable import OKitEngine

/// The key of a SQLite or PostgreSQL model's rows (`RelationalRowKey`): the stored rows and a load's rows by key.
@Suite struct SQLiteRowKeyTests {
    /// The stored rows' key: equal exactly when the texts are, and a dictionary of them answers by text.
    @Test func storedRowsAreFoundByTheirKeyText() {
        #expect(RelationalRowKey("A-1") == RelationalRowKey("A-1"))
        #expect(RelationalRowKey("A-1") != RelationalRowKey("A-2"))
        var stored: RelationalStoredRows = [:]
        for i in 0..<1_000 { stored["row-\(i)"] = RelationalStoredRow(table: 0, position: i, hash: i, parent: nil, field: nil, mapKey: nil, children: []) }
        #expect(stored.count == 1_000)
        #expect(stored["row-417"]?.position == 417)
        stored["row-417"]?.position = 5
        #expect(stored["row-417"]?.position == 5)
        #expect(stored.removeValue(forKey: "row-3")?.hash == 3)
        #expect(stored["row-3"] == nil && stored["row-1000"] == nil && stored.count == 999)
    }

    /// A load links each row under the first row of its parent's key, and leaves a row whose parent no row has.
    @Test func rowsHangUnderTheFirstRowOfTheirParentsKey() {
        let type = EntityType(name: "T", hasId: true)
        var rows = RelationalReadRows()
        func add(_ key: String, table: Int32, parent: String?) {
            rows.append(entity: Entity(type: type), key: RelationalRowKey(key), table: table, field: nil, position: nil, mapKey: nil, hash: 0,
                        parent: parent.map(RelationalRowKey.init))
        }
        add("R", table: 0, parent: nil)
        add("P", table: 1, parent: "R")
        add("P", table: 1, parent: "R")
        add("C1", table: 2, parent: "P")
        add("C2", table: 2, parent: "nobody")
        add("C3", table: 2, parent: "P")
        rows.link(parentTables: [true, true, false])
        #expect(rows.roots == [0])
        #expect(rows.firstChild[0] == 1 && rows.next[1] == 2)
        #expect(rows.firstChild[1] == 3 && rows.next[3] == 5 && rows.next[5] == -1)
        #expect(rows.firstChild[2] == -1)
        #expect(!(0..<rows.count).contains { rows.firstChild[$0] == 4 || rows.next[$0] == 4 })
    }
}
