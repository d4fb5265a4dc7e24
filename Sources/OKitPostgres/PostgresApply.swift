import Foundation
import OKitEngine

/// Applies rows another process stored to the live model, as writes through the engine (so dependency tracking
/// marks stale exactly what read them), merging three-way against the values this process had read: a field only
/// the other side changed takes its value; a field only this process changed keeps it; a field both changed takes
/// the other side's value (it was stored first) and this process's value is reported. A deleted row removes its
/// entity; an edit of it here is reported. New rows are inserted where their position puts them.
struct PostgresApply {
    let storage: PostgresStorage
    let model: Model
    let engine: any ModelHost
    let tables: RelationalTables
    /// Set when a change cannot be applied row by row; the caller reloads the model.
    private(set) var needsReload = false
    private var reorder: Set<String> = []

    init(storage: PostgresStorage, model: Model, engine: any ModelHost, tables: RelationalTables) {
        self.storage = storage
        self.model = model
        self.engine = engine
        self.tables = tables
    }

    var reader: RelationalRowReader { RelationalRowReader(tables: tables, engine: engine, path: storage.settings.shown) }

    func live(_ key: String, table: Int) -> Entity? {
        guard tables.tables[table].keyColumn != nil, let e = engine.lookup(id: key, from: model), e.model === model else { return nil }
        return e
    }

    func unknownColumns(_ ti: Int) -> [String] { Array(tables.tables[ti].unknownColumns).sorted() }

    mutating func run(fetched: [String: PostgresFetchedRow], gone: [String]) throws {
        try engine.transaction {
            var inserts: [String] = []
            for (key, f) in fetched.sorted(by: { $0.key < $1.key }) {
                if let b = storage.base[key], b.version == f.version, b.table == f.table { continue }
                guard storage.stored[key] != nil else { inserts.append(key); continue }
                try update(key, f)
                if needsReload { return }
            }
            try insert(inserts, fetched: fetched)
            if needsReload { return }
            try remove(gone)
            if needsReload { return }
            for parent in reorder { try reorderChildren(of: parent) }
        }
    }

    // MARK: Updates

    private mutating func update(_ key: String, _ f: PostgresFetchedRow) throws {
        guard let s = storage.stored[key], let e = live(key, table: f.table) else { needsReload = true; return }
        let t = storage.pgTables[f.table]
        let linkStart = t.base.keyColumn == nil ? 0 : 1
        let parent = String.fromRelationalValue(f.written[linkStart])
        let field = String.fromRelationalValue(f.written[linkStart + 1])
        let position = Int64.fromRelationalValue(f.written[linkStart + 2]).map(Int.init)
        if parent != s.parent?.text || field != s.field || Int(s.table) != f.table { needsReload = true; return }
        let mine = try ownRow(e, s)
        let baseValues = storage.base[key]?.values ?? mine
        var scratch = RelationalReadRows()
        try reader.readRow(values: f.columns, f.table, t.base, unknown: unknownColumns(f.table), rows: &scratch)
        let fresh = scratch.entities[0]
        let columnOf = t.columnOfSlot
        for c in t.base.columns {
            guard let j = columnOf[c.slot] else { continue }
            let range = j..<(j + c.width)
            let b = Array(baseValues[range]), m = Array(mine[range]), th = Array(f.written[range])
            if th == b || m == th { continue }
            if m != b {
                storage.report(type: e.type.name, id: key, field: c.name, base: ConflictRecord.json(b.first, c.mapping),
                               theirs: ConflictRecord.json(th.first, c.mapping), mine: ConflictRecord.json(m.first, c.mapping))
            }
            try assign(e, c, fresh.values[c.slot])
        }
        if position != s.position, let parent { reorder.insert(parent) }
        // Put under another key of its map (the same entity, so its id and what refers to it stay).
        let mapKey = String.fromRelationalValue(f.written[linkStart + 3])
        if mapKey != s.mapKey {
            guard let mapKey, let pe = e.parent, let field, let slot = pe.type.slot(of: field),
                  case .collection(let coll) = pe.values[slot], coll.kind == .map,
                  let i = coll.items.firstIndex(where: { $0.entity === e }) else { needsReload = true; return }
            try engine.remove(at: i, from: coll)
            try engine.put(.entity(e), forKey: mapKey, in: coll)
            storage.stored[key]?.mapKey = mapKey
        }
        storage.base[key] = PostgresRowState(table: f.table, values: f.written, version: f.version)
        storage.stored[key]?.hash = RelationalStoredRow.hash(of: f.written)
        storage.stored[key]?.position = position
    }

    /// The row this process has now for a live entity (its own columns, not its children's rows).
    func ownRow(_ e: Entity, _ s: RelationalStoredRow) throws -> [RelationalValue] {
        var w = RelationalRowWriter(tables: tables, stored: storage.stored)
        w.shallow = true
        try w.derive(e, parent: s.parent?.text, field: s.field, position: s.position, mapKey: s.mapKey)
        return w.drafts.last?.values ?? []
    }

    /// Writes a value read from another process's row into a live entity's field.
    private func assign(_ e: Entity, _ c: RelationalTable.Column, _ value: Value) throws {
        var v = value
        if case .ref = c.field.type {
            if case .entity(let r) = value, r.values.count > 1 { v = r.values[1] } else { v = .null }
        } else if case .entity(let child) = value {
            Self.detach(child)
        }
        if v.isNull, !c.field.optional, !c.field.type.holdsEntity, !c.field.type.isCollection { return }
        try engine.set(e, c.name, v)
    }

    /// A subtree the reader made, made ready to be attached through the engine.
    static func detach(_ e: Entity) {
        e.parent = nil
        e.isContained = false
        func walk(_ x: Entity) {
            x.state = .detached
            x.forEachChild { walk($0) }
        }
        walk(e)
    }

    // MARK: Inserts

    private mutating func insert(_ keys: [String], fetched: [String: PostgresFetchedRow]) throws {
        if keys.isEmpty { return }
        // Another process stored first an entity with an id this process gave an entity it has not stored: a
        // second one would make every later store fail ("ids are unique"). The model is read again, this side's
        // entity going to the database first as a pending change (its fields that differ reported).
        for key in keys {
            guard let f = fetched[key], tables.tables[f.table].keyColumn != nil, let e = engine.lookup(id: key, from: model),
                  e.model === model else { continue }
            needsReload = true
            return
        }
        var rows = RelationalReadRows()
        for key in keys {
            guard let f = fetched[key] else { continue }
            try reader.readRow(values: f.columns, f.table, tables.tables[f.table], unknown: unknownColumns(f.table), rows: &rows)
        }
        rows.link(parentTables: tables.parentTables)
        let inserted = Set(rows.keys)
        for i in 0..<rows.count {
            guard let parentKey = rows.parents[i], !inserted.contains(parentKey) else {
                if rows.parents[i] == nil { needsReload = true; return }    // a second root
                continue
            }
            guard let ps = storage.stored[parentKey], let pe = live(parentKey.text, table: Int(ps.table)),
                  let field = rows.fields[i], let slot = pe.type.slot(of: field) else { needsReload = true; return }
            var count = 0
            let attached = reader.attach(i, rows: &rows, count: &count)
            let child = rows.entities[i]
            Self.detach(child)
            switch pe.values[slot] {
            case .collection(let coll):
                if coll.kind == .map {
                    try engine.put(.entity(child), forKey: rows.mapKeys[i] ?? rows.keys[i].text, in: coll)
                } else {
                    let p = rows.positions[i] ?? Int.max
                    let at = coll.items.firstIndex { item in
                        guard case .entity(let x) = item, let id = x.id, let sp = storage.stored[id]?.position else { return false }
                        return sp > p
                    } ?? coll.items.count
                    try engine.insert(.entity(child), into: coll, at: at, append: false)
                }
            default:
                try engine.set(pe, field, .entity(child))
            }
            for r in attached {
                let k = rows.keys[Int(r)]
                storage.stored[k] = rows.storedRow(Int(r))
                if let f = fetched[k.text] { storage.base[k.text] = PostgresRowState(table: f.table, values: f.written, version: f.version) }
            }
            storage.stored[parentKey]?.children.append(rows.keys[i])
        }
    }

    // MARK: Deletes

    private mutating func remove(_ keys: [String]) throws {
        let goneSet = Set(keys)
        for key in keys {
            guard let s = storage.stored[key] else { continue }
            if let p = s.parent, goneSet.contains(p.text) { forget(key); continue }
            guard let e = live(key, table: Int(s.table)) else { needsReload = true; return }
            // An edit here of what the other process deleted (of the entity or of what it owns, or an entity added
            // under it): the deletion wins, the edit is reported.
            var w = RelationalRowWriter(tables: tables, stored: storage.stored)
            try w.derive(e, parent: s.parent?.text, field: s.field, position: s.position, mapKey: s.mapKey)
            for d in w.drafts {
                let t = storage.pgTables[d.table]
                guard storage.stored[d.key] != nil else {
                    guard let added = w.entity(derivedAs: d.key), let p = added.parent else { continue }
                    storage.report(type: p.type.name, id: d.parent ?? "", field: d.field ?? "", base: "null", theirs: "null",
                                   mine: String(decoding: JSONWriter.entityJSON(added), as: UTF8.self), deletedThere: true)
                    continue
                }
                // Each field changed here is reported against the deletion (`theirs` null).
                if let b = storage.base[d.key] { _ = storage.mergeRow(base: b.values, theirs: nil, mine: d.values, table: t, key: d.key) }
            }
            if let pe = e.parent, let field = s.field, let slot = pe.type.slot(of: field) {
                if case .collection(let coll) = pe.values[slot] {
                    try engine.remove(.entity(e), from: coll, near: nil)
                } else {
                    try engine.set(pe, field, .null)
                }
            }
            forget(key)
        }
    }

    /// Drops a row and the rows under it from what this process knows is stored.
    private func forget(_ key: String) {
        guard let s = storage.stored.removeValue(forKey: key) else { return }
        storage.base[key] = nil
        let k = RelationalRowKey(key)
        if let p = s.parent { storage.stored[p]?.children.removeAll { $0 == k } }
        for c in s.children { forget(c.text) }
    }

    // MARK: Order

    /// Puts a parent's collections in the order of their rows' positions (another process moved a row).
    private func reorderChildren(of parentKey: String) throws {
        guard let ps = storage.stored[parentKey], let pe = live(parentKey, table: Int(ps.table)) else { return }
        for v in pe.values {
            guard case .collection(let coll) = v, coll.kind == .array else { continue }
            func pos(_ item: Value) -> Int {
                guard case .entity(let x) = item, let id = x.id, let p = storage.stored[id]?.position else { return Int.max }
                return p
            }
            let n = coll.items.count
            for i in 0..<n {
                var best = i
                for j in i..<n where pos(coll.items[j]) < pos(coll.items[best]) { best = j }
                if best != i { try engine.move(in: coll, from: best, to: i) }
            }
        }
    }
}
