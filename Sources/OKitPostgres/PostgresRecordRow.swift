import NIOCore
import OKitEngine
import PostgresNIO

/// A load's row sent as one anonymous record, `SELECT ROW(…)` (issue 39, `pg_join`). postgres-nio makes a
/// `PostgresCell` for each cell it hands over — a buffer slice, a column description and a retain — which was most
/// of a join's time with a dozen columns a row; as one record, a row is one cell whose columns this reads in a
/// tight loop from PostgreSQL's binary form of a record (`record_send`: the column count, then each column's type,
/// its length or -1 for NULL, and its bytes, each column in its type's own binary form).
///
/// Only the types okit's tables are made of are read here; a table with a column of another type (added by
/// hand) is read a cell at a time, as before (`PostgresRecordRow.reads(types:)`).
enum PostgresRecordRow {
    /// The types (`information_schema.columns.data_type`) a record's column may have for `append` to read it as
    /// `RelationalRowBatch.Columns.append(_: PostgresCell)` reads the same column alone.
    static let readTypes: Set<String> = ["text", "character varying", "bigint", "integer", "smallint", "boolean",
                                         "double precision", "real", "bytea"]

    /// Whether every selected column is of a type a record is read with.
    static func reads(types: [String]) -> Bool { types.allSatisfy(readTypes.contains) }

    /// The select list as one record: `ROW(a, b, …)`, a missing column's NULL given a type (a record's columns
    /// must have one).
    static func selectList(_ list: [String]) -> String {
        "ROW(" + list.map { $0 == "NULL" ? "NULL::text" : $0 }.joined(separator: ", ") + ")"
    }

    /// Why a record could not be read (a type or a length that does not fit), for the load's message.
    struct Unreadable: Error { let why: String }
}

extension RelationalRowBatch.Columns {
    /// Appends the `columns` columns of one record (`PostgresRecordRow`) as its cells would have been appended.
    /// The record's bytes are read through the pointer `ByteBuffer` lends for the closure: every offset is checked
    /// against the record's length before it is read (`RecordBytes`), and the texts are copied out before it returns.
    mutating func appendRecord(_ cell: PostgresCell, columns: Int) throws {
        guard let b = cell.bytes, cell.format == .binary else { throw PostgresRecordRow.Unreadable(why: "a row came without its record") }
        try b.withUnsafeReadableBytes { raw in
            var r = RecordBytes(raw: raw)
            guard Int(try r.next(Int32.self)) == columns else {
                throw PostgresRecordRow.Unreadable(why: "a record has another number of columns than selected")
            }
            for _ in 0..<columns {
                let oid = try r.next(UInt32.self)
                let length = try r.next(Int32.self)
                if length < 0 { appendNumber(.null, 0); continue }
                try appendColumn(oid: oid, try r.take(Int(length)))
            }
        }
    }

    /// One column of a record by its type's oid (PostgreSQL's `pg_type`), in that type's binary form.
    private mutating func appendColumn(oid: UInt32, _ v: UnsafeRawBufferPointer) throws {
        switch oid {
        case 25, 1043: appendBytes(.text, v)  // text, varchar
        case 17: appendBytes(.blob, v)  // bytea
        case 20: appendNumber(.integer, UInt64(bitPattern: try Self.number(v, as: Int64.self)))
        case 23: appendNumber(.integer, UInt64(bitPattern: Int64(try Self.number(v, as: Int32.self))))
        case 21: appendNumber(.integer, UInt64(bitPattern: Int64(try Self.number(v, as: Int16.self))))
        case 701: appendNumber(.real, try Self.number(v, as: UInt64.self))
        case 700: appendNumber(.real, Double(Float(bitPattern: try Self.number(v, as: UInt32.self))).bitPattern)
        case 16: appendNumber(.integer, try Self.number(v, as: UInt8.self) == 0 ? 0 : 1)
        default: throw PostgresRecordRow.Unreadable(why: "a column of type oid \(oid), which okit reads a cell at a time")
        }
    }

    /// A big-endian number filling exactly `v`.
    private static func number<T: FixedWidthInteger>(_ v: UnsafeRawBufferPointer, as: T.Type) throws -> T {
        guard v.count == MemoryLayout<T>.size else { throw PostgresRecordRow.Unreadable(why: "a number of \(v.count) bytes") }
        return T(bigEndian: v.loadUnaligned(as: T.self))
    }
}

/// A record's bytes read front to back, each read checked against what is left.
private struct RecordBytes {
    let raw: UnsafeRawBufferPointer
    var at = 0

    /// The next big-endian number.
    mutating func next<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let v = try take(MemoryLayout<T>.size)
        return T(bigEndian: v.loadUnaligned(as: T.self))
    }

    /// The next `n` bytes.
    mutating func take(_ n: Int) throws -> UnsafeRawBufferPointer {
        guard n >= 0, n <= raw.count - at else { throw PostgresRecordRow.Unreadable(why: "a record ends early") }
        defer { at += n }
        return UnsafeRawBufferPointer(rebasing: raw[at..<(at + n)])
    }
}
