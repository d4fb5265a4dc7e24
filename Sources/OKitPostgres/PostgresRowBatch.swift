import Foundation
import NIOCore
import OKitEngine
import PostgresNIO

extension RelationalRowBatch {
    /// Appends rows fetched from PostgreSQL: each cell's bytes copied into the batch's one buffer, numbers kept
    /// as numbers, without a `RelationalValue` per cell. Each cell reads as `PostgresLink.value` reads it
    /// (booleans as 0/1, every number as INTEGER or REAL, `bytea` as a BLOB, other types as their text), so that
    /// a row read here and one read as values are the same row. The arrays are filled as locals (appending to a
    /// class's arrays checks each access for exclusivity at run time).
    ///
    /// Returns how many rows of `part` it took: all of them, or (at least one) as many as keep the batch's text and
    /// blobs under `maxBytes` — its offsets are 32-bit, so a part of large `bytea` values goes into several batches.
    /// One row alone past `maxBytes` (PostgreSQL allows 1 GB a value, so two can pass it) is refused by
    /// `tooLarge`, never read with a wrapped offset.
    ///
    /// `records`: each row is one cell, the row's columns as one record (`PostgresRecordRow`).
    func fill(_ part: ArraySlice<PostgresRow>, records: Bool = false, limit: Int = RelationalRowBatch.maxBytes,
              tooLarge: (Int) -> Error) throws -> Int {
        var out = Columns(kinds: kinds, numbers: numbers, ranges: ranges, bytes: bytes)
        kinds = []; numbers = []; ranges = []; bytes = []
        let n = part.count * columns
        out.kinds.reserveCapacity(out.kinds.count + n)
        out.numbers.reserveCapacity(out.numbers.count + n)
        out.ranges.reserveCapacity(out.ranges.count + n)
        var taken = 0
        defer {
            rows += taken
            kinds = out.kinds; numbers = out.numbers; ranges = out.ranges; bytes = out.bytes
        }
        for row in part {
            let record = records ? row.first : nil
            if records, record == nil { throw PostgresRecordRow.Unreadable(why: "a row came without its record") }
            let size = record.map { $0.bytes?.readableBytes ?? 0 } ?? row.reduce(0) { $0 + ($1.bytes?.readableBytes ?? 0) }
            if taken > 0, out.bytes.count + size > limit { break }
            guard size <= limit else { throw tooLarge(size) }
            if let record { try out.appendRecord(record, columns: columns) } else { for cell in row { out.append(cell) } }
            taken += 1
        }
        return taken
    }

    /// The most bytes of text and blobs one batch holds (its offsets and lengths are 32-bit).
    static let maxBytes = Int(Int32.max) / 2

    /// A batch's arrays while they are filled.
    struct Columns {
        var kinds: [RelationalColumnKind]
        var numbers: [UInt64]
        var ranges: [(start: Int32, count: Int32)]
        var bytes: [UInt8]

        mutating func append(_ cell: PostgresCell) {
            guard var b = cell.bytes else { return appendNumber(.null, 0) }
            switch (cell.dataType, cell.format) {
            case (.text, .binary), (.varchar, .binary): appendBytes(.text, b.readableBytesView)
            case (.bytea, .binary): appendBytes(.blob, b.readableBytesView)
            case (.int8, .binary):
                if let i = b.readInteger(as: Int64.self) { appendNumber(.integer, UInt64(bitPattern: i)) } else { appendNumber(.null, 0) }
            case (.float8, .binary):
                if let bits = b.readInteger(as: UInt64.self) { appendNumber(.real, bits) } else { appendNumber(.null, 0) }
            case (.bool, .binary):
                if let x = b.readInteger(as: UInt8.self) { appendNumber(.integer, x == 0 ? 0 : 1) } else { appendNumber(.null, 0) }
            default:
                append(PostgresLink.value(cell))
            }
        }

        /// NULL (`.null`, 0), an INTEGER (its bits) or a REAL (its bit pattern).
        mutating func appendNumber(_ kind: RelationalColumnKind, _ bits: UInt64) {
            kinds.append(kind)
            numbers.append(bits)
            ranges.append((0, 0))
        }

        /// A TEXT or BLOB column's bytes.
        mutating func appendBytes<C: Collection<UInt8>>(_ kind: RelationalColumnKind, _ b: C) {
            kinds.append(kind)
            numbers.append(0)
            ranges.append((Int32(bytes.count), Int32(b.count)))
            bytes.append(contentsOf: b)
        }

        /// A column from a value (the cells of types read through `PostgresLink.value`).
        mutating func append(_ v: RelationalValue) {
            switch v {
            case .null: appendNumber(.null, 0)
            case .int64(let i): appendNumber(.integer, UInt64(bitPattern: i))
            case .double(let d): appendNumber(.real, d.bitPattern)
            case .string(let s): appendBytes(.text, s.utf8)
            case .blob(let d): appendBytes(.blob, d)
            }
        }
    }

    /// Column `k` of row `r` as a value (as `PostgresLink.value` would have made it).
    func value(row r: Int, column k: Int) -> RelationalValue {
        let i = r * columns + k
        switch kinds[i] {
        case .null: return .null
        case .integer: return Int64(bitPattern: numbers[i]).relationalValue
        case .real: return Double(bitPattern: numbers[i]).relationalValue
        case .text, .blob:
            let range = Int(ranges[i].start)..<Int(ranges[i].start + ranges[i].count)
            return kinds[i] == .text ? String(decoding: bytes[range], as: UTF8.self).relationalValue : Data(bytes[range]).relationalValue
        }
    }
}
