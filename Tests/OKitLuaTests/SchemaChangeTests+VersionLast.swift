import Foundation
import Testing
import OKitEngine
import OKitLua

/// `okit.app { version }` written after `okit.model`, where the bookshop puts `okit.app`: the model is read before the
/// app's version is known, so a value whose field's type changed is kept until the file has run, then converted by
/// the migrations or refused as at any load (it was refused at once, advising what the file already did).
extension SchemaChangeTests {
    /// `v2.lua`, `none.lua` and `same.lua` with `okit.app` moved to the end of the file.
    static func versionLast(_ file: String, _ storage: String) throws -> String {
        let source = try #require(files(storage)[file])
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let app = try #require(lines.firstIndex { $0.hasPrefix("okit.app") })
        let line = lines.remove(at: app)
        return (lines + [line]).joined(separator: "\n")
    }

    @Test(arguments: ["file", "sqlite"])
    func theVersionDeclaredAfterTheModelStillMigratesIt(storage: String) throws {
        let t = try Self.stored(storage)
        try Self.versionLast("v2.lua", storage).write(to: t.folder.appendingPathComponent("last.lua"), atomically: true, encoding: .utf8)
        let v2 = try t.launch("last.lua")
        try v2.run("""
        assert(f.pets[1].tag == 0 and f.pets[2].tag == 5, "tags converted: " .. tostring(f.pets[1].tag) .. ", " .. tostring(f.pets[2].tag))
        assert(f.pets[2].weight == "3", "weights converted: " .. tostring(f.pets[2].weight))
        """, chunkName: "r.lua")
        v2.session.closeDataFolder()
    }

    @Test(arguments: ["file", "sqlite"])
    func withTheVersionLastAnUnconvertedValueIsStillRefusedAndNothingChanges(storage: String) throws {
        let t = try Self.stored(storage)
        let before = try Self.snapshot(t)
        for (file, source) in [("none", "none.lua"), ("same", "same.lua")] {
            try Self.versionLast(source, storage).write(to: t.folder.appendingPathComponent("\(file)-last.lua"), atomically: true, encoding: .utf8)
        }
        let none = Self.error(t, "none-last.lua")
        #expect(none.contains("of Pet holds") && none.contains("no migration runs for version 1")
                && none.contains("okit.migrate(1, function(model, raw)"), "\(none)")
        #expect(none.contains("none-last.lua:4: okit.model(\"Clinic\")"), "where: the model's line: \(none)")
        // Still version 1: the version to give first, then the migration.
        let same = Self.error(t, "same-last.lua")
        #expect(same.contains("give the app the next version (okit.app { version = 2 }) and convert it in okit.migrate(1,"), "\(same)")
        #expect(try Self.snapshot(t) == before)
    }
}

/// A model declared once the file has run — here by the home screen's `onAppear` as the app starts — is migrated at
/// once, as one declared from a controller later (it went into the load's list of models after that list was
/// taken: never migrated, its kept values never checked).
extension SchemaChangeTests {
    @Test func aModelDeclaredAsTheAppStartsIsMigrated() throws {
        let t = try Self.stored("file")
        let source = [Self.v2Head, """
            okit.migrate(1, function(model, raw)
              for i, p in ipairs(model.pets) do p.tag = tonumber(raw.pets[i].tag) or 0; p.weight = tostring(raw.pets[i].weight) end
            end)
            okit.list("pets", { dataPath = "pets", cell = { path = "name" }, contextPath = "",
              onAppear = function() if not f then f = okit.model("Clinic") end end })
            okit.app { id = "t", version = 2, home = "pets" }
            """].joined(separator: "\n").replacingOccurrences(of: "okit.app { id = \"t\", version = 2 }\n", with: "")
        try source.write(to: t.folder.appendingPathComponent("appear.lua"), atomically: true, encoding: .utf8)
        let app = try t.launch("appear.lua") { $0.checkBindings = false }
        try app.run(#"assert(f and f.pets[2].tag == 5 and f.pets[2].weight == "3", "migrated: " .. tostring(f and f.pets[2].weight))"#,
                    chunkName: "r.lua")
        app.session.closeDataFolder()
    }
}
