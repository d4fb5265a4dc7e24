/// One entity type as a table (storage.md "SQLite models"): its key column, the `okit_*` link columns, a column
/// per scalar, ref, JSON or binary field, and the fields kept as child rows of other tables.
package struct RelationalTable {
    /// How a field is kept.
    package enum Mapping {
        case string, int, double, bool, date
        /// A `ref`: the target's id.
        case ref
        /// Arrays, sets and maps of scalars, refs or binaries: one JSON TEXT column.
        case json
        /// `data` and `image` metadata as JSON TEXT (the bytes are side files, as for file models).
        case binaryMeta
        /// `inlineData` and `inlineImage`: the bytes as a BLOB, their format and label in `<field>_okit_meta`.
        case inlineBlob
        /// An owned entity or an owned collection: rows of the child's table.
        case children(table: Int)
    }

    package struct Column {
        package let slot: Int
        package let name: String
        package let mapping: Mapping
        package let field: FieldSpec

        /// How many written columns the field takes (inline bytes have their metadata beside them).
        package var width: Int { if case .inlineBlob = mapping { return 2 } else { return 1 } }
    }

    /// The key of a row of a type without ids: where it hangs (the row has no key column of its own).
    package static func positionalKey(parent: String?, field: String?, position: Int?) -> String {
        "\(parent ?? "")/\(field ?? "")/\(position ?? 0)"
    }

    package static let parentColumn = "okit_parent"
    package static let fieldColumn = "okit_field"
    package static let positionColumn = "okit_position"
    package static let mapKeyColumn = "okit_key"
    package static let extraColumn = "okit_extra"
    package static let inlineMetaSuffix = "_okit_meta"

    package let type: EntityType
    package let name: String
    /// The primary key column (nil for types declared `{ id = false }`: keyed by parent, field, position).
    package let keyColumn: String?
    /// Whether the table has a key column (read for every row, without copying the name).
    package let hasKey: Bool
    package let autoIncrement: Bool
    /// The stored fields other than the id, by slot order.
    package let columns: [Column]
    /// Every column okit writes, in the order of a row's values: key, links, fields (and inline metadata), extra.
    package let written: [String]
    /// `columns` as a load reads them, without the references a `Column` holds (copying a `Column` retained its
    /// strings and field spec, for every column of every row read).
    package let reading: [Reading]

    /// A column as a load reads it: where in `columns` it is, its slot, how it is kept, how many columns it takes.
    package struct Reading {
        package let column: Int
        package let slot: Int
        package let mapping: Mapping
        package let width: Int32
    }

    /// Columns the table has that the schema does not know (read into unknown fields, never written).
    package var unknownColumns: Set<String> = []

    package init(type: EntityType, tableIndex: (String) -> Int) {
        self.type = type
        name = type.tableMapping.table ?? type.name
        keyColumn = type.hasId ? (type.tableMapping.primaryKey ?? "id") : nil
        hasKey = type.hasId
        autoIncrement = type.hasId && type.tableMapping.autoIncrement
        var cols: [Column] = []
        var written: [String] = keyColumn.map { [$0] } ?? []
        written += [Self.parentColumn, Self.fieldColumn, Self.positionColumn, Self.mapKeyColumn]
        for (slot, f) in type.fields.enumerated() where !(slot == 0 && type.hasId) {
            let mapping = Self.mapping(of: f.type, tableIndex: tableIndex)
            cols.append(Column(slot: slot, name: f.name, mapping: mapping, field: f))
            switch mapping {
            case .children: break
            case .inlineBlob: written += [f.name, f.name + Self.inlineMetaSuffix]
            default: written.append(f.name)
            }
        }
        written.append(Self.extraColumn)
        columns = cols
        self.written = written
        reading = cols.enumerated().map { Reading(column: $0.offset, slot: $0.element.slot, mapping: $0.element.mapping, width: Int32($0.element.width)) }
    }

    package static func mapping(of t: FieldType, tableIndex: (String) -> Int) -> Mapping {
        switch t {
        case .string: return .string
        case .int: return .int
        case .double: return .double
        case .bool: return .bool
        case .date: return .date
        case .ref: return .ref
        case .data, .image: return .binaryMeta
        case .inlineData, .inlineImage: return .inlineBlob
        case .entity(let n): return .children(table: tableIndex(n))
        case .array(let el), .set(let el), .map(let el):
            if case .entity(let n) = el { return .children(table: tableIndex(n)) }
            return .json
        }
    }

    package static func quoted(_ name: String) -> String {
        // A name without a quote (every name okit makes) needs no search-and-replace through Foundation.
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The declared default as an SQL literal (`ALTER TABLE … ADD COLUMN … DEFAULT …`), for scalars.
    package static func defaultLiteral(_ c: Column) -> String? {
        if c.field.optional && c.field.defaultValue == nil { return nil }
        let d = c.field.defaultValue
        switch (c.mapping, d) {
        case (.string, .string(let s)?): return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case (.string, nil): return "''"
        case (.int, .int(let i)?): return String(i)
        case (.int, nil), (.bool, nil): return "0"
        case (.double, .double(let x)?) where x.isFinite: return "\(x)"
        case (.double, .int(let i)?): return "\(Double(i))"
        case (.double, nil): return "0.0"
        case (.bool, .bool(let b)?): return b ? "1" : "0"
        default: return nil
        }
    }
}

/// The tables of one model: every entity type reachable from the root through owned fields.
package struct RelationalTables {
    package var tables: [RelationalTable] = []
    private var indexByType: [String: Int] = [:]

    package init(rootType: EntityType, schema: Schema) {
        var order: [EntityType] = []
        var seen: Set<String> = []
        func visit(_ t: EntityType) {
            guard seen.insert(t.name).inserted else { return }
            order.append(t)
            for f in t.fields {
                var ft = f.type
                if let el = ft.elementType { ft = el }
                if case .entity(let n) = ft, let child = schema.type(named: n) { visit(child) }
            }
        }
        visit(rootType)
        for (k, t) in order.enumerated() { indexByType[t.name] = k }
        let index = indexByType
        tables = order.map { RelationalTable(type: $0, tableIndex: { index[$0] ?? 0 }) }
    }

    package func index(of type: EntityType) -> Int? { indexByType[type.name] }

    /// For each table, whether its rows can have child rows (a field kept as rows of another table).
    package var parentTables: [Bool] {
        tables.map { $0.columns.contains { if case .children = $0.mapping { true } else { false } } }
    }
}

extension RelationalTables {
    /// Sets the columns each table has that the schema does not know (as a load found them).
    package mutating func setUnknownColumns(_ columns: [Set<String>]) {
        for i in tables.indices { tables[i].unknownColumns = i < columns.count ? columns[i] : [] }
    }
}
