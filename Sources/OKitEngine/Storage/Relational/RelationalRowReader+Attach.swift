/// Attaching the rows a load read (`RelationalReadRows`) to their parents' entities, from the root down.
extension RelationalRowReader {
    /// A field kept as child rows: its slot, its name (the rows' `okit_field`) and the children's table.
    fileprivate struct ChildColumn {
        package let slot: Int
        package let name: String
        package let table: Int32
    }

    /// Attaches the rows under row `i` (and under those, down the tree) to their entities, in position order,
    /// recording each attached row's children (`childStart`, `childEnd`, `childList`); then fills the defaults of
    /// fields their rows left NULL. Returns the rows attached, `i` first.
    @discardableResult
    package func attach(_ i: Int, rows: inout RelationalReadRows, count: inout Int) -> [Int32] {
        // Each column's name as the rows hold it (the same string: compared by its bits, not its bytes).
        let childColumns: [[ChildColumn]] = tables.tables.map { t in
            t.columns.compactMap { c in
                guard case .children(let ct) = c.mapping else { return nil }
                return ChildColumn(slot: c.slot, name: rows.fieldName(c.name), table: Int32(ct))
            }
        }
        // Moved out of `rows` while they change (each stays uniquely held: no copy), put back at the end.
        var childStart = rows.childStart, childEnd = rows.childEnd, childList = rows.childList
        rows.childStart = []; rows.childEnd = []; rows.childList = []
        defer { rows.childStart = childStart; rows.childEnd = childEnd; rows.childList = childList }
        let entities = rows.entities, tablesOf = rows.tables, fields = rows.fields, positions = rows.positions
        let firstChild = rows.firstChild, next = rows.next, needsDefaults = rows.needsDefaults
        var attached: [Int32] = []
        var under: [Int32] = []
        // Rows are attached in read order (a parent before its children, when it was read first), so that the
        // entities are touched again in the order they were made, one after another in memory; a row whose parent
        // comes after it is attached once the pass is over (`late`). A row with nothing under it and no
        // default to fill is not touched again.
        var flagged = [Bool](repeating: false, count: entities.count)
        var late: [Int32] = []
        var scan = i
        flagged[i] = true
        // One loop, not a function per row: a local function captures these variables in boxes, each access
        // then checked for exclusivity at run time.
        while true {
            let r: Int
            if scan < entities.count {
                if !flagged[scan] { scan += 1; continue }
                r = scan
                scan += 1
            } else if let l = late.popLast() {
                r = Int(l)
            } else {
                break
            }
            attached.append(Int32(r))
            count += 1
            childStart[r] = Int32(childList.count)
            guard firstChild[r] >= 0 || needsDefaults[r] else {
                childEnd[r] = Int32(childList.count)
                continue
            }
            let e = entities[r]
            if firstChild[r] >= 0 {
                for c in childColumns[Int(tablesOf[r])] {
                    under.removeAll(keepingCapacity: true)
                    var ordered = true
                    var previous = Int.min
                    var child = firstChild[r]
                    while child >= 0 {
                        let k = Int(child)
                        if tablesOf[k] == c.table, fields[k] == c.name {
                            under.append(child)
                            // Position order; rows without a position (written by another program) last, in table order.
                            if let p = positions[k], p > previous { previous = p } else { ordered = false }
                        }
                        child = next[k]
                    }
                    if under.isEmpty { continue }
                    if !ordered { under = rows.positionOrder(under) }
                    Self.place(&under, in: e, slot: c.slot, entities: entities, rows: rows)
                    childList.append(contentsOf: under)
                    for k in under {
                        flagged[Int(k)] = true
                        if Int(k) < scan { late.append(k) }
                    }
                }
            }
            childEnd[r] = Int32(childList.count)
            if needsDefaults[r] { fillDefaults(e) }
        }
        return attached
    }

    /// Puts the child rows `under` (in position order) into field `slot` of `e`, one level below it: a
    /// collection's items (and a map's keys), else the field's one entity (`under` then keeps only its row).
    @inline(__always)
    private static func place(_ under: inout [Int32], in e: Entity, slot: Int, entities: RelationalReadEntities,
                              rows: RelationalReadRows) {
        let level = e.level &+ 1
        switch e.values[slot] {
        case .collection(let coll):
            var items = ValueList()
            items.reserveCapacity(under.count)
            for k in under {
                let ce = entities.claim(Int(k))
                ce.parent = e
                ce.isContained = true
                ce.level = level
                items.append(.entity(consume ce))
            }
            if coll.kind == .map {
                for k in under { coll.keys.append(rows.mapKeys[Int(k)] ?? rows.keys[Int(k)].text) }
            }
            coll.items = items
        default:
            let ce = entities.claim(Int(under[0]))
            ce.parent = e
            ce.isContained = true
            ce.level = level
            e.values[slot] = .entity(consume ce)
            under.removeSubrange(1...)
        }
    }

    /// Whether a slot is NULL, not optional and not the id: a default fills it.
    @inline(__always)
    package static func needsDefault(_ e: Entity, slot: Int) -> Bool {
        let type = e.type
        return !type.optionals[slot] && e.slotIsNull(slot) && !(slot == 0 && type.hasId)
    }

    /// Defaults for fields that are not optional and were NULL (or had no child row), as for a missing field in
    /// a model file.
    private func fillDefaults(_ e: Entity) {
        let type = e.type
        for slot in 0..<type.fields.count where Self.needsDefault(e, slot: slot) {
            if let v = try? engine.defaultValue(for: type.fields[slot], slot: slot, owner: e) {
                if case .entity(let child) = v {
                    child.parent = e
                    child.isContained = true
                    child.state = .managed
                    child.level = e.level &+ 1
                    markManagedTree(child)
                }
                e.values[slot] = v
            }
        }
    }

    private func markManagedTree(_ e: Entity) {
        e.forEachChild { c in
            c.parent = e
            c.state = .managed
            c.level = e.level &+ 1
            markManagedTree(c)
        }
    }
}
