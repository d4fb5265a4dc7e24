import Foundation

/// A column's storage class, as SQLite reports it.
package enum RelationalColumnKind {
    case null, integer, real, text, blob
}

/// One column of the row being read, where the database keeps it: its storage class and its value (the bytes
/// of TEXT and BLOB stay valid until the row changes). One read per column serves both the row's hash and the
/// field's value; each SQLite column call takes the connection's mutex, and the reader made five of them for a
/// TEXT column (a sixth of a load).
package struct RelationalRawColumn {
    package init() {}

    package var kind: RelationalColumnKind = .null
    package var int: Int64 = 0
    package var real: Double = 0
    package var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
}

/// The columns of the row being read: a statement's current row (sqlite) or the values fetched (postgres).
/// `column` reads a column in place, without making a `RelationalValue` (a string per text column, measured by
/// strlen); `value` makes one, for the columns read rarely.
package protocol RowColumns {
    func value(_ k: Int32) -> RelationalValue
    func column(_ k: Int32) -> RelationalRawColumn
}

/// A row fetched from PostgreSQL, as values; the bytes of its texts and blobs are copied once into memory it
/// owns, so that a column's bytes stay valid while it lives.
package final class ArrayColumns: RowColumns {
    package let values: [RelationalValue]
    private var raw: [RelationalRawColumn] = []
    private var storage: UnsafeMutablePointer<UInt8>?

    package init(values: [RelationalValue]) {
        self.values = values
        var size = 0
        for v in values {
            switch v {
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
            var c = RelationalRawColumn()
            switch v {
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

    package func value(_ k: Int32) -> RelationalValue { Int(k) < values.count ? values[Int(k)] : .null }
    package func column(_ k: Int32) -> RelationalRawColumn { Int(k) < raw.count ? raw[Int(k)] : RelationalRawColumn() }
}
