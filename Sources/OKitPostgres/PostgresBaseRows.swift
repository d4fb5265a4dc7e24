import OKitEngine

/// Each row's values and version as this process last read or wrote them: the base of a three-way merge
/// (`PostgresApply`, a store's conflicts, pending changes). The rows a load read stay in the batches they were
/// read into (one buffer of bytes and a few numbers per column: no array of values, no string key per row), found
/// by key through the load's own row index; a row is made into a `PostgresRowState` when asked. Rows stored or
/// followed since are kept beside them, by key, as before. When those rows are as many as half the load's, the
/// load's batches are folded into them and given back (a long-running `serve` whose rows are mostly written since
/// it joined would otherwise keep every batch it read for the few rows still based on it).
struct PostgresBaseRows: ExpressibleByDictionaryLiteral {
    /// The rows of the last load, as read.
    private var loaded: Loaded?
    /// Rows written or read since the load: a state, or nil for a row this process no longer has a base of.
    private var changes: [String: PostgresRowState?] = [:]

    /// A load's rows: its batches in read order, the load's row numbers where each starts, and the load's keys and
    /// index (shared with what the reader kept: no copy).
    struct Loaded {
        var batches: [RelationalRowBatch] = []
        var starts: [Int] = []
        /// How many written columns each table's rows have (the batches hold the unknown ones and the version after).
        var written: [Int] = []
        var keys: [RelationalRowKey] = []
        var index = RelationalRowIndex(capacity: 0)

        /// The state of load row `r` (its batch found by binary search over `starts`).
        func state(_ r: Int) -> PostgresRowState? {
            var lo = 0, hi = starts.count - 1
            guard hi >= 0, r >= starts[0] else { return nil }
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if starts[mid] <= r { lo = mid } else { hi = mid - 1 }
            }
            let b = batches[lo], i = r - starts[lo]
            guard i < b.rows else { return nil }
            let n = written[b.table]
            var values: [RelationalValue] = []
            values.reserveCapacity(n)
            for k in 0..<n { values.append(b.value(row: i, column: k)) }
            let version = Int64.fromRelationalValue(b.value(row: i, column: b.columns - 1)) ?? 0
            return PostgresRowState(table: b.table, values: values, version: version)
        }
    }

    init() {}

    init(dictionaryLiteral elements: (String, PostgresRowState)...) {
        for (k, v) in elements { changes[k] = .some(v) }
    }

    /// The bases of a load's rows.
    init(loaded: Loaded) { self.loaded = loaded }

    /// How many row batches the load left as bases (for tests: 0 once folded).
    var loadedBatchCount: Int { loaded?.batches.count ?? 0 }

    subscript(key: String) -> PostgresRowState? {
        get {
            if let change = changes[key] { return change }
            guard let loaded, let r = loaded.index.find(RelationalRowKey(key), keys: loaded.keys) else { return nil }
            return loaded.state(Int(r))
        }
        set {
            // A row the load did not read needs no mark that it has no base.
            if newValue == nil, loaded.map({ $0.index.find(RelationalRowKey(key), keys: $0.keys) == nil }) ?? true {
                changes.removeValue(forKey: key)
            } else {
                changes[key] = .some(newValue)
                if let loaded, changes.count * 2 >= loaded.keys.count { foldLoaded() }
            }
        }
    }

    /// Makes the load's rows not superseded since into rows by key and gives back the load's batches.
    private mutating func foldLoaded() {
        guard let loaded else { return }
        self.loaded = nil
        changes.reserveCapacity(loaded.keys.count)
        for (r, key) in loaded.keys.enumerated() {
            let text = key.text
            if changes[text] == nil, let state = loaded.state(r) { changes[text] = .some(state) }
        }
    }
}
