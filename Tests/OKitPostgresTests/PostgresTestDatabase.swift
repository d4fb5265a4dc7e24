import Foundation
import OKitTestSupport

/// A fresh database for one test, on the test run's throwaway PostgreSQL cluster (`PostgresCluster.shared()`:
/// started on first use, stopped when the tests end).
struct PostgresTestDatabase {
    let cluster: PostgresCluster
    let url: String
    let name: String
    var port: Int { Int(cluster.port) }

    static func make() throws -> PostgresTestDatabase {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        return PostgresTestDatabase(cluster: cluster, url: url, name: String(url.split(separator: "/").last ?? ""))
    }

    /// `psql -At` on this database, its output trimmed.
    func psql(_ sql: String) throws -> String {
        try cluster.psql(sql, database: name).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A loopback port nothing listens on (free a moment ago).
    static func freePort() throws -> Int { Int(try PostgresCluster.freePort()) }
}
