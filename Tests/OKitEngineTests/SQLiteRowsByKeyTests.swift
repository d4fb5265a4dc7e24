import Testing
@testable import OKitEngine

/// The table a SQLite load links rows to their parents with: what a `[String: Int32]` keeping each key's first
/// row would answer.
@Suite struct SQLiteRowsByKeyTests {
    @Test func findsTheFirstRowOfEachKeyAndNothingElse() {
        var keys: [String] = []
        for i in 0..<5_000 { keys.append(i % 7 == 0 ? "dup-\(i % 3)" : "8D54D976-03EA-43D9-BA30-\(String(i, radix: 16))") }
        keys += ["", "é", "a"]
        var table = SQLiteRowsByKey(count: keys.count)
        var reference: [String: Int32] = [:]
        for (i, k) in keys.enumerated() {
            table.insertFirst(Int32(i), keys: keys)
            if reference[k] == nil { reference[k] = Int32(i) }
        }
        for k in Set(keys) { #expect(table.find(k, keys: keys) == reference[k], "\(k)") }
        for missing in ["dup-3", "8D54D976-03EA-43D9-BA30-", "b", "ée"] { #expect(table.find(missing, keys: keys) == nil) }
        #expect(SQLiteRowsByKey(count: 0).find("x", keys: []) == nil)
    }

    /// The stored rows' key: equal exactly when the texts are, and a dictionary of them answers by text.
    @Test func storedRowsAreFoundByTheirKeyText() {
        #expect(SQLiteRowKey("A-1") == SQLiteRowKey("A-1"))
        #expect(SQLiteRowKey("A-1") != SQLiteRowKey("A-2"))
        var stored: SQLiteStoredRows = [:]
        for i in 0..<1_000 { stored["row-\(i)"] = SQLiteStoredRow(table: 0, position: i, hash: i, parent: nil, field: nil, mapKey: nil, children: []) }
        #expect(stored.count == 1_000)
        #expect(stored["row-417"]?.position == 417)
        stored["row-417"]?.position = 5
        #expect(stored["row-417"]?.position == 5)
        #expect(stored.removeValue(forKey: "row-3")?.hash == 3)
        #expect(stored["row-3"] == nil && stored["row-1000"] == nil && stored.count == 999)
    }
}
