import Foundation
import Testing
import OKitTestSupport

/// The throwaway PostgreSQL cluster the postgres tests run against (OKitTestSupport's PostgresCluster): a table made
/// through psql reads back; databases of one cluster are apart; the data outlives a restart and a crash on the same
/// port; stop removes the folder.
@Suite struct PostgresClusterTests {
    @Test(.enabled(if: PostgresCluster.isAvailable, Comment(rawValue: PostgresCluster.unavailable)))
    func aTableMadeThroughPsqlReadsBack() throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        #expect(url.hasPrefix("postgres://okit@127.0.0.1:\(cluster.port)/"))
        try cluster.psql("""
            CREATE TABLE "Book" (id text PRIMARY KEY, name text NOT NULL, count bigint NOT NULL);
            INSERT INTO "Book" VALUES ('b1', 'Dune', 3), ('b2', 'Emma', 1);
            """, database: url)
        #expect(try cluster.psql(#"SELECT id, name, count FROM "Book" ORDER BY id"#, database: url) == "b1|Dune|3\nb2|Emma|1")

        // Another test's database does not see it.
        let other = try cluster.createDatabase()
        #expect(other != url)
        #expect(try cluster.psql("SELECT count(*) FROM pg_tables WHERE tablename = 'Book'", database: other) == "0")

        // A failing statement throws with what psql said.
        do {
            try cluster.psql("SELECT nosuch FROM \"Book\"", database: url)
            Issue.record("psql on an unknown column did not throw")
        } catch let error as PostgresClusterError {
            #expect(error.description.contains("column \"nosuch\" does not exist"), "\(error)")
        }
    }

    @Test(.enabled(if: PostgresCluster.isAvailable, Comment(rawValue: PostgresCluster.unavailable)))
    func dataOutlivesARestartAndACrashOnTheSamePort() throws {
        let cluster = try PostgresCluster.start(fsync: true)
        let folder = cluster.folder
        let url = try cluster.createDatabase("shop")
        #expect(url == "postgres://okit@127.0.0.1:\(cluster.port)/shop")
        try cluster.psql("CREATE TABLE t (n int); INSERT INTO t VALUES (1);", database: url)

        try cluster.restart()
        #expect(cluster.isRunning)
        #expect(try cluster.psql("SELECT n FROM t", database: url) == "1")

        try cluster.psql("INSERT INTO t VALUES (2)", database: url)
        cluster.kill()
        #expect(!cluster.isRunning)
        #expect(throws: PostgresClusterError.self) { try cluster.psql("SELECT 1", database: url, timeout: 30) }
        try cluster.startServer()
        #expect(try cluster.psql("SELECT string_agg(n::text, ',' ORDER BY n) FROM t", database: url) == "1,2")

        cluster.stop()
        #expect(!FileManager.default.fileExists(atPath: folder.path), "stop removes the cluster's folder")
        #expect(!cluster.isRunning)
    }
}
