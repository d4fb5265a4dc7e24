import Foundation
import GRDB
import GRDBSQLite

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

    /// How many rows (by the tables' largest rowids) make a load read them on a second thread
    /// (`SQLiteRowPipe`); fewer are read here, one table after another (a thread costs more than it saves).
    static let pipeRows = 20_000
    /// `pipeRows`, or another threshold (tests read small databases both ways).
    var pipeThreshold = SQLiteRowReader.pipeRows

    func read(_ db: Database) throws -> Result? {
        var rows = SQLiteReadRows()
        var unknownColumns: [Set<String>] = []
        var plans: [(table: Int, unknown: [String], statement: Statement, sql: String)] = []
        var estimate = 0
        for (ti, table) in tables.tables.enumerated() {
            let existing = try SQLiteTable.columnNames(db, table: table.name)
            let unknown = existing.filter { !table.written.contains($0) }
            unknownColumns.append(Set(unknown))
            if existing.isEmpty { continue }
            // The columns okit writes (NULL for those the table lacks yet), then the unknown ones.
            let known = Set(existing)
            let selected = table.written.map { known.contains($0) ? SQLiteTable.quoted($0) : "NULL" } + unknown.map(SQLiteTable.quoted)
            let sql = "SELECT \(selected.joined(separator: ", ")) FROM \(SQLiteTable.quoted(table.name)) ORDER BY rowid"
            plans.append((ti, unknown, try db.makeStatement(sql: sql), sql))
            // Room for the rows, by the largest rowid (found in the b-tree, not counted; bounded, for a table
            // whose rowids were set far apart).
            estimate += min(max(try Int.fetchOne(db, sql: "SELECT max(rowid) FROM \(SQLiteTable.quoted(table.name))") ?? 0, 0), 1 << 22)
        }
        rows.reserve(estimate)
        if estimate >= pipeThreshold {
            try withExtendedLifetime(plans) {
                let pipe = SQLiteRowPipe(statements: plans.map { ($0.table, $0.statement.sqliteStatement, tables.tables[$0.table].written.count + $0.unknown.count, $0.sql) },
                                         connection: db.sqliteConnection)
                pipe.start()
                defer { pipe.finish() }
                var plan = 0
                while let batch = try pipe.next() {
                    while plans[plan].table != batch.table { plan += 1 }
                    let table = tables.tables[batch.table], unknown = plans[plan].unknown
                    try batch.forEachRow { try readRow($0, batch.table, table, unknown: unknown, rows: &rows) }
                    pipe.recycle(batch)
                }
            }
        } else {
            for p in plans {
                try readTable(db, p.table, tables.tables[p.table], p.statement, sql: p.sql, unknown: p.unknown, rows: &rows)
            }
        }
        return try finish(&rows, unknownColumns: unknownColumns)
    }

    /// Links the rows read to their parents and attaches them from the root down (nil: no root row).
    func finish(_ rows: inout SQLiteReadRows, unknownColumns: [Set<String>]) throws -> Result? {
        rows.link(parentTables: tables.parentTables)
        guard let rootRow = rows.roots.first else { return nil }
        if rows.roots.count > 1 {
            throw StorageError(kind: .corrupt, path: path,
                               message: "table \(tables.tables[0].name) has \(rows.roots.count) rows without an okit_parent (\(rows.roots.prefix(3).map { rows.keys[Int($0)].text }.joined(separator: ", "))…): one of them is the model's root; give the others their okit_parent")
        }
        var count = 0
        attach(Int(rootRow), rows: &rows, count: &count)
        return Result(root: rows.entities.claim(Int(rootRow)), stored: SQLiteStoredRows(loaded: rows), count: count,
                      unknownColumns: unknownColumns)
    }

    private func readTable(_ db: Database, _ ti: Int, _ table: SQLiteTable, _ statement: Statement, sql: String, unknown: [String],
                           rows: inout SQLiteReadRows) throws {
        // Each column straight from the statement (GRDB's generic per-column decoding was a tenth of a load),
        // stepped here, not through a GRDB cursor (its machinery per row was a twentieth of a load).
        let st = statement.sqliteStatement
        let columns = SQLiteStatementColumns(statement: st)
        while true {
            let code = sqlite3_step(st)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
            }
            try readRow(columns, ti, table, unknown: unknown, rows: &rows)
        }
    }

    /// Reads the current row of `columns` (the written columns, then the unknown ones) into an entity of
    /// `rows`. The link columns and scalar fields are read where SQLite keeps them (a UUID key or parent as its
    /// bits, a field name shared with the rows before); the row's hash is of the written columns as read.
    func readRow<C: RowColumns>(_ columns: C, _ ti: Int, _ table: SQLiteTable, unknown: [String],
                                rows: inout SQLiteReadRows) throws {
        let type = table.type
        var hash = SQLiteRowHash()
        let e = Entity(type: type, state: .managed)
        var k: Int32 = 0
        var key: SQLiteRowKey = .text("")
        if table.hasKey {
            let c = columns.column(k)
            hash.add(c)
            switch c.kind {
            case .text: key = SQLiteRowKey(bytes: c.bytes)
            case .integer: key = .text(String(c.int))
            default:
                throw error(table, "rowid?", table.keyColumn ?? "", "expected the row's id as TEXT, found \(SQLiteColumnValue.describe(columns.value(k))); give the row an id")
            }
            switch key {
            case .uuid(let hi, let lo): e.setId((hi, lo))
            case .text(let s):
                e.values[0] = .string(s)
                if table.autoIncrement, let n = Int(s), n > type.lastSerial { type.lastSerial = n }
            }
            k += 1
        }
        // okit_parent, okit_field, okit_position, okit_key.
        let parentColumn = columns.column(k), fieldColumn = columns.column(k + 1)
        let positionColumn = columns.column(k + 2), mapKeyColumn = columns.column(k + 3)
        hash.add(parentColumn)
        hash.add(fieldColumn)
        hash.add(positionColumn)
        hash.add(mapKeyColumn)
        let parent: SQLiteRowKey?
        switch parentColumn.kind {
        case .text: parent = rows.parent(parentColumn.bytes)
        case .null: parent = nil
        default: parent = String.fromDatabaseValue(columns.value(k)).map(SQLiteRowKey.init)
        }
        let field: String?
        switch fieldColumn.kind {
        case .text: field = rows.field(fieldColumn.bytes)
        case .null: field = nil
        default: field = String.fromDatabaseValue(columns.value(k + 1))
        }
        let position: Int?
        switch positionColumn.kind {
        case .integer: position = Int(positionColumn.int)
        case .null: position = nil
        default: position = Int64.fromDatabaseValue(columns.value(k + 2)).map(Int.init)
        }
        let mapKey = mapKeyColumn.kind == .null ? nil : String.fromDatabaseValue(columns.value(k + 3))
        k += 4
        if !table.hasKey { key = .text(SQLiteTable.positionalKey(parent: parent?.text, field: field, position: position)) }
        for c in table.reading {
            if case .children = c.mapping {
                let f = table.columns[c.column].field
                if let el = f.type.elementType {
                    let kind: EntityCollection.Kind
                    switch f.type { case .set: kind = .set; case .map: kind = .map; default: kind = .array }
                    e.values[c.slot] = .collection(EntityCollection(kind: kind, elementType: el, owner: e, slot: c.slot))
                }
                continue
            }
            let raw = columns.column(k)
            hash.add(raw)
            if c.width > 1 { for w in 1..<c.width { hash.add(columns.column(k + w)) } }
            do {
                if let v = try column(columns, raw, k, c, table, owner: e) { e.values[c.slot] = v }
            } catch {
                throw self.error(table, key.text, table.columns[c.column].name, "expected \(error.expected), found \(error.found)")
            }
            k += c.width
        }
        hash.add(columns.column(k))
        let extra = columns.value(k)
        k += 1
        for name in unknown {
            let v = columns.value(k)
            k += 1
            if e.unknownFields == nil { e.unknownFields = [] }
            e.unknownFields?.append((name, Self.json(v)))
        }
        if case .string(let text) = extra.storage {
            guard let members = Self.members(Array(text.utf8), engine: engine) else {
                throw error(table, key.text, SQLiteTable.extraColumn, "expected a JSON object of the fields this app does not know, found \(SQLiteColumnValue.describe(extra))")
            }
            if e.unknownFields == nil { e.unknownFields = [] }
            e.unknownFields?.append(contentsOf: members)
        }
        var needsDefaults = false
        for slot in 0..<type.fields.count where !type.optionals[slot] && e.slotIsNull(slot) && !(slot == 0 && type.hasId) {
            needsDefaults = true
            break
        }
        rows.append(entity: e, key: key, table: Int32(ti), field: field, position: position, mapKey: mapKey,
                    hash: hash.value, parent: parent, needsDefaults: needsDefaults)
    }

    /// A field's value from its column(s) at `k` (nil: NULL, the default applies). The common cases are read in
    /// place; the others through `SQLiteColumnValue`, which also words a mismatch.
    @inline(__always)
    private func column<C: RowColumns>(_ columns: C, _ raw: SQLiteRawColumn, _ k: Int32, _ c: SQLiteTable.Reading,
                                       _ table: SQLiteTable, owner e: Entity) throws(SQLiteColumnValue.Mismatch) -> Value? {
        if raw.kind == .null, c.width == 1 { return nil }
        switch (c.mapping, raw.kind) {
        case (.string, .text): return .string(String(decoding: raw.bytes, as: UTF8.self))
        case (.int, .integer): return .int(Int(raw.int))
        case (.double, .real): return .double(raw.real)
        case (.double, .integer): return .double(Double(raw.int))
        case (.bool, .integer) where raw.int & ~1 == 0: return .bool(raw.int == 1)
        case (.date, .text):
            if let secs = ISODate.parse(bytes: raw.bytes) { return .date(Date(timeIntervalSince1970: secs)) }
        case (.inlineBlob, _):
            let bytes = columns.value(k)
            switch bytes.storage {
            case .null: return nil
            case .blob(let b): return try SQLiteColumnValue.inline(Array(b), meta: columns.value(k + 1), table.columns[c.column].field.type, owner: e, slot: c.slot, engine: engine)
            default: throw SQLiteColumnValue.Mismatch(expected: "a BLOB", found: SQLiteColumnValue.describe(bytes))
            }
        case (.json, _), (.binaryMeta, _):
            return try SQLiteColumnValue.jsonValue(columns.value(k), table.columns[c.column].field.type, c.mapping, owner: e, slot: c.slot, engine: engine)
        case (.ref, _):
            guard case .string(let target) = try SQLiteColumnValue.scalar(columns.value(k), .ref), !target.isEmpty,
                  case .ref(let t) = table.columns[c.column].field.type else { return nil }
            let r = Entity(type: engine.schema.refType(target: t), values: [.string(engine.ids.next()), .string(target)], state: .managed)
            r.parent = e
            r.isContained = true
            return .entity(r)
        default: break
        }
        let v = try SQLiteColumnValue.scalar(columns.value(k), c.mapping)
        return v.isNull ? nil : v
    }

    /// A field kept as child rows: its slot, its name (the rows' `okit_field`) and the children's table.
    private struct ChildColumn {
        let slot: Int
        let name: String
        let table: Int32
    }

    /// Attaches the rows under row `i` (and under those, down the tree) to their entities, in position order,
    /// recording each attached row's children (`childStart`, `childEnd`, `childList`); then fills the defaults of
    /// fields their rows left NULL. Returns the rows attached, `i` first.
    @discardableResult
    func attach(_ i: Int, rows: inout SQLiteReadRows, count: inout Int) -> [Int32] {
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
                    let level = e.level &+ 1
                    switch e.values[c.slot] {
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
                        e.values[c.slot] = .entity(consume ce)
                        under.removeSubrange(1...)
                    }
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

    /// Defaults for fields that are not optional and were NULL (or had no child row), as for a missing field in
    /// a model file.
    private func fillDefaults(_ e: Entity) {
        let type = e.type
        for slot in 0..<type.fields.count where e.slotIsNull(slot) && !type.optionals[slot] {
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
