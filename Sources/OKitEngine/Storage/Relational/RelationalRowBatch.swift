import Foundation

/// Rows of one table's columns as the database gave them: for each column of each row its storage class, its
/// number (an INTEGER, or a REAL's bits) and the range of its bytes (TEXT, BLOB) in one buffer. An adapter fills
/// it (`SQLiteRowPipe`'s stepping thread: `fill`), the reader reads it (`forEachRow`).
package final class RelationalRowBatch {
    package init() {}

    package private(set) var table = 0
    package private(set) var columns = 0
    package var rows = 0
    package var kinds: [RelationalColumnKind] = []
    package var numbers: [UInt64] = []
    package var ranges: [(start: Int32, count: Int32)] = []
    package var bytes: [UInt8] = []

    package func reset(table: Int, columns: Int) {
        self.table = table
        self.columns = columns
        rows = 0
        kinds.removeAll(keepingCapacity: true)
        numbers.removeAll(keepingCapacity: true)
        ranges.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with the columns of each row in turn (their bytes valid during the call).
    package func forEachRow(_ body: (RelationalBatchColumns) throws -> Void) rethrows {
        try bytes.withUnsafeBufferPointer { buf in
            try kinds.withUnsafeBufferPointer { kinds in
                try numbers.withUnsafeBufferPointer { numbers in
                    try ranges.withUnsafeBufferPointer { ranges in
                        for r in 0..<rows {
                            try body(RelationalBatchColumns(bytes: buf, kinds: kinds, numbers: numbers, ranges: ranges, first: r * columns, count: columns))
                        }
                    }
                }
            }
        }
    }
}

/// One row of a batch, as `RowColumns`.
package struct RelationalBatchColumns: RowColumns {
    package let bytes: UnsafeBufferPointer<UInt8>
    package let kinds: UnsafeBufferPointer<RelationalColumnKind>
    package let numbers: UnsafeBufferPointer<UInt64>
    package let ranges: UnsafeBufferPointer<(start: Int32, count: Int32)>
    package let first: Int
    package let count: Int

    @inline(__always)
    package func column(_ k: Int32) -> RelationalRawColumn {
        var c = RelationalRawColumn()
        guard Int(k) < count else { return c }
        let i = first + Int(k)
        c.kind = kinds[i]
        switch c.kind {
        case .integer: c.int = Int64(bitPattern: numbers[i])
        case .real: c.real = Double(bitPattern: numbers[i])
        case .text, .blob:
            let r = ranges[i]
            if r.count > 0 { c.bytes = UnsafeBufferPointer(rebasing: bytes[Int(r.start)..<Int(r.start + r.count)]) }
        case .null: break
        }
        return c
    }

    package func value(_ k: Int32) -> RelationalValue {
        let c = column(k)
        switch c.kind {
        case .null: return .null
        case .integer: return c.int.relationalValue
        case .real: return c.real.relationalValue
        case .text: return String(decoding: c.bytes, as: UTF8.self).relationalValue
        case .blob: return Data(c.bytes).relationalValue
        }
    }
}
