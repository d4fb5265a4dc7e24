/// A list's rows in display order, kept so that one row can move without touching the others.
///
/// Rows live in `slots` (a freed slot is reused); `order` holds the slots in display order in chunks
/// (`ChunkedOrder`), so putting a row in its place moves one chunk of 4-byte slot numbers, not the rows, whatever
/// the number of rows. `slotOf` (entity → slot) is built with a table that follows changes.
struct ListRowTable {
    private(set) var slots: [ListScreen.Row] = []
    private var free: [Int32] = []
    private(set) var order = ChunkedOrder()
    private var slotOf: EntitySlotMap?
    /// The rows' search texts and index letters in flat arrays (`ListRowTexts`).
    private(set) var texts = ListRowTexts()
    /// The texts in display order, made by the first search after a change (`ListRowTexts.InOrder`).
    private var textsInOrder: ListRowTexts.InOrder?
    /// Each slot's scope text (`searchFilterPath`); empty when the list has no scopes.
    private var filters: [String?] = []
    /// The full pass's sort texts, kept for the first search when it searches them (dropped by any row's change).
    private var sortTexts: ListRowTexts.SortTexts?

    init() {}

    /// The rows of a full pass, their display order (indices into `rows`) and their scope texts (by row, or none).
    init(rows: consuming [ListScreen.Row], order: [Int32], filters: [String?] = []) {
        let n = rows.count
        self.filters = filters
        // Taken as it is (the last use of `rows`): a full pass's rows are not copied (each copy retains its keys).
        slots = rows
        self.order = ChunkedOrder(order)
        // Room for rows to come: growing a million-row table copies it, once per doubling.
        // (A full pass made its array with this room: a `reserveCapacity` here would copy it while the caller's
        // reference is still being released.)
        if slots.capacity < n + ListRowTable.room(n) { slots.reserveCapacity(n + ListRowTable.room(n)) }
        var texts = ListRowTexts()
        texts.reserve(n + ListRowTable.room(n))
        texts.makeSlots(n)
        slots.withUnsafeBufferPointer { rows in
            for i in rows.indices {
                texts.setTitle(Int32(i), ListRowTable.field(rows, i, ListRowTable.titleOffset, as: String?.self))
            }
        }
        self.texts = texts
    }

    /// A table that will follow changes: its entity → slot map built now, with the rows (the first change
    /// would otherwise pay for it).
    init(following rows: consuming [ListScreen.Row], order: [Int32], filters: [String?] = []) {
        self.init(rows: rows, order: order, filters: filters)
        buildSlots()
    }

    /// Keeps the full pass's sort texts for the first search (`setSearchTexts(fromSort: true)`), when they are
    /// this table's rows' (slots 0..<n, none changed since).
    mutating func keepSortTexts(_ kept: ListRowTexts.SortTexts?) {
        guard let kept, kept.rows == slots.count, free.isEmpty, !texts.hasSearch else { return }
        sortTexts = kept
    }

    /// Whether the full pass's sort texts are kept for the first search.
    var keepsSortTexts: Bool { sortTexts != nil }

    /// The rows a table makes room for beyond its first pass (an eighth, at least 1,024).
    static func room(_ n: Int) -> Int { Swift.max(1024, n / 8) }

    var count: Int { order.count }
    var indices: Range<Int> { 0..<order.count }
    var isEmpty: Bool { order.count == 0 }

    /// The row at display position `i`, read in place (a copy would retain each of its keys).
    subscript(i: Int) -> ListScreen.Row {
        _read { yield slots[Int(order[i])] }
    }

    /// The slot of an entity's row, if it is one.
    mutating func slot(of e: Entity) -> Int32? {
        if slotOf == nil { buildSlots() }
        return slotOf?.slot(of: ObjectIdentifier(e)) { ObjectIdentifier(slots[Int($0)].entity) }
    }

    /// Gives `e` (the entity of slot `s`'s row) its slot in the map, or takes it out (nil), when the map is built.
    private mutating func setSlot(_ e: Entity, _ s: Int32?) {
        guard var map = slotOf else { return }
        slotOf = nil
        map.set(ObjectIdentifier(e), s) { ObjectIdentifier(slots[Int($0)].entity) }
        slotOf = map
    }

    /// Builds the entity → slot map (reading rows in place: copying a row would retain each of its keys).
    mutating func buildSlots() {
        var map = EntitySlotMap(capacity: order.count + ListRowTable.room(order.count))
        slots.withUnsafeBufferPointer { rows in
            if free.isEmpty {
                // Every slot holds a row: read them in memory order, not display order (no cache miss per row).
                for i in rows.indices { map.set(ObjectIdentifier(rows[i].entity), Int32(i)) { ObjectIdentifier(rows[Int($0)].entity) } }
            } else {
                for s in order { map.set(ObjectIdentifier(rows[Int(s)].entity), s) { ObjectIdentifier(rows[Int($0)].entity) } }
            }
        }
        slotOf = map
    }

    func row(slot: Int32) -> ListScreen.Row { slots[Int(slot)] }

    /// The display position of `slot`, found by its keys (`before` is the table's order).
    func position(of slot: Int32, before: (ListScreen.Row, ListScreen.Row) -> Bool) -> Int? {
        let target = slots[Int(slot)]
        var lo = 0, hi = order.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if before(slots[Int(order[mid])], target) { lo = mid + 1 } else { hi = mid }
        }
        return lo < order.count && order[lo] == slot ? lo : nil
    }

    /// Where a row with these keys goes: after every row that comes before it.
    func insertionPoint(_ row: ListScreen.Row, before: (ListScreen.Row, ListScreen.Row) -> Bool) -> Int {
        var lo = 0, hi = order.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if before(slots[Int(order[mid])], row) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    // Hot fields are read through their offsets in the row: the optimizer copied whole rows (retaining each of
    // their six references) when they were read as `rows[i].search` in a loop over a million rows.
    private static let titleOffset = MemoryLayout<ListScreen.Row>.offset(of: \ListScreen.Row.groupTitle) ?? 0
    private static let entityOffset = MemoryLayout<ListScreen.Row>.offset(of: \ListScreen.Row.entity) ?? 0
    private static let sortOffset = MemoryLayout<ListScreen.Row>.offset(of: \ListScreen.Row.sort) ?? 0

    @inline(__always)
    private static func field<T>(_ rows: UnsafeBufferPointer<ListScreen.Row>, _ slot: Int, _ offset: Int, as: T.Type) -> T {
        (UnsafeRawPointer(rows.baseAddress! + slot) + offset).load(as: T.self)
    }

    /// The section title of the row at display position `i` (read in place, without copying the row).
    func title(_ i: Int) -> String? {
        let s = Int(order[i])
        return slots.withUnsafeBufferPointer { ListRowTable.field($0, s, ListRowTable.titleOffset, as: String?.self) }
    }

    /// The entity of the row at display position `i` (read in place).
    func entity(at i: Int) -> Entity {
        let s = Int(order[i])
        return slots.withUnsafeBufferPointer { ListRowTable.field($0, s, ListRowTable.entityOffset, as: Entity.self) }
    }

    /// The scope text of the row at display position `i` (nil without scopes).
    func filter(at i: Int) -> String? {
        let s = Int(order[i])
        return s < filters.count ? filters[s] : nil
    }

    /// The group key of the row at display position `i`.
    func group(at i: Int) -> Value { slots[Int(order[i])].group }

    /// The texts in display order, made now if a change dropped them.
    private mutating func inOrder() -> ListRowTexts.InOrder {
        if let t = textsInOrder { return t }
        textsInOrder = nil
        let t = ListRowTexts.InOrder(&texts, order: order)
        textsInOrder = t
        return t
    }

    /// The display positions of the rows whose search text contains `query` (normalized), in order.
    mutating func positions(searching query: String) -> [Int32] {
        inOrder().matching(0..<Int32(truncatingIfNeeded: order.count), query)
    }

    /// Those of `positions` (ascending) whose rows' search text contains `query` (a search narrowed by a longer
    /// text).
    mutating func refine(_ positions: [Int32], searching query: String) -> [Int32] {
        inOrder().matching(positions, query)
    }

    /// The index letters of the rows at these display positions, in the order they first appear.
    mutating func letters<S: Sequence>(at positions: S) -> [String] where S.Element == Int {
        inOrder().letters(positions)
    }

    /// Computes every row's search text (`text` of its entity and sort key), in slot order: the order the rows
    /// were read from the data, so a million entities are visited mostly in memory order (display order jumps),
    /// and no row is copied (a copy retains its six references).
    ///
    /// `fromSort`: a row whose sort key is text searches that text (`searchIsSort`); those texts are gathered
    /// first (`ListRowTexts.Gathered`), then folded from there.
    mutating func setSearchTexts(fromSort: Bool, _ text: (Entity, Value) -> String) {
        textsInOrder = nil
        if let kept = sortTexts.take(), fromSort, texts.replaceSearch(from: kept) { return }
        var isFree: [Bool] = []
        if !free.isEmpty {
            isFree = [Bool](repeating: false, count: slots.count)
            for f in free { isFree[Int(f)] = true }
        }
        textsInOrder = nil
        var t = texts
        texts = ListRowTexts()
        slots.withUnsafeBufferPointer { rows in
            var gathered: ListRowTexts.Gathered?
            if fromSort {
                var g = ListRowTexts.Gathered(rows: rows.count)
                for s in rows.indices where isFree.isEmpty || !isFree[s] {
                    g.add(s, (UnsafeRawPointer(rows.baseAddress! + s) + ListRowTable.sortOffset).assumingMemoryBound(to: Value.self))
                }
                gathered = g
            }
            defer { gathered?.deallocate() }
            let folded = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256)
            defer { folded.deallocate() }
            t.replaceSearch(slots: rows.count, capacity: gathered.map { $0.byteCount + 4096 } ?? rows.count * 24) { w in
                for s in rows.indices where isFree.isEmpty || !isFree[s] {
                    if let g = gathered, let bytes = g.text(s) {
                        if let n = SearchText.foldASCII(bytes, into: folded) {
                            w.set(s, UnsafeBufferPointer(rebasing: folded[..<n]))
                        } else {
                            w.set(s, text: String(decoding: bytes, as: UTF8.self))
                        }
                        continue
                    }
                    let e = ListRowTable.field(rows, s, ListRowTable.entityOffset, as: Entity.self)
                    let sort = ListRowTable.field(rows, s, ListRowTable.sortOffset, as: Value.self)
                    w.set(s, text: text(e, sort))
                }
            }
        }
        texts = t
        textsInOrder = nil
    }

    /// The display positions of the rows that pass `test`, in order (chunk by chunk).
    func positions(where test: (ListScreen.Row) -> Bool) -> [Int] {
        slots.withUnsafeBufferPointer { rows in order.positions { test(rows[Int($0)]) } }
    }

    /// Each row's index letter (`ListIndexLetters.letterByte` of its title), in display order.
    var letterBytes: [UInt8] { texts.letters(in: order) }

    /// Puts a new row at display position `at`.
    mutating func insert(_ keys: ListScreen.RowKeys, at position: Int) {
        sortTexts = nil
        let s: Int32
        let row = keys.row
        if let f = free.popLast() { s = f; slots[Int(f)] = row } else { s = Int32(slots.count); slots.append(row) }
        order.insert(s, at: position)
        textsInOrder = nil
        keepTexts(s, keys)
        _ = slot(of: row.entity)
        setSlot(row.entity, s)
    }

    /// Takes the row at display position `position` out.
    mutating func remove(at position: Int) {
        sortTexts = nil
        let s = order.remove(at: position)
        textsInOrder = nil
        setSlot(slots[Int(s)].entity, nil)
        texts.clear(s)
        free.append(s)
    }

    /// Moves the row of `slot` out of the order (its slot is kept for `reinsert`).
    mutating func unlink(at position: Int) -> Int32 {
        textsInOrder = nil
        return order.remove(at: position)
    }

    /// Puts a kept slot back at `position` with new keys.
    mutating func reinsert(_ slot: Int32, _ keys: ListScreen.RowKeys, at position: Int) {
        sortTexts = nil
        slots[Int(slot)] = keys.row
        order.insert(slot, at: position)
        textsInOrder = nil
        keepTexts(slot, keys)
    }

    /// A placed row's title, scope text and (when computed) search text into the arrays kept by slot.
    private mutating func keepTexts(_ slot: Int32, _ keys: ListScreen.RowKeys) {
        texts.setTitle(slot, keys.row.groupTitle)
        if let t = keys.search { texts.setSearch(slot, t) }
        let s = Int(slot)
        if keys.filter != nil || s < filters.count {
            if s >= filters.count { filters.append(contentsOf: repeatElement(nil, count: s + 1 - filters.count)) }
            filters[s] = keys.filter
        }
    }
}

/// The positions of the rows a list shows now (after search, hidden rows and scope), as indices into the rows:
/// every row without allocating a position each when nothing filters.
struct VisibleRows: RandomAccessCollection {
    let allCount: Int?
    /// 32-bit positions (a search's matches, kept while it is shown).
    let list: [Int32]

    static func all(_ n: Int) -> VisibleRows { VisibleRows(allCount: n, list: []) }
    static func some(_ l: [Int32]) -> VisibleRows { VisibleRows(allCount: nil, list: l) }
    static func some(_ l: [Int]) -> VisibleRows { VisibleRows(allCount: nil, list: l.map { Int32(truncatingIfNeeded: $0) }) }

    var startIndex: Int { 0 }
    var endIndex: Int { allCount ?? list.count }
    subscript(i: Int) -> Int { allCount != nil ? i : Int(list[i]) }
}
