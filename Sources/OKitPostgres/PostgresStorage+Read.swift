import Foundation
import OKitEngine
import NIOCore
import PostgresNIO

extension PostgresStorage {
    /// How many rows one `FETCH` of a load brings: a table is read in parts of this many rows, each read into
    /// entities while the next is on its way, so that no table's rows are held whole as the database sent them.
    static let defaultFetchRows = 4096

    /// Reads the model's rows in one snapshot (`REPEATABLE READ`): each table through a cursor, a part at a time,
    /// straight into the reader's entities; the parts stay as the rows' bases (`PostgresBaseRows`).
    func readAll(rootType: EntityType, engine: any ModelHost) throws -> RelationalRowReader.Result? {
        guard let tables else { return nil }
        return try link.transaction("REPEATABLE READ") { () -> RelationalRowReader.Result? in
            try readModelsRow(rootType: rootType)
            caughtUpXmin = try snapshotXmin()
            let reader = RelationalRowReader(tables: tables, engine: engine, path: settings.shown)
            var rows = RelationalReadRows()
            var unknownColumns: [Set<String>] = []
            var loaded = PostgresBaseRows.Loaded()
            loaded.written = pgTables.map { $0.base.written.count }
            // The columns this start's registration read (a backup's reader, which registers nothing, reads them).
            let columns = try (startCatalog ?? PostgresCatalog.read(link, tables: pgTables)).tables.map(\.columns)
            startCatalog = nil
            existingColumns = columns.map { $0.map(\.name) }
            tablesReadAsRecords = []
            for (ti, t) in pgTables.enumerated() {
                let existing = existingColumns[ti]
                let unknown = t.unknownColumns(existing: existing)
                unknownColumns.append(Set(unknown))
                // Each row as one record when its columns' types allow (`PostgresRecordRow`), else cell by cell.
                let types = Dictionary(columns[ti].map { ($0.name, $0.type) }, uniquingKeysWith: { a, _ in a })
                let record = recordRows ? t.recordSelectList(existing: Set(existing), unknown: unknown, types: types) : nil
                let list = record ?? t.selectList(existing: Set(existing), unknown: unknown)
                if record != nil { tablesReadAsRecords.append(t.name) }
                let sql = "SELECT \(list) FROM \(t.q) WHERE \(PostgresTable.modelColumn) = $1 ORDER BY \(RelationalTable.positionColumn) NULLS FIRST, \(RelationalTable.quoted(t.keyColumnName))"
                try link.query("DECLARE okit_read NO SCROLL CURSOR FOR " + sql, [.text(modelName)])
                let fetch = PostgresFetch(table: ti, name: t.name, columns: t.base.written.count + unknown.count + 1, rows: fetchRows,
                                          records: record != nil, limit: batchBytes, shown: settings.shown)
                // The next part is asked for before this one is read into entities: the database and the
                // connection's thread make it while this thread reads (FETCHes run in order on the connection).
                var next: EventLoopFuture<PostgresQueryResult>? = try fetch.send(link)
                while let pending = next {
                    let part = try pending.wait().rows
                    next = part.count == fetchRows ? try fetch.send(link) : nil
                    for batch in try fetch.batches(part) {
                        loaded.starts.append(rows.count)
                        loaded.batches.append(batch)
                        try reader.readBatch(batch, t.base, unknown: unknown, rows: &rows)
                    }
                }
                try link.query("CLOSE okit_read")
            }
            self.tables?.setUnknownColumns(unknownColumns)
            let result = try reader.finish(&rows, unknownColumns: unknownColumns)
            loaded.keys = rows.keys
            loaded.index = rows.index
            base = PostgresBaseRows(loaded: loaded)
            return result
        }
    }

    /// The model's `okit_models` row: its type must be the app's; its schema version is kept.
    func readModelsRow(rootType: EntityType) throws {
        let info = try link.query("SELECT type, schema_version FROM \(PostgresTable.modelsTable) WHERE model = $1", [.text(modelName)])
        modelsRow = nil
        guard let row = info.rows.first else { return }
        let v = PostgresLink.values(row)
        if let type = String.fromRelationalValue(v[0]), type != rootType.name {
            throw StorageError(kind: .wrongType, path: settings.shown, message: "model \"\(modelName)\" in this database is a \(type) model, not the \(rootType.name) this app declares")
        }
        storedSchemaVersion = Int64.fromRelationalValue(v[1]).map(Int.init)
        if let type = String.fromRelationalValue(v[0]), let sv = storedSchemaVersion { modelsRow = (type, sv) }
    }
}
