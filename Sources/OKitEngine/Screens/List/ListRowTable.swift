/// A list's rows in display order, kept so that one row can move without touching the others.
///
/// Rows live in `slots` (a freed slot is reused); `order` holds the slots in display order, 4 bytes each, so
/// putting a row in its place moves at most 4 bytes per row (a list of 1,000,000 books inserts a row by moving
/// 4 MB at most, not the rows). `slotOf` (entity → slot) is built on the first change after a full pass, since
/// opening a list never needs it.
struct ListRowTable {
    private(set) var slots: [ListScreen.Row] = []
    private var free: [Int32] = []
    private(set) var order: [Int32] = []
    private var slotOf: [ObjectIdentifier: Int32]?

    init() {}

    /// The rows of a full pass and their display order (indices into `rows`).
    init(rows: [ListScreen.Row], order: [Int32]) {
        slots = rows
        self.order = order
    }

    var count: Int { order.count }
    var indices: Range<Int> { order.indices }
    var isEmpty: Bool { order.isEmpty }

    subscript(i: Int) -> ListScreen.Row { slots[Int(order[i])] }

    /// The slot of an entity's row, if it is one.
    mutating func slot(of e: Entity) -> Int32? {
        if slotOf == nil {
            var map: [ObjectIdentifier: Int32] = [:]
            map.reserveCapacity(order.count)
            for s in order { map[ObjectIdentifier(slots[Int(s)].entity)] = s }
            slotOf = map
        }
        return slotOf?[ObjectIdentifier(e)]
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

    /// Changes every row in place.
    mutating func updateEach(_ body: (inout ListScreen.Row) throws -> Void) rethrows {
        for s in order { try body(&slots[Int(s)]) }
    }

    /// Puts a new row at display position `at`.
    mutating func insert(_ row: ListScreen.Row, at position: Int) {
        let s: Int32
        if let f = free.popLast() { s = f; slots[Int(f)] = row } else { s = Int32(slots.count); slots.append(row) }
        order.insert(s, at: position)
        _ = slot(of: row.entity)
        slotOf?[ObjectIdentifier(row.entity)] = s
    }

    /// Takes the row at display position `position` out.
    mutating func remove(at position: Int) {
        let s = order.remove(at: position)
        slotOf?[ObjectIdentifier(slots[Int(s)].entity)] = nil
        free.append(s)
    }

    /// Moves the row of `slot` out of the order (its slot is kept for `reinsert`).
    mutating func unlink(at position: Int) -> Int32 {
        order.remove(at: position)
    }

    /// Puts a kept slot back at `position` with new keys.
    mutating func reinsert(_ slot: Int32, _ row: ListScreen.Row, at position: Int) {
        slots[Int(slot)] = row
        order.insert(slot, at: position)
    }
}

/// The positions of the rows a list shows now (after search, hidden rows and scope), as indices into the rows:
/// every row without allocating a position each when nothing filters.
struct VisibleRows: RandomAccessCollection {
    let allCount: Int?
    let list: [Int]

    static func all(_ n: Int) -> VisibleRows { VisibleRows(allCount: n, list: []) }
    static func some(_ l: [Int]) -> VisibleRows { VisibleRows(allCount: nil, list: l) }

    var startIndex: Int { 0 }
    var endIndex: Int { allCount ?? list.count }
    subscript(i: Int) -> Int { allCount != nil ? i : list[i] }
}
