import Foundation
import GRDB

/// Reads a model's tables into entities (storage.md "SQLite models"): every row, typed by the schema, children
/// attached to their parents in position order, the root the row of the root's table without a parent. A value
/// of the wrong type is an error naming the database, table, row and column; columns and JSON members the schema
/// does not know are kept as the entity's unknown fields.
struct SQLiteRowReader {
    let tables: SQLiteTables
    let engine: Engine
    let path: String

    struct Result {
        let root: Entity
        let stored: SQLiteStoredRows
        let count: Int
        /// Columns each table has that the schema does not know.
        let unknownColumns: [Set<String>]
    }

    func error(_ table: SQLiteTable, _ key: String, _ column: String, _ text: String) -> StorageError {
        let row = table.keyColumn.map { "\($0) = \(key)" } ?? "okit_parent/okit_field/okit_position = \(key)"
        return StorageError(kind: .wrongType, path: path,
                            message: "table \(table.name), row \(row), column \(column): \(text)")
    }

    func read(_ db: Database) throws -> Result? {
        var rows = SQLiteReadRows()
        var unknownColumns: [Set<String>] = []
        for (ti, table) in tables.tables.enumerated() {
            let existing = try SQLiteTable.columnNames(db, table: table.name)
            let unknown = existing.filter { !table.written.contains($0) }
            unknownColumns.append(Set(unknown))
            if existing.isEmpty { continue }
            try readTable(db, ti, table, existing: Set(existing), unknown: unknown, rows: &rows)
        }
        return try finish(&rows, unknownColumns: unknownColumns)
    }

    /// Links the rows read to their parents and attaches them from the root down (nil: no root row).
    func finish(_ rows: inout SQLiteReadRows, unknownColumns: [Set<String>]) throws -> Result? {
        rows.link(parentTables: tables.parentTables)
        guard let rootRow = rows.roots.first else { return nil }
        if rows.roots.count > 1 {
            throw StorageError(kind: .corrupt, path: path,
                               message: "table \(tables.tables[0].name) has \(rows.roots.count) rows without an okit_parent (\(rows.roots.prefix(3).map { rows.keys[Int($0)] }.joined(separator: ", "))…): one of them is the model's root; give the others their okit_parent")
        }
        var stored: SQLiteStoredRows = [:]
        stored.reserveCapacity(rows.count)
        var count = 0
        try attach(Int(rootRow), rows: rows, stored: &stored, count: &count)
        return Result(root: rows.entities[Int(rootRow)], stored: stored, count: count, unknownColumns: unknownColumns)
    }

    private func readTable(_ db: Database, _ ti: Int, _ table: SQLiteTable, existing: Set<String>, unknown: [String],
                           rows: inout SQLiteReadRows) throws {
        // The columns okit writes (NULL for those the table lacks yet), then the unknown ones.
        let selected = table.written.map { existing.contains($0) ? SQLiteTable.quoted($0) : "NULL" } + unknown.map(SQLiteTable.quoted)
        let sql = "SELECT \(selected.joined(separator: ", ")) FROM \(SQLiteTable.quoted(table.name)) ORDER BY rowid"
        // Each column straight from the statement (GRDB's generic per-column decoding was a tenth of a load).
        let statement = try db.makeStatement(sql: sql)
        let st = statement.sqliteStatement
        let cursor = try Row.fetchCursor(statement)
        while try cursor.next() != nil {
            try readRow(SQLiteStatementColumns(statement: st), ti, table, unknown: unknown, rows: &rows)
        }
    }

    /// Reads the current row of `columns` (the written columns, then the unknown ones) into an entity of
    /// `rows`.
    func readRow<C: RowColumns>(_ columns: C, _ ti: Int, _ table: SQLiteTable, unknown: [String],
                                rows: inout SQLiteReadRows) throws {
        let type = table.type
        let fieldCount = type.fields.count
        let writtenCount = table.written.count
        var k: Int32 = 0
        var hasher = Hasher()
        func next() -> DatabaseValue {
            let v = columns.value(k)
            if Int(k) < writtenCount { hasher.combine(v) }
            k += 1
            return v
        }
        let e = Entity(type: type, values: ContiguousArray(repeating: .null, count: fieldCount), state: .managed)
        var key = ""
        if let keyColumn = table.keyColumn {
            let kv = next()
            switch kv.storage {
            case .string(let s): key = s
            case .int64(let i): key = String(i)
            default:
                throw error(table, "rowid?", keyColumn, "expected the row's id as TEXT, found \(SQLiteColumnValue.describe(kv)); give the row an id")
            }
            e.values[0] = .string(key)
            if table.autoIncrement, let n = Int(key), n > type.lastSerial { type.lastSerial = n }
        }
        let parentValue = next(), fieldValue = next(), positionValue = next(), mapKeyValue = next()
        let parent = String.fromDatabaseValue(parentValue)
        let field = String.fromDatabaseValue(fieldValue)
        let position = Int64.fromDatabaseValue(positionValue).map(Int.init)
        let mapKey = String.fromDatabaseValue(mapKeyValue)
        if table.keyColumn == nil { key = SQLiteTable.positionalKey(parent: parent, field: field, position: position) }
        for c in table.columns {
            switch c.mapping {
            case .children:
                if let el = c.field.type.elementType {
                    let kind: EntityCollection.Kind
                    switch c.field.type { case .set: kind = .set; case .map: kind = .map; default: kind = .array }
                    e.values[c.slot] = .collection(EntityCollection(kind: kind, elementType: el, owner: e, slot: c.slot))
                }
            case .inlineBlob:
                let bytes = next(), meta = next()
                switch bytes.storage {
                case .null: break
                case .blob(let b):
                    do { e.values[c.slot] = try SQLiteColumnValue.inline(Array(b), meta: meta, c.field.type, owner: e, slot: c.slot, engine: engine) } catch {
                        throw self.error(table, key, c.name, "expected \(error.expected), found \(error.found)")
                    }
                default:
                    throw error(table, key, c.name, "expected a BLOB, found \(SQLiteColumnValue.describe(bytes))")
                }
            case .json, .binaryMeta:
                let v = next()
                do { e.values[c.slot] = try SQLiteColumnValue.jsonValue(v, c.field.type, c.mapping, owner: e, slot: c.slot, engine: engine) } catch {
                    throw self.error(table, key, c.name, "expected \(error.expected), found \(error.found)")
                }
            case .ref:
                let v = next()
                do {
                    if case .string(let target) = try SQLiteColumnValue.scalar(v, .ref), !target.isEmpty,
                       case .ref(let t) = c.field.type {
                        let r = Entity(type: engine.schema.refType(target: t), values: [.string(engine.ids.next()), .string(target)], state: .managed)
                        r.parent = e
                        r.isContained = true
                        e.values[c.slot] = .entity(r)
                    }
                } catch {
                    throw self.error(table, key, c.name, "expected \(error.expected), found \(error.found)")
                }
            default:
                let v = next()
                do { e.values[c.slot] = try SQLiteColumnValue.scalar(v, c.mapping) } catch {
                    throw self.error(table, key, c.name, "expected \(error.expected), found \(error.found)")
                }
            }
        }
        let extra = next()
        for name in unknown {
            let v = columns.value(k)
            k += 1
            if e.unknownFields == nil { e.unknownFields = [] }
            e.unknownFields?.append((name, Self.json(v)))
        }
        if case .string(let text) = extra.storage {
            guard let members = Self.members(Array(text.utf8), engine: engine) else {
                throw error(table, key, SQLiteTable.extraColumn, "expected a JSON object of the fields this app does not know, found \(SQLiteColumnValue.describe(extra))")
            }
            if e.unknownFields == nil { e.unknownFields = [] }
            e.unknownFields?.append(contentsOf: members)
        }
        rows.append(entity: e, key: key, table: Int32(ti), field: field, position: position, mapKey: mapKey,
                    hash: hasher.finalize(), parent: parent)
    }

    /// Attaches the rows under row `i` to its entity, in position order, and records what is stored; then fills
    /// the defaults of fields the row left NULL.
    func attach(_ i: Int, rows: SQLiteReadRows, stored: inout SQLiteStoredRows, count: inout Int) throws {
        let e = rows.entities[i]
        count += 1
        var childKeys: [String] = []
        let table = tables.tables[Int(rows.tables[i])]
        if rows.firstChild[i] >= 0 {
            var under: [Int32] = []
            for c in table.columns {
                guard case .children(let ct) = c.mapping else { continue }
                under.removeAll(keepingCapacity: true)
                var ordered = true
                var previous = Int.min
                var child = rows.firstChild[i]
                while child >= 0 {
                    let r = Int(child)
                    if Int(rows.tables[r]) == ct, rows.fields[r] == c.name {
                        under.append(child)
                        // Position order; rows without a position (written by another program) last, in table order.
                        if let p = rows.positions[r], p > previous { previous = p } else { ordered = false }
                    }
                    child = rows.next[r]
                }
                if under.isEmpty { continue }
                if !ordered { under = rows.positionOrder(under) }
                for r in under {
                    let ce = rows.entities[Int(r)]
                    ce.parent = e
                    ce.isContained = true
                    ce.level = e.level &+ 1
                }
                switch e.values[c.slot] {
                case .collection(let coll):
                    coll.items.reserveCapacity(under.count)
                    for r in under {
                        coll.items.append(.entity(rows.entities[Int(r)]))
                        if coll.kind == .map { coll.keys.append(rows.mapKeys[Int(r)] ?? rows.keys[Int(r)]) }
                    }
                default:
                    e.values[c.slot] = .entity(rows.entities[Int(under[0])])
                    under = [under[0]]
                }
                childKeys.reserveCapacity(childKeys.count + under.count)
                for r in under {
                    childKeys.append(rows.keys[Int(r)])
                    try attach(Int(r), rows: rows, stored: &stored, count: &count)
                }
            }
        }
        fillDefaults(e)
        stored[rows.keys[i]] = SQLiteStoredRow(table: rows.tables[i], position: rows.positions[i], hash: rows.hashes[i],
                                               parent: rows.parents[i], field: rows.fields[i], mapKey: rows.mapKeys[i],
                                               children: childKeys)
    }

    /// Defaults for fields that are not optional and were NULL (or had no child row), as for a missing field in
    /// a model file.
    private func fillDefaults(_ e: Entity) {
        let type = e.type
        for slot in 0..<type.fields.count where e.values[slot].isNull && !type.optionals[slot] {
            if slot == 0, type.hasId { continue }
            var creating: Set<ObjectIdentifier> = []
            if let v = try? engine.defaultValue(for: type.fields[slot], slot: slot, owner: e, creating: &creating) {
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

    /// A column's value as JSON (an unknown column kept as an unknown field): BLOBs as base64 text.
    static func json(_ v: DatabaseValue) -> [UInt8] {
        var w = JSONWriter(capacity: 32)
        switch v.storage {
        case .null: w.out.append(contentsOf: "null".utf8)
        case .int64(let i): w.int(Int(i))
        case .double(let x): w.value(.double(x))
        case .string(let s): w.string(s)
        case .blob(let b): w.string(b.base64EncodedString())
        }
        return w.bytes
    }

    /// The members of a JSON object, each value verbatim; nil when the text is not an object.
    static func members(_ bytes: [UInt8], engine: Engine) -> [(key: String, json: [UInt8])]? {
        bytes.withUnsafeBufferPointer { buf -> [(key: String, json: [UInt8])]? in
            var r = JSONReader(bytes: buf, engine: engine)
            guard (try? r.expect(0x7B, "{")) != nil else { return nil }
            var out: [(key: String, json: [UInt8])] = []
            r.skipSpace()
            if r.peek() == 0x7D { return out }
            while true {
                guard let key = try? r.string(), (try? r.expect(0x3A, ":")) != nil, let range = try? r.skipValue() else { return nil }
                out.append((key, Array(UnsafeBufferPointer(rebasing: buf[range]))))
                guard let c = r.peek() else { return nil }
                r.i += 1
                if c == 0x7D { return out }
                if c != 0x2C { return nil }
            }
        }
    }
}

/// The columns of the row being read: a statement's current row (sqlite) or the values fetched (postgres).
protocol RowColumns {
    func value(_ k: Int32) -> DatabaseValue
}

struct SQLiteStatementColumns: RowColumns {
    let statement: SQLiteStatement
    @inline(__always) func value(_ k: Int32) -> DatabaseValue { DatabaseValue(sqliteStatement: statement, index: k) }
}

struct ArrayColumns: RowColumns {
    let values: [DatabaseValue]
    @inline(__always) func value(_ k: Int32) -> DatabaseValue { Int(k) < values.count ? values[Int(k)] : .null }
}
