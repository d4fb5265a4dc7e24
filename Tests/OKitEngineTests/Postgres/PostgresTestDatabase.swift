import Foundation
import OKitTestSupport

/// A fresh database for one test, on the test run's PostgreSQL cluster.
struct PostgresTestDatabase {
    let url: String
    let name: String
    let port: Int

    static func make() throws -> PostgresTestDatabase {
        let port = Int(ProcessInfo.processInfo.environment["OKIT_TEST_PG_PORT"] ?? "55432") ?? 55432
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        let r = try ChildProcess.run("/usr/bin/psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "okit", "-d", "postgres", "-Atc", "CREATE DATABASE \(name)"])
        if r.code != 0 { throw TestDatabaseError(text: r.err) }
        return PostgresTestDatabase(url: "postgres://okit@127.0.0.1:\(port)/\(name)", name: String(name), port: port)
    }

    func psql(_ sql: String) throws -> String {
        let r = try ChildProcess.run("/usr/bin/psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "okit", "-d", name, "-Atc", sql])
        if r.code != 0 { throw TestDatabaseError(text: r.err) }
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func freePort() throws -> Int { 1 }
}

struct TestDatabaseError: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}
