/// The rows a load read, before they are attached to their parents: one array per column of what a row holds,
/// indexed by the row's number in read order (tables in order, each by rowid), and each row's children as a
/// list threaded through `firstChild`/`next` — no object and no array per row (issue 17: the rows were objects
/// grouped in arrays under a dictionary keyed by the parent's id).
struct SQLiteReadRows {
    private(set) var entities: [Entity] = []
    private(set) var keys: [String] = []
    private(set) var tables: [Int32] = []
    private(set) var fields: [String?] = []
    private(set) var positions: [Int?] = []
    private(set) var mapKeys: [String?] = []
    private(set) var hashes: [Int] = []
    private(set) var parents: [String?] = []
    /// The first child row of each row (-1: none), then each child's next sibling, in read order.
    private(set) var firstChild: [Int32] = []
    private(set) var next: [Int32] = []
    /// Rows of the first table without a parent: the root (more than one is an error the reader reports).
    private(set) var roots: [Int32] = []

    var count: Int { entities.count }

    mutating func append(entity: Entity, key: String, table: Int32, field: String?, position: Int?, mapKey: String?,
                         hash: Int, parent: String?) {
        entities.append(entity)
        keys.append(key)
        tables.append(table)
        fields.append(field)
        positions.append(position)
        mapKeys.append(mapKey)
        hashes.append(hash)
        parents.append(parent)
    }

    /// Threads every row with a parent onto its parent's child list (rows whose parent is not a row read stay
    /// unattached, as before) and collects the roots. Only rows of tables with child rows (`parentTables`) can
    /// be parents, so only their keys are looked up; a row with the previous row's parent skips the lookup.
    mutating func link(parentTables: [Bool]) {
        let n = entities.count
        // Keyed by `SQLiteRowKey` (hashes compared before texts, as the stored rows are). Backwards, so that the
        // first row of a key holds it: one dictionary write per row.
        var rowOfKey: [SQLiteRowKey: Int32] = [:]
        for i in stride(from: n - 1, through: 0, by: -1) where parentTables[Int(tables[i])] { rowOfKey[keys[i]] = Int32(i) }
        firstChild = [Int32](repeating: -1, count: n)
        next = [Int32](repeating: -1, count: n)
        var lastChild = [Int32](repeating: -1, count: n)
        var previous: (key: String, row: Int)?
        for i in 0..<n {
            guard let parent = parents[i] else {
                if tables[i] == 0 { roots.append(Int32(i)) }
                continue
            }
            let p: Int
            if let previous, previous.key == parent {
                p = previous.row
            } else {
                guard let r = rowOfKey[parent] else { continue }
                p = Int(r)
                previous = (parent, p)
            }
            if lastChild[p] < 0 { firstChild[p] = Int32(i) } else { next[Int(lastChild[p])] = Int32(i) }
            lastChild[p] = Int32(i)
        }
    }

    /// Rows in position order; rows without a position (written by another program) last, in read order.
    func positionOrder(_ rows: [Int32]) -> [Int32] {
        rows.enumerated().sorted { a, b in
            switch (positions[Int(a.element)], positions[Int(b.element)]) {
            case let (x?, y?): return x != y ? x < y : a.offset < b.offset
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil): return a.offset < b.offset
            }
        }.map(\.element)
    }
}
