import Foundation

/// The rows a load read, before and after they are attached to their parents: one array per column of what a
/// row holds, indexed by the row's number in read order (tables in order, each by rowid); each row's children
/// as a list threaded through `firstChild`/`next`; the rows by key (`index`); and, once attached, each
/// attached row's children in order (`childStart`..`childEnd` of `childList`). No object and no array per row:
/// what a store needs of them stays in these arrays (`RelationalStoredRows`), not in a dictionary of a value per
/// row.
package struct RelationalReadRows {
    package init() {}

    package private(set) var entities = RelationalReadEntities()
    package private(set) var keys: [RelationalRowKey] = []
    package private(set) var tables: [Int32] = []
    package private(set) var fields: [String?] = []
    package private(set) var positions: [Int?] = []
    package private(set) var mapKeys: [String?] = []
    package private(set) var hashes: [Int] = []
    package private(set) var parents: [RelationalRowKey?] = []
    /// Whether a row left a field NULL that has a default (or has a single owned entity, which may need one
    /// when no row is under it): told while the entity is fresh, so that attaching touches only these again.
    package private(set) var needsDefaults: [Bool] = []
    /// The first child row of each row (-1: none), then each child's next sibling, in read order.
    package private(set) var firstChild: [Int32] = []
    package private(set) var next: [Int32] = []
    /// Rows of the first table without a parent: the root (more than one is an error the reader reports).
    package private(set) var roots: [Int32] = []
    /// Every row by its key (the first of a key, rows of tables with child rows before others).
    package private(set) var index = RelationalRowIndex(capacity: 0)
    /// Where an attached row's children are in `childList` (-1: the row was not attached).
    package var childStart: [Int32] = []
    package var childEnd: [Int32] = []
    package var childList: [Int32] = []
    /// The field names read so far, with their bytes, so that the rows of one field share one string
    /// (`field(_:)`).
    private var fieldNames: [(bytes: [UInt8], name: String)] = []
    /// The parent key of the row read before, with its bytes (the rows under one parent are read one after
    /// another: the key is parsed once for them).
    private var lastParentBytes: [UInt8] = []
    private var lastParent: RelationalRowKey = .text("")

    package var count: Int { entities.count }

    /// Room for `n` more rows.
    package mutating func reserve(_ n: Int) {
        let c = count + n
        entities.reserveCapacity(c)
        keys.reserveCapacity(c)
        tables.reserveCapacity(c)
        fields.reserveCapacity(c)
        positions.reserveCapacity(c)
        mapKeys.reserveCapacity(c)
        hashes.reserveCapacity(c)
        parents.reserveCapacity(c)
        needsDefaults.reserveCapacity(c)
    }

    /// The key of a row's `okit_parent`: the key of the row before when the bytes are the same.
    package mutating func parent(_ bytes: UnsafeBufferPointer<UInt8>) -> RelationalRowKey {
        if Self.same(lastParentBytes, bytes) { return lastParent }
        lastParent = RelationalRowKey(bytes: bytes)
        lastParentBytes.removeAll(keepingCapacity: true)
        lastParentBytes.append(contentsOf: bytes)
        return lastParent
    }

    /// The text of a row's `okit_field`: the string of an earlier row with the same bytes (a field is one of a
    /// few names, read for every row), else a new one.
    package mutating func field(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        for i in fieldNames.indices where Self.same(fieldNames[i].bytes, bytes) { return fieldNames[i].name }
        let name = String(decoding: bytes, as: UTF8.self)
        if fieldNames.count < 64 { fieldNames.append((Array(bytes), name)) }
        return name
    }

    /// The string the rows hold for a field name (the name itself when no row has it).
    package func fieldName(_ name: String) -> String {
        let bytes = Array(name.utf8)
        return fieldNames.first { $0.bytes == bytes }?.name ?? name
    }

    /// Whether the bytes kept are the bytes read.
    @inline(__always)
    private static func same(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { u in u.count == 0 || memcmp(u.baseAddress!, b.baseAddress!, u.count) == 0 }
    }

    /// Adds a row read: its entity (held here until its parent claims it), what a store needs of it, and
    /// whether it left a field NULL that has a default.
    package mutating func append(entity: Entity, key: RelationalRowKey, table: Int32, field: String?, position: Int?, mapKey: String?,
                         hash: Int, parent: RelationalRowKey?, needsDefaults: Bool = true) {
        entities.append(entity)
        self.needsDefaults.append(needsDefaults)
        keys.append(key)
        tables.append(table)
        fields.append(field)
        positions.append(position)
        mapKeys.append(mapKey)
        hashes.append(hash)
        parents.append(parent)
    }

    /// Indexes every row by key, threads every row with a parent onto its parent's child list (rows whose
    /// parent is not a row read stay unattached, as before) and collects the roots. Only rows of tables with
    /// child rows (`parentTables`) can be parents; a row with the previous row's parent skips the lookup.
    package mutating func link(parentTables: [Bool]) {
        let n = entities.count
        var index = RelationalRowIndex(capacity: n)
        var firstChild = [Int32](repeating: -1, count: n)
        var next = [Int32](repeating: -1, count: n)
        var roots: [Int32] = []
        keys.withUnsafeBufferPointer { keys in
            tables.withUnsafeBufferPointer { tables in
                parents.withUnsafeBufferPointer { parents in
                    for i in 0..<n {
                        index.insert(Int32(i), keys: keys) { old in parentTables[Int(tables[Int(old)])] || !parentTables[Int(tables[i])] }
                    }
                    var lastChild = [Int32](repeating: -1, count: n)
                    var previous: (key: RelationalRowKey, row: Int)?
                    for i in 0..<n {
                        guard let parent = parents[i] else {
                            if tables[i] == 0 { roots.append(Int32(i)) }
                            continue
                        }
                        let p: Int
                        if let previous, previous.key == parent {
                            p = previous.row
                        } else {
                            guard let r = index.find(parent, keys: keys), parentTables[Int(tables[Int(r)])] else { continue }
                            p = Int(r)
                            previous = (parent, p)
                        }
                        if lastChild[p] < 0 { firstChild[p] = Int32(i) } else { next[Int(lastChild[p])] = Int32(i) }
                        lastChild[p] = Int32(i)
                    }
                }
            }
        }
        self.index = index
        self.firstChild = firstChild
        self.next = next
        self.roots = roots
        childStart = [Int32](repeating: -1, count: n)
        childEnd = [Int32](repeating: -1, count: n)
    }

    /// The attached row `i` as a store keeps it.
    package func storedRow(_ i: Int) -> RelationalStoredRow {
        var children: [RelationalRowKey] = []
        let start = Int(childStart[i]), end = Int(childEnd[i])
        if start >= 0, end > start {
            children.reserveCapacity(end - start)
            for k in start..<end { children.append(keys[Int(childList[k])]) }
        }
        return RelationalStoredRow(table: tables[i], position: positions[i], hash: hashes[i], parent: parents[i],
                               field: fields[i], mapKey: mapKeys[i], children: children)
    }

    /// Drops the entities (the model holds them), the child threads and the defaults' flags, keeping what a
    /// store needs.
    package mutating func dropEntities() {
        entities = RelationalReadEntities()
        firstChild = []
        next = []
        needsDefaults = []
    }

    /// Rows in position order; rows without a position (written by another program) last, in read order.
    package func positionOrder(_ rows: [Int32]) -> [Int32] {
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
