
/// What the database holds of one row okit read or wrote: enough to tell whether an entity's row changed (a
/// hash of the values okit writes), where it hangs (parent, field, position, map key) and which rows hang
/// under it.
package struct RelationalStoredRow {
    package var table: Int32
    package var position: Int?
    package var hash: Int
    package var parent: RelationalRowKey?
    package var field: String?
    package var mapKey: String?
    package var children: [RelationalRowKey]

    /// The hash of a row's written values (what a store compares; the reader hashes the same values as it reads).
    package static func hash(of values: [RelationalValue]) -> Int { RelationalRowHash.of(values) }
}

/// One row as the model has it now.
package struct RelationalRowDraft {
    package let table: Int
    package let key: String
    package let values: [RelationalValue]
    package let hash: Int
    package let parent: String?
    package let field: String?
    package let position: Int?
    package let mapKey: String?
    package let children: [String]
}

/// Two entities of one model with the same id (owned copies): the model cannot be kept as rows keyed by id.
package struct RelationalDuplicateId: Error, CustomStringConvertible {
    package let id: String
    package let first: String
    package let second: String
    package var description: String {
        "ids are unique within a model, but id \"\(id)\" is held by \(first) and by \(second); give one of them its own id"
    }
}

/// Turns entities into rows (storage.md "SQLite models"), keeping the positions the database already has where
/// the order allows, so that an insertion writes the inserted row, not every row after it.
package struct RelationalRowWriter {
    package let tables: RelationalTables
    package let stored: RelationalStoredRows
    package private(set) var drafts: [RelationalRowDraft] = []
    /// Derives an entity's own row only, not the rows of what it owns (a postgres merge compares one row).
    package var shallow = false
    /// Where each derived key came from (to name both holders of a duplicate id).
    private var derived: [String: Entity] = [:]

    package init(tables: RelationalTables, stored: RelationalStoredRows) {
        self.tables = tables
        self.stored = stored
    }

    package var derivedKeys: Dictionary<String, Entity>.Keys { derived.keys }
    package func isDerived(_ key: String) -> Bool { derived[key] != nil }
    package func entity(derivedAs key: String) -> Entity? { derived[key] }

    /// The row of `e` and of every entity it owns. Returns `e`'s key.
    @discardableResult
    package mutating func derive(_ e: Entity, parent: String?, field: String?, position: Int?, mapKey: String?) throws -> String? {
        guard let ti = tables.index(of: e.type) else { return nil }
        let table = tables.tables[ti]
        let key: String
        if table.keyColumn != nil {
            guard let id = e.id else { return nil }
            key = id
        } else {
            key = RelationalTable.positionalKey(parent: parent, field: field, position: position)
        }
        if let first = derived.updateValue(e, forKey: key) {
            throw RelationalDuplicateId(id: key, first: Self.place(first), second: "a \(e.type.name) in \(parent ?? "the root").\(field ?? "")")
        }
        var row: [RelationalValue] = []
        row.reserveCapacity(table.written.count)
        if table.keyColumn != nil {
            if table.autoIncrement, let n = Int64(key) { row.append(n.relationalValue) } else { row.append(key.relationalValue) }
        }
        row.append(parent?.relationalValue ?? .null)
        row.append(field?.relationalValue ?? .null)
        row.append(position.map { Int64($0).relationalValue } ?? .null)
        row.append(mapKey?.relationalValue ?? .null)
        var children: [String] = []
        for c in table.columns {
            let v = e.values[c.slot]
            guard case .children = c.mapping else {
                RelationalColumnValue.append(v, c.mapping, to: &row)
                continue
            }
            if shallow { continue }
            switch v {
            case .entity(let child):
                if let k = try derive(child, parent: key, field: c.name, position: 0, mapKey: nil) { children.append(k) }
            case .collection(let coll):
                let items = coll.items
                let positions = self.positions(of: coll, parent: key, field: c.name)
                for i in 0..<items.count {
                    guard case .entity(let child) = items[i] else { continue }
                    let mk = coll.kind == .map && i < coll.keys.count ? coll.keys[i] : nil
                    if let k = try derive(child, parent: key, field: c.name, position: positions[i], mapKey: mk) { children.append(k) }
                }
            default: break
            }
        }
        row.append(extra(e, table: table))
        drafts.append(RelationalRowDraft(table: ti, key: key, values: row, hash: RelationalStoredRow.hash(of: row), parent: parent,
                                     field: field, position: position, mapKey: mapKey, children: children))
        return key
    }

    package static func place(_ e: Entity) -> String {
        guard let p = e.parent else { return "the root \(e.type.name)" }
        return "a \(e.type.name) in \(p.debugName)"
    }

    /// Fields the schema does not know and the table has no column for: a JSON object in `okit_extra`.
    package func extra(_ e: Entity, table: RelationalTable) -> RelationalValue {
        guard let unknown = e.unknownFields else { return .null }
        var w = JSONWriter(capacity: 128)
        var any = false
        w.out.append(0x7B)
        for (k, raw) in unknown where !table.unknownColumns.contains(k) {
            if any { w.out.append(0x2C) }
            any = true
            w.string(k); w.out.append(0x3A); w.out.append(contentsOf: raw)
        }
        w.out.append(0x7D)
        return any ? String(decoding: w.out.buffer, as: UTF8.self).relationalValue : .null
    }

    /// Positions for a collection's items: an item keeps the position the database has for it while that keeps
    /// the order increasing; others get the next free number (items inserted at the front count down from the
    /// first kept one). Items without ids are numbered from 0.
    package func positions(of coll: EntityCollection, parent: String, field: String) -> [Int] {
        let items = coll.items
        let n = items.count
        var old = [Int?](repeating: nil, count: n)
        var anyOld = false
        let parentKey = RelationalRowKey(parent)
        for i in 0..<n {
            guard case .entity(let child) = items[i], child.type.hasId, let id = child.id, let s = stored[id],
                  s.parent == parentKey, s.field == field, let p = s.position else { continue }
            old[i] = p
            anyOld = true
        }
        if !anyOld { return Array(0..<n) }
        var result: [Int] = []
        result.reserveCapacity(n)
        var last: Int?
        for i in 0..<n {
            if let o = old[i], last.map({ o > $0 }) ?? true {
                result.append(o)
                last = o
                continue
            }
            let p: Int
            if let l = last {
                p = l + 1
            } else if let j = ((i + 1)..<n).first(where: { old[$0] != nil }), let oj = old[j] {
                p = oj - (j - i)
            } else {
                p = 0
            }
            result.append(p)
            last = p
        }
        return result
    }
}
