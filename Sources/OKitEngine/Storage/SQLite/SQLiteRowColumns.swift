import Foundation
import GRDB
import GRDBSQLite

/// A column's storage class, as SQLite reports it.
enum SQLiteColumnKind {
    case null, integer, real, text, blob
}

/// One column of the row being read, where the database keeps it: its storage class and its value (the bytes
/// of TEXT and BLOB stay valid until the row changes). One read per column serves both the row's hash and the
/// field's value; each SQLite column call takes the connection's mutex, and the reader made five of them for a
/// TEXT column (a sixth of a load).
struct SQLiteRawColumn {
    var kind: SQLiteColumnKind = .null
    var int: Int64 = 0
    var real: Double = 0
    var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
}

/// The columns of the row being read: a statement's current row (sqlite) or the values fetched (postgres).
/// `column` reads a column in place, without making a `DatabaseValue` (a string per text column, measured by
/// strlen); `value` makes one, for the columns read rarely.
protocol RowColumns {
    func value(_ k: Int32) -> DatabaseValue
    func column(_ k: Int32) -> SQLiteRawColumn
}

struct SQLiteStatementColumns: RowColumns {
    let statement: SQLiteStatement

    @inline(__always) func value(_ k: Int32) -> DatabaseValue { DatabaseValue(sqliteStatement: statement, index: k) }

    /// Through the column's `sqlite3_value`: one call that takes the mutex, then plain reads of the value (the
    /// connection is used by one thread at a time, GRDB's queue).
    @inline(__always)
    func column(_ k: Int32) -> SQLiteRawColumn {
        var c = SQLiteRawColumn()
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

/// A row fetched from PostgreSQL, as values; the bytes of its texts and blobs are copied once into memory it
/// owns, so that a column's bytes stay valid while it lives.
final class ArrayColumns: RowColumns {
    let values: [DatabaseValue]
    private var raw: [SQLiteRawColumn] = []
    private var storage: UnsafeMutablePointer<UInt8>?

    init(values: [DatabaseValue]) {
        self.values = values
        var size = 0
        for v in values {
            switch v.storage {
            case .string(let s): size += s.utf8.count
            case .blob(let d): size += d.count
            default: break
            }
        }
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: max(size, 1))
        storage = base
        var at = 0
        func copy(_ b: UnsafeRawBufferPointer) -> UnsafeBufferPointer<UInt8> {
            let start = base + at
            if b.count > 0, let p = b.baseAddress { start.initialize(from: p.assumingMemoryBound(to: UInt8.self), count: b.count) }
            at += b.count
            return UnsafeBufferPointer(start: start, count: b.count)
        }
        raw = values.map { v in
            var c = SQLiteRawColumn()
            switch v.storage {
            case .null: break
            case .int64(let i): c.kind = .integer; c.int = i
            case .double(let x): c.kind = .real; c.real = x
            case .string(var s): c.kind = .text; c.bytes = s.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
            case .blob(let d): c.kind = .blob; c.bytes = d.withUnsafeBytes { copy($0) }
            }
            return c
        }
    }

    deinit { storage?.deallocate() }

    func value(_ k: Int32) -> DatabaseValue { Int(k) < values.count ? values[Int(k)] : .null }
    func column(_ k: Int32) -> SQLiteRawColumn { Int(k) < raw.count ? raw[Int(k)] : SQLiteRawColumn() }
}
