import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb
import OKitSQLite
import OKitTestSupport

/// The web front end over a `sqlite` model (issue 17: it works with sqlite models as with file models): a list page
/// shows the database's rows, and a command from the browser is stored as changed rows in the database, which
/// another program (`sqlite3`) reads.
@Suite struct SQLitePageTests {
    @Test func aDeleteFromThePageIsStoredInTheDatabase() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-web-sqlite-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let web = WebApp(options: .unhurried)
        try await web.load {
            let session = AppSession()
            let schema = session.engine.schema
            try schema.entity("Book", fields: [FieldSpec("name", .string)])
            try schema.entity("Shop", fields: [try FieldSpec("books", "[Book]")])
            try schema.validate()
            let files = try FileStorage(dataFolder: dir)
            let storage = SQLiteStorage(files: files, path: try files.folder.sqliteFile("default"))
            let model = try session.engine.register(model: "default", type: "Shop", storage: storage, storageKind: .sqlite) { root in
                for name in ["Dune", "Emma", "Anna"] {
                    try session.engine.insert(.entity(session.engine.make("Book", ["name": .string(name)])),
                                              into: session.engine.collection(root, "books"), append: true)
                }
            }
            try session.engine.store(model)
            var list = ListDeclaration(id: "books")
            list.type = "Book"
            list.dataPath = "books"; list.cellPath = "name"; list.titlePath = "%Books"; list.rowSort = "name"
            try session.shell.declare(list)
            try session.start(home: ["books"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        let database = dir.appendingPathComponent("okit/data/default.sqlite").path
        #expect(try SQLitePageTests.query(database, "select name from Book order by name") == "Anna\nDune\nEmma")
        let b = WebAppTests.Browser(web)
        let page = await b.page("/books")
        #expect(page.contains(">Anna<") && page.contains(">Dune<") && page.contains(">Emma<"))
        #expect(await b.command(from: "/books", [("command", "delete"), ("row", "Dune")]).status == 303)
        #expect(await b.command(from: "/books", [("command", "respond"), ("action", "Yes")]).status == 303)
        #expect(try SQLitePageTests.query(database, "select name from Book order by name") == "Anna\nEmma",
                "the command was stored as the database's rows")
        #expect(!(await b.page("/books")).contains(">Dune<"))
    }

    /// What Debian's `sqlite3` prints for `sql` (trimmed).
    static func query(_ database: String, _ sql: String) throws -> String {
        let r = try ChildProcess.run("/usr/bin/sqlite3", [database, sql])
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
