/// What the database of a SQLite or PostgreSQL model holds, by row key, as the last load or store left it:
/// the rows a load read, kept as it read them (`RelationalReadRows`: arrays by row number and an index by key,
/// shared and never changed), with the rows every store since wrote or deleted beside them.
///
/// A load keeps 300,000 rows in a few arrays instead of a dictionary of a value per row (an array of child keys
/// in each), which took a third of the load to build. A row is made into a `RelationalStoredRow` when a store asks.
package struct RelationalStoredRows: Sequence, ExpressibleByDictionaryLiteral {
    /// The rows as loaded (nil: no load, or the load read no rows).
    private var base: Base?
    /// Rows stored or deleted since the load: a row, or nil for a row deleted.
    private var changes: [RelationalRowKey: RelationalStoredRow?] = [:]
    package private(set) var count = 0

    /// The rows of a load, shared by every copy.
    package final class Base {
        package let rows: RelationalReadRows
        package init(_ rows: RelationalReadRows) { self.rows = rows }

        package func row(of key: RelationalRowKey) -> RelationalStoredRow? { number(of: key).map { rows.storedRow(Int($0)) } }

        /// The number of the attached row of a key.
        package func number(of key: RelationalRowKey) -> Int32? {
            guard let r = rows.index.find(key, keys: rows.keys), rows.childStart[Int(r)] >= 0 else { return nil }
            return r
        }
    }

    package init() {}

    package init(dictionaryLiteral elements: (RelationalRowKey, RelationalStoredRow)...) {
        for (k, v) in elements { self[k] = v }
    }

    /// The rows a load attached (its entities dropped first: the model holds them).
    package init(loaded rows: RelationalReadRows) {
        var rows = rows
        rows.dropEntities()
        count = rows.childStart.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) }
        base = Base(rows)
    }

    package var isEmpty: Bool { count == 0 }

    package subscript(key: RelationalRowKey) -> RelationalStoredRow? {
        get {
            if let change = changes[key] { return change }
            return base?.row(of: key)
        }
        set {
            let inBase = base?.number(of: key) != nil
            let had: Bool
            if let change = changes[key] { had = change != nil } else { had = inBase }
            if newValue == nil, !inBase {
                changes.removeValue(forKey: key)
            } else {
                changes[key] = .some(newValue)
            }
            count += (newValue != nil ? 1 : 0) - (had ? 1 : 0)
        }
    }

    package subscript(key: String) -> RelationalStoredRow? {
        get { self[RelationalRowKey(key)] }
        set { self[RelationalRowKey(key)] = newValue }
    }

    @discardableResult
    package mutating func removeValue(forKey key: String) -> RelationalStoredRow? {
        let k = RelationalRowKey(key)
        guard let old = self[k] else { return nil }
        self[k] = nil
        return old
    }

    /// The keys of every row held.
    package var keys: [RelationalRowKey] {
        var out: [RelationalRowKey] = []
        out.reserveCapacity(count)
        if let rows = base?.rows {
            for i in 0..<rows.keys.count where rows.childStart[i] >= 0 && changes[rows.keys[i]] == nil {
                // The first row of a key only (the one a lookup finds).
                if rows.index.find(rows.keys[i], keys: rows.keys) == Int32(i) { out.append(rows.keys[i]) }
            }
        }
        for (k, v) in changes where v != nil { out.append(k) }
        return out
    }

    package func makeIterator() -> AnyIterator<(key: RelationalRowKey, value: RelationalStoredRow)> {
        var keys = self.keys.makeIterator()
        return AnyIterator {
            while let k = keys.next() {
                if let row = self[k] { return (k, row) }
            }
            return nil
        }
    }
}
