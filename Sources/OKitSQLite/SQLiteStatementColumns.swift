import Foundation
import GRDB
import GRDBSQLite
import OKitEngine

/// The current row of a SQLite statement, as `RowColumns`: each column read where SQLite keeps it.
struct SQLiteStatementColumns: RowColumns {
    let statement: SQLiteStatement

    @inline(__always) func value(_ k: Int32) -> RelationalValue { RelationalValue(DatabaseValue(sqliteStatement: statement, index: k)) }

    /// Through the column's `sqlite3_value`: one call that takes the mutex, then plain reads of the value (the
    /// connection is used by one thread at a time, GRDB's queue).
    @inline(__always)
    func column(_ k: Int32) -> RelationalRawColumn {
        var c = RelationalRawColumn()
        guard let v = sqlite3_column_value(statement, k) else { return c }
        switch sqlite3_value_type(v) {
        case SQLITE_INTEGER:
            c.kind = .integer
            c.int = sqlite3_value_int64(v)
        case SQLITE_FLOAT:
            c.kind = .real
            c.real = sqlite3_value_double(v)
        case SQLITE_TEXT:
            // The text first, then its length (SQLite's order: the length is of the text as converted).
            c.kind = .text
            let p = sqlite3_value_text(v)
            c.bytes = UnsafeBufferPointer(start: p, count: p == nil ? 0 : Int(sqlite3_value_bytes(v)))
        case SQLITE_BLOB:
            c.kind = .blob
            let p = sqlite3_value_blob(v)?.assumingMemoryBound(to: UInt8.self)
            c.bytes = UnsafeBufferPointer(start: p, count: p == nil ? 0 : Int(sqlite3_value_bytes(v)))
        default:
            break
        }
        return c
    }
}
