import Foundation

/// Reads a model's tables into entities (storage.md "SQLite models"): every row, typed by the schema, children
/// attached to their parents in position order, the root the row of the root's table without a parent. A value
/// of the wrong type is an error naming the database, table, row and column; columns and JSON members the schema
/// does not know are kept as the entity's unknown fields.
package struct RelationalRowReader {
    package let tables: RelationalTables
    package let engine: any ModelHost
    package let path: String
    /// The host's schema and ids, taken once: a reference column makes an entity per row with them.
    let schema: Schema
    let ids: IdGenerator
    /// The schema version the model was stored with: below the app's, a value of another type than its field
    /// declares is kept for the migrations (`Entity.keepMistyped`) instead of refused.
    package var storedVersion: Int?
    var keepsMistyped: Bool { storedVersion.map { engine.keepsMistyped(storedBy: $0) } ?? false }

    package init(tables: RelationalTables, engine: any ModelHost, path: String) {
        self.tables = tables
        self.engine = engine
        self.path = path
        schema = engine.schema
        ids = engine.ids
    }

    package struct Result {
        package let root: Entity
        package let stored: RelationalStoredRows
        package let count: Int
        /// Columns each table has that the schema does not know.
        package let unknownColumns: [Set<String>]
    }

    package func error(_ table: RelationalTable, _ key: String, _ column: String, _ text: String) -> StorageError {
        let row = table.keyColumn.map { "\($0) = \(key)" } ?? "okit_parent/okit_field/okit_position = \(key)"
        return StorageError(kind: .wrongType, path: path,
                            message: "table \(table.name), row \(row), column \(column): \(text)")
    }

    /// How many rows (by the tables' largest rowids) make a load read them on a second thread
    /// (`SQLiteRowPipe`); fewer are read here, one table after another (a thread costs more than it saves).
    package static let pipeRows = 20_000
    /// `pipeRows`, or another threshold (tests read small databases both ways).
    package var pipeThreshold = RelationalRowReader.pipeRows

    /// Links the rows read to their parents and attaches them from the root down (nil: no root row).
    package func finish(_ rows: inout RelationalReadRows, unknownColumns: [Set<String>]) throws -> Result? {
        rows.link(parentTables: tables.parentTables)
        guard let rootRow = rows.roots.first else { return nil }
        if rows.roots.count > 1 {
            throw StorageError(kind: .corrupt, path: path,
                               message: "table \(tables.tables[0].name) has \(rows.roots.count) rows without an okit_parent (\(rows.roots.prefix(3).map { rows.keys[Int($0)].text }.joined(separator: ", "))…): one of them is the model's root; give the others their okit_parent")
        }
        var count = 0
        attach(Int(rootRow), rows: &rows, count: &count)
        return Result(root: rows.entities.claim(Int(rootRow)), stored: RelationalStoredRows(loaded: rows), count: count,
                      unknownColumns: unknownColumns)
    }

    /// Reads every row of a batch (`RelationalRowBatch`) into entities of `rows`: `readRow` for each, made for the
    /// batch's columns here, beside it (an adapter's own loop over the rows would reach it unspecialized).
    package func readBatch(_ batch: RelationalRowBatch, _ table: RelationalTable, unknown: [String], rows: inout RelationalReadRows) throws {
        try batch.forEachRow { try readRow($0, batch.table, table, unknown: unknown, rows: &rows) }
    }

    /// Reads a row fetched as values (postgres) into an entity of `rows`: the written columns, then the unknown ones.
    package func readRow(values: [RelationalValue], _ ti: Int, _ table: RelationalTable, unknown: [String],
                         rows: inout RelationalReadRows) throws {
        try readRow(ArrayColumns(values: values), ti, table, unknown: unknown, rows: &rows)
    }

    /// Reads the current row of `columns` (the written columns, then the unknown ones) into an entity of
    /// `rows`. The link columns and scalar fields are read where SQLite keeps them (a UUID key or parent as its
    /// bits, a field name shared with the rows before); the row's hash is of the written columns as read.
    package func readRow<C: RowColumns>(_ columns: C, _ ti: Int, _ table: RelationalTable, unknown: [String],
                                rows: inout RelationalReadRows) throws {
        let type = table.type
        var hash = RelationalRowHash()
        let e = Entity(type: type, state: .managed)
        var k: Int32 = 0
        var key: RelationalRowKey = .text("")
        if table.hasKey {
            key = try readKey(columns, table, into: e, hash: &hash)
            k += 1
        }
        let (parent, field, position, mapKey) = readLinks(columns, at: k, rows: &rows, hash: &hash)
        k += 4
        if !table.hasKey { key = .text(RelationalTable.positionalKey(parent: parent?.text, field: field, position: position)) }
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
                try mistyped(columns.value(k), c, table, key: key, owner: e, "expected \(error.expected), found \(error.found)")
            }
            k += c.width
        }
        hash.add(columns.column(k))
        try readUnknownFields(columns, at: k, unknown: unknown, into: e, table, key: key)
        var needsDefaults = false
        for slot in 0..<type.fields.count where Self.needsDefault(e, slot: slot) {
            needsDefaults = true
            break
        }
        rows.append(entity: e, key: key, table: Int32(ti), field: field, position: position, mapKey: mapKey,
                    hash: hash.value, parent: parent, needsDefaults: needsDefaults)
    }

    /// The row's key (its first column) given to `e` as its id: a UUID as its bits, else the text (a whole number
    /// also raises the schema's serial of autoincrement ids).
    @inline(__always)
    private func readKey<C: RowColumns>(_ columns: C, _ table: RelationalTable, into e: Entity,
                                        hash: inout RelationalRowHash) throws -> RelationalRowKey {
        let c = columns.column(0)
        hash.add(c)
        let key: RelationalRowKey
        switch c.kind {
        case .text: key = RelationalRowKey(bytes: c.bytes)
        case .integer: key = .text(String(c.int))
        default:
            throw error(table, "rowid?", table.keyColumn ?? "", "expected the row's id as TEXT, found \(RelationalColumnValue.describe(columns.value(0))); give the row an id")
        }
        switch key {
        case .uuid(let hi, let lo): e.setId((hi, lo))
        case .text(let s):
            e.values[0] = .string(s)
            schema.noteId(s)
        }
        return key
    }

    /// The link columns at `k`: `okit_parent`, `okit_field`, `okit_position`, `okit_key` (a parent and a field
    /// name shared with the rows before, read where SQLite keeps them).
    @inline(__always)
    private func readLinks<C: RowColumns>(_ columns: C, at k: Int32, rows: inout RelationalReadRows, hash: inout RelationalRowHash)
        -> (parent: RelationalRowKey?, field: String?, position: Int?, mapKey: String?) {
        let parentColumn = columns.column(k), fieldColumn = columns.column(k + 1)
        let positionColumn = columns.column(k + 2), mapKeyColumn = columns.column(k + 3)
        hash.add(parentColumn)
        hash.add(fieldColumn)
        hash.add(positionColumn)
        hash.add(mapKeyColumn)
        let parent: RelationalRowKey?
        switch parentColumn.kind {
        case .text: parent = rows.parent(parentColumn.bytes)
        case .null: parent = nil
        default: parent = String.fromRelationalValue(columns.value(k)).map(RelationalRowKey.init)
        }
        let field: String?
        switch fieldColumn.kind {
        case .text: field = rows.field(fieldColumn.bytes)
        case .null: field = nil
        default: field = String.fromRelationalValue(columns.value(k + 1))
        }
        let position: Int?
        switch positionColumn.kind {
        case .integer: position = Int(positionColumn.int)
        case .null: position = nil
        default: position = Int64.fromRelationalValue(columns.value(k + 2)).map(Int.init)
        }
        let mapKey = mapKeyColumn.kind == .null ? nil : String.fromRelationalValue(columns.value(k + 3))
        return (parent, field, position, mapKey)
    }

    /// The fields the schema does not know, as `e`'s unknown fields: the columns after `okit_extra` (at `k`),
    /// then the members of `okit_extra`'s JSON object.
    @inline(__always)
    private func readUnknownFields<C: RowColumns>(_ columns: C, at k: Int32, unknown: [String], into e: Entity,
                                                  _ table: RelationalTable, key: RelationalRowKey) throws {
        let extra = columns.value(k)
        var at = k + 1
        for name in unknown {
            let v = columns.value(at)
            at += 1
            if let slot = table.type.slot(of: name) {
                // A declared field kept elsewhere now (a reference become an owned entity): its old column.
                if !v.isNull { try movedField(v, name: name, slot: slot, table, key: key, owner: e) }
                continue
            }
            if e.unknownFields == nil { e.unknownFields = [] }
            e.unknownFields?.append((name, Self.json(v)))
        }
        guard case .string(let text) = extra else { return }
        guard let members = Self.members(Array(text.utf8)) else {
            throw error(table, key.text, RelationalTable.extraColumn, "expected a JSON object of the fields this app does not know, found \(RelationalColumnValue.describe(extra))")
        }
        if e.unknownFields == nil { e.unknownFields = [] }
        e.unknownFields?.append(contentsOf: members)
    }

    /// A field's value from its column(s) at `k` (nil: NULL, the default applies). The common cases are read in
    /// place; the others through `RelationalColumnValue`, which also words a mismatch.
    @inline(__always)
    private func column<C: RowColumns>(_ columns: C, _ raw: RelationalRawColumn, _ k: Int32, _ c: RelationalTable.Reading,
                                       _ table: RelationalTable, owner e: Entity) throws(RelationalColumnValue.Mismatch) -> Value? {
        if raw.kind == .null, c.width == 1 { return nil }
        switch (c.mapping, raw.kind) {
        case (.string, .text): return .string(String(decoding: raw.bytes, as: UTF8.self))
        case (.int, .integer): return .int(Int(raw.int))
        case (.double, .real): return .double(raw.real)
        case (.double, .integer): return .double(Double(raw.int))
        case (.bool, .integer) where raw.int & ~1 == 0: return .bool(raw.int == 1)
        case (.date, .text):
            if let secs = ISODate.parse(bytes: raw.bytes, stored: true) { return .date(Date(timeIntervalSince1970: secs)) }
        case (.inlineBlob, _):
            let bytes = columns.value(k)
            switch bytes {
            case .null: return nil
            case .blob(let b): return try RelationalColumnValue.inline(Array(b), meta: columns.value(k + 1), table.columns[c.column].field.type, owner: e, slot: c.slot, engine: engine)
            default: throw RelationalColumnValue.Mismatch(expected: "a BLOB", found: RelationalColumnValue.describe(bytes))
            }
        case (.json, _), (.binaryMeta, _):
            return try RelationalColumnValue.jsonValue(columns.value(k), table.columns[c.column].field.type, c.mapping, owner: e, slot: c.slot, engine: engine)
        case (.ref, _):
            guard case .string(let target) = try RelationalColumnValue.scalar(columns.value(k), .ref), !target.isEmpty,
                  case .ref(let t) = table.columns[c.column].field.type else { return nil }
            let r = Entity(type: schema.refType(target: t), values: [.string(ids.next()), .string(target)], state: .managed)
            r.parent = e
            r.isContained = true
            return .entity(r)
        default: break
        }
        let v = try RelationalColumnValue.scalar(columns.value(k), c.mapping)
        return v.isNull ? nil : v
    }

    /// A column's value as JSON (an unknown column kept as an unknown field): BLOBs as base64 text.
    package static func json(_ v: RelationalValue) -> [UInt8] {
        var w = JSONWriter(capacity: 32)
        switch v {
        case .null: w.out.append(contentsOf: "null".utf8)
        case .int64(let i): w.int(Int(i))
        case .double(let x): w.value(.double(x))
        case .string(let s): w.string(s)
        case .blob(let b): w.string(b.base64EncodedString())
        }
        return w.bytes
    }

    /// The members of a JSON object, each value verbatim; nil when the text is not an object.
    package static func members(_ bytes: [UInt8]) -> [(key: String, json: [UInt8])]? {
        bytes.withUnsafeBufferPointer { buf -> [(key: String, json: [UInt8])]? in
            var r = JSONReader(bytes: buf)
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
