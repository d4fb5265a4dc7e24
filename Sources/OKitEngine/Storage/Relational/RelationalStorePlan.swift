/// What one store writes: the rows of the changed entities (and of everything they own) whose values differ
/// from what the database holds, and the rows of entities no longer in the model.
///
/// A change inside an entity with an id re-derives that entity's rows only (the model's dirty units); a change
/// to the root (or a model written whole) re-derives every row and compares each with what is stored.
package struct RelationalStorePlan {
    package let drafts: [RelationalRowDraft]
    package let upserts: [RelationalRowDraft]
    /// Keys of rows to delete, with what the database holds of them.
    package let deletes: [(key: String, row: RelationalStoredRow)]

    package init(model: Model, tables: RelationalTables, stored: RelationalStoredRows) throws {
        var writer = RelationalRowWriter(tables: tables, stored: stored)
        var full = model.wholeDirty || stored.isEmpty
        if !full {
            let units = model.dirtyUnits.filter { $0.state == .managed && $0.model === model }
            let unitSet = Set(units.map(ObjectIdentifier.init))
            for unit in units {
                // A unit inside another dirty unit is derived with it.
                var p = unit.parent, covered = false
                while let x = p { if unitSet.contains(ObjectIdentifier(x)) { covered = true; break }; p = x.parent }
                if covered { continue }
                guard let id = unit.id, let s = stored[id] else { full = true; break }
                try writer.derive(unit, parent: s.parent?.text, field: s.field, position: s.position, mapKey: s.mapKey)
            }
        }
        var deletes: [(key: String, row: RelationalStoredRow)] = []
        if full {
            writer = RelationalRowWriter(tables: tables, stored: stored)
            try writer.derive(model.root, parent: nil, field: nil, position: nil, mapKey: nil)
            for key in stored.keys {
                let text = key.text
                if !writer.isDerived(text), let row = stored[key] { deletes.append((text, row)) }
            }
        } else {
            // Rows that hung under a re-derived row and are no longer anywhere in what was derived.
            var gone: [RelationalRowKey] = []
            for d in writer.drafts {
                guard let old = stored[d.key], !old.children.isEmpty else { continue }
                let now = Set(d.children.map(RelationalRowKey.init))
                for c in old.children where !now.contains(c) { gone.append(c) }
            }
            var seen: Set<RelationalRowKey> = []
            while let key = gone.popLast() {
                guard seen.insert(key).inserted, let row = stored[key] else { continue }
                gone.append(contentsOf: row.children)
                let text = key.text
                if !writer.isDerived(text) { deletes.append((text, row)) }
            }
        }
        drafts = writer.drafts
        upserts = drafts.filter { d in
            guard let s = stored[d.key] else { return true }
            return s.hash != d.hash || Int(s.table) != d.table
        }
        self.deletes = deletes
    }

    /// What the database holds after the plan was committed.
    package func apply(to stored: inout RelationalStoredRows) {
        for (key, _) in deletes { stored[key] = nil }
        for d in drafts {
            stored[d.key] = RelationalStoredRow(table: Int32(d.table), position: d.position, hash: d.hash,
                                            parent: d.parent.map(RelationalRowKey.init), field: d.field, mapKey: d.mapKey,
                                            children: d.children.map(RelationalRowKey.init))
        }
    }
}
