import Foundation
import NIOCore
import OKitEngine
import PostgresNIO

extension RelationalRowBatch {
    /// Appends a row fetched from PostgreSQL: each cell's bytes copied into the batch's one buffer, numbers kept
    /// as numbers, without a `RelationalValue` per cell. Each cell reads as `PostgresLink.value` reads it
    /// (booleans as 0/1, every number as INTEGER or REAL, `bytea` as a BLOB, other types as their text), so that
    /// a row read here and one read as values are the same row.
    func append(_ row: PostgresRow) {
        for cell in row {
            guard var bytes = cell.bytes else { appendNull(); continue }
            switch (cell.dataType, cell.format) {
            case (.text, .binary), (.varchar, .binary):
                appendBytes(.text, bytes.readableBytesView)
            case (.bytea, .binary):
                appendBytes(.blob, bytes.readableBytesView)
            case (.int8, .binary):
                if let i = bytes.readInteger(as: Int64.self) { appendNumber(.integer, UInt64(bitPattern: i)) } else { appendNull() }
            case (.float8, .binary):
                if let bits = bytes.readInteger(as: UInt64.self) { appendNumber(.real, bits) } else { appendNull() }
            case (.bool, .binary):
                if let b = bytes.readInteger(as: UInt8.self) { appendNumber(.integer, b == 0 ? 0 : 1) } else { appendNull() }
            default:
                append(PostgresLink.value(cell))
            }
        }
        rows += 1
    }

    /// Room for `n` rows' columns (their bytes grow as they come).
    func reserve(rows n: Int) {
        kinds.reserveCapacity(n * columns)
        numbers.reserveCapacity(n * columns)
        ranges.reserveCapacity(n * columns)
    }

    /// A NULL column.
    func appendNull() {
        kinds.append(.null)
        numbers.append(0)
        ranges.append((0, 0))
    }

    /// An INTEGER (its bits) or a REAL (its bit pattern).
    func appendNumber(_ kind: RelationalColumnKind, _ bits: UInt64) {
        kinds.append(kind)
        numbers.append(bits)
        ranges.append((0, 0))
    }

    /// A TEXT or BLOB column's bytes.
    func appendBytes<C: Collection<UInt8>>(_ kind: RelationalColumnKind, _ b: C) {
        kinds.append(kind)
        numbers.append(0)
        ranges.append((Int32(bytes.count), Int32(b.count)))
        bytes.append(contentsOf: b)
    }

    /// A column from a value (the cells of types read through `PostgresLink.value`).
    func append(_ v: RelationalValue) {
        switch v {
        case .null: appendNull()
        case .int64(let i): appendNumber(.integer, UInt64(bitPattern: i))
        case .double(let d): appendNumber(.real, d.bitPattern)
        case .string(let s): appendBytes(.text, s.utf8)
        case .blob(let d): appendBytes(.blob, d)
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
