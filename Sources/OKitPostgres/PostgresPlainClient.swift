import Foundation
import OKitEngine
import PostgresNIO

/// A plain SQL client on one connection, without okit's storage: `okit-run bench` measures what the database
/// itself takes (`pg_update_per_s_N`: clients doing `UPDATE …` of one row, committed) beside okit's stores.
public final class PostgresPlainClient {
    let link: PostgresLink

    /// Connects to the database a `postgres://` URL names.
    public init(url: String) throws {
        link = PostgresLink(settings: try PostgresSettings.parse(url))
        _ = try link.open()
    }

    /// Runs one statement on its own (committed when it returns) with text parameters `$1…`; returns how many
    /// rows it affected.
    @discardableResult
    public func run(_ sql: String, _ parameters: [String] = []) throws -> Int {
        try link.query(sql, parameters.map { .text($0) }).metadata.rows ?? 0
    }

    /// The first column of every row a query returns, as text.
    public func texts(_ sql: String, _ parameters: [String] = []) throws -> [String] {
        try link.query(sql, parameters.map { .text($0) }).rows.compactMap { String.fromRelationalValue(PostgresLink.values($0)[0]) }
    }

    public func close() { link.close() }
}
