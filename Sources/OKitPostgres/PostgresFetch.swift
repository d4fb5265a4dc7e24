import Foundation
import NIOCore
import OKitEngine
import PostgresNIO

/// The `FETCH`es of a load's cursor (`okit_read`) on one table (issue 39, `pg_join`): each part is asked for
/// before the one before it is read into entities, so the database and the connection's event loop make the next
/// part while the engine's thread reads this one — a join kept one core waiting for each part, then the other.
struct PostgresFetch {
    let table: Int
    /// The table's name (for the message of a row too large to read).
    let name: String
    let columns: Int
    /// How many rows one `FETCH` brings (`PostgresStorage.fetchRows`).
    let rows: Int
    /// Whether each row comes as one record (`PostgresRecordRow`) rather than a cell per column.
    let records: Bool
    /// The most bytes of text and blobs one batch holds (`PostgresStorage.batchBytes`).
    let limit: Int
    /// The database as messages show it.
    let shown: String

    /// Sends `FETCH` for the next `rows` rows of `okit_read`; the rows come in the future.
    func send(_ link: PostgresLink) throws -> EventLoopFuture<PostgresQueryResult> {
        try link.send("FETCH \(rows) FROM okit_read")
    }

    /// A part's rows in batches for `RelationalRowReader.readBatch`: all in one, or (a part of large `bytea`
    /// values) in several, each under `limit`; a row alone past it is refused (its message names the table).
    func batches(_ part: [PostgresRow]) throws -> [RelationalRowBatch] {
        var batches: [RelationalRowBatch] = []
        var from = 0
        while from < part.count {
            let batch = RelationalRowBatch()
            batch.reset(table: table, columns: columns)
            do {
                from += try batch.fill(part[from...], records: records, limit: limit) { size in
                    StorageError(kind: .io, path: shown, message: "a row of table \(name) holds \(size >> 20) MiB of text and binary values, more than okit reads in one row (\(limit >> 20) MiB); keep large files outside the row (nothing was changed)")
                }
            } catch let e as PostgresRecordRow.Unreadable {
                throw StorageError(kind: .io, path: shown, message: "a row of table \(name) could not be read: \(e.why) (nothing was changed)")
            }
            batches.append(batch)
        }
        return batches
    }
}
