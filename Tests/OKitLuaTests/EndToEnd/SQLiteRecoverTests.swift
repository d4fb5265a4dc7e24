import Foundation
import Testing
import OKitTestSupport

/// A sqlite model's database that SQLite cannot read stops the app (exit 4, nothing written) with a message naming
/// the file and `--recover`; `okit-run --recover MODEL` moves it aside with its `-wal` and `-shm`, and the app
/// starts fresh (storage.md, cli.md "--recover").
@Suite struct SQLiteRecoverTests {
    static let source = "okit.entity('Shop', { name = 'string' })\nshop = okit.model('Shop', { storage = 'sqlite' })\n"

    /// How the database is damaged: its header overwritten, or a file that is not SQLite at all.
    enum Damage: String, CaseIterable { case header, notSQLite }

    @Test(arguments: Damage.allCases)
    func anUnreadableDatabaseStopsTheAppAndIsMovedAsideByRecover(_ damage: Damage) throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path), "build okit-run first (swift build)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-sqlite-recover-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = dir.appendingPathComponent("app.lua")
        try Self.source.write(to: app, atomically: true, encoding: .utf8)
        let script = dir.appendingPathComponent("s.lua")
        try "shop.name = 'Dune'\n".write(to: script, atomically: true, encoding: .utf8)
        let data = dir.appendingPathComponent("data")
        let models = data.appendingPathComponent("okit/data")
        let db = models.appendingPathComponent("default.sqlite")
        #expect(try OKitRun.run([app.path, "--data", data.path, "--script", script.path]).code == 0)
        var bytes = try Data(contentsOf: db)
        switch damage {
        case .header: bytes.replaceSubrange(0..<16, with: Data("not a database!!".utf8))
        case .notSQLite: bytes = Data("name,price\nDune,12\n".utf8)
        }
        try bytes.write(to: db)
        // A -wal and -shm left beside it (as a killed process leaves them) go aside with it.
        let sides = ["-wal": Data("wal bytes".utf8), "-shm": Data("shm bytes".utf8)]
        for (suffix, content) in sides { try content.write(to: URL(fileURLWithPath: db.path + suffix)) }

        let stopped = try OKitRun.run([app.path, "--data", data.path, "--script", script.path])
        #expect(stopped.code == 4, "\(stopped.err)")
        #expect(stopped.err.contains(db.path), "\(stopped.err)")
        #expect(stopped.err.contains("--recover default"), "\(stopped.err)")
        #expect(try Data(contentsOf: db) == bytes, "nothing written")
        for (suffix, content) in sides { #expect(try Data(contentsOf: URL(fileURLWithPath: db.path + suffix)) == content) }

        let recovered = try OKitRun.run([app.path, "--data", data.path, "--recover", "default"])
        #expect(recovered.code == 0, "\(recovered.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: models.path)
        let aside = try #require(names.first { $0.hasPrefix("default.sqlite.corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }, "\(names)")
        #expect(recovered.err.contains("moved aside:") && recovered.err.contains(aside), "\(recovered.err)")
        #expect(try Data(contentsOf: models.appendingPathComponent(aside)) == bytes)
        for (suffix, content) in sides { #expect(try Data(contentsOf: models.appendingPathComponent(aside + suffix)) == content) }

        // Started fresh: the model stores and loads again.
        #expect(try OKitRun.run([app.path, "--data", data.path, "--script", script.path]).code == 0)
        let again = try OKitRun.run([app.path, "--data", data.path])
        #expect(again.code == 0 && again.out.contains("Dune"), "\(again.err)")
    }
}
