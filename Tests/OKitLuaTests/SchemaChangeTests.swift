import Foundation
import Testing
import OKitEngine
import OKitLua

/// A field whose type changes between versions of an app (lua-api.md "Schema versions", storage.md "Schema
/// changes"): kept for the migrations in every storage kind, refused with what to do when none converts it.
@Suite struct SchemaChangeTests {
    static func model(_ storage: String) -> String {
        storage == "file" ? #"f = okit.model("Clinic")"# : #"f = okit.model("Clinic", { storage = "\#(storage)" })"#
    }

    static let v2Head = """
        local okit = require "okit"
        okit.app { id = "t", version = 2 }
        okit.entity("Pet", { name = "string", tag = "int", weight = "string" })
        okit.entity("Clinic", { pets = "[Pet]" })
        """

    /// Version 1 keeps `tag` as text and `weight` as a number; version 2 the other way round.
    static func files(_ storage: String) -> [String: String] {
        let m = model(storage)
        return [
            "v1.lua": """
                local okit = require "okit"
                okit.app { id = "t", version = 1 }
                okit.entity("Pet", { name = "string", tag = "string", weight = "int" })
                okit.entity("Clinic", { pets = "[Pet]" })
                \(m)
                """,
            "v2.lua": [v2Head, """
                okit.migrate(1, function(model, raw)
                  for i, p in ipairs(model.pets) do p.tag = tonumber(raw.pets[i].tag) or 0; p.weight = tostring(raw.pets[i].weight) end
                end)
                """, m].joined(separator: "\n"),
            "none.lua": [v2Head, m].joined(separator: "\n"),
            "half.lua": [v2Head, """
                okit.migrate(1, function(model, raw)
                  for _, p in ipairs(model.pets) do p.weight = "heavy" end
                end)
                """, m].joined(separator: "\n"),
            "same.lua": [v2Head.replacingOccurrences(of: "version = 2", with: "version = 1"), m].joined(separator: "\n"),
            "fails.lua": [v2Head, """
                okit.migrate(1, function(model, raw)
                  for i, p in ipairs(model.pets) do p.weight = "x"; error("tag " .. raw.pets[i].tag .. " is not a number") end
                end)
                """, m].joined(separator: "\n"),
        ]
    }

    /// The app's data folder after version 1 stored two pets (one tag that is no number).
    static func stored(_ storage: String) throws -> TempApp {
        let t = try TempApp(files(storage))
        let v1 = try t.launch("v1.lua")
        try v1.run("""
        f.pets:append(okit.new("Pet", { name = "Rex", tag = "x7", weight = 12 }))
        f.pets:append(okit.new("Pet", { name = "Tom", tag = "5", weight = 3 }))
        """, chunkName: "w.lua")
        try v1.storeState()
        v1.session.closeDataFolder()
        return t
    }

    static func error(_ t: TempApp, _ file: String) -> String {
        do {
            let app = try t.launch(file)
            app.session.closeDataFolder()
            return ""
        } catch {
            return "\(error)"
        }
    }

    /// Every file of the data folder's models, to see that a refusal changed nothing.
    static func snapshot(_ t: TempApp) throws -> [String: Data] {
        let folder = t.data.appendingPathComponent("okit/data")
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
            var isDir: ObjCBool = false
            let url = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue {
                out[name] = try Data(contentsOf: url)
            }
        }
        return out
    }

    @Test(arguments: ["file", "encrypted", "sqlite"])
    func aMigrationConvertsAFieldWhoseTypeChanged(storage: String) throws {
        let t = try Self.stored(storage)
        let v2 = try t.launch("v2.lua")
        try v2.run("""
        assert(f.pets[1].tag == 0 and f.pets[2].tag == 5, "tags converted: " .. tostring(f.pets[1].tag) .. ", " .. tostring(f.pets[2].tag))
        assert(f.pets[1].weight == "12" and f.pets[2].weight == "3", "weights converted: " .. tostring(f.pets[1].weight))
        """, chunkName: "r.lua")
        try v2.storeState()
        v2.session.closeDataFolder()
        // Stored by version 2 with the converted values alone: it loads again without a migration.
        let again = try t.launch("none.lua")
        try again.run(#"assert(f.pets[1].tag == 0 and f.pets[2].weight == "3")"#, chunkName: "r.lua")
        again.session.closeDataFolder()
    }

    @Test(arguments: ["file", "encrypted", "sqlite"])
    func withoutAMigrationTheChangedTypeIsRefusedAndNothingChanges(storage: String) throws {
        let t = try Self.stored(storage)
        let before = try Self.snapshot(t)
        let none = Self.error(t, "none.lua")
        #expect(none.contains("of Pet holds") && none.contains("no migration runs for version 1")
                && none.contains("okit.migrate(1, function(model, raw)"), "\(none)")
        #expect(none.contains("none.lua:5: okit.model(\"Clinic\"): \(t.data.path)/okit/data/"), "where: the model's line and its file: \(none)")
        let half = Self.error(t, "half.lua")
        #expect(half.contains(#"field "tag" of Pet holds a string ("x7")"#) && half.contains("the migrations did not assign it"), "\(half)")
        // The type changed without a new version: the field, what is stored, and the version to give.
        let same = Self.error(t, "same.lua")
        #expect(same.contains("okit.app { version = 2 }") && same.contains("okit.migrate(1,")
                && !same.contains("start this model fresh"), "\(same)")
        if storage != "sqlite" { #expect(same.contains("of Pet is declared"), "\(same)") }
        #expect(try Self.snapshot(t) == before)
    }

    @Test func anErrorInAMigrationNamesItAndTheModel() throws {
        let t = try Self.stored("file")
        let before = try Self.snapshot(t)
        let e = Self.error(t, "fails.lua")
        #expect(e.contains("fails.lua:5: okit.migrate(1, …)"), "where the migration is declared: \(e)")
        #expect(e.contains(#"okit.migrate(1, …), the migration from version 1 to 2 of model "default" (a Clinic), failed: fails.lua:"#)
                && e.contains("tag x7 is not a number") && e.contains("nothing was changed"), "\(e)")
        #expect(try Self.snapshot(t) == before)
    }

    @Test(arguments: [#""2""#, "2.5", "-1", "0", "true", "1e300"])
    func theAppsVersionIsAWholeNumber(version: String) throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.app { id = "t", version = \(version) }
        """])
        let e = Self.error(t, "app.lua")
        #expect(e.contains("okit.app: version must be a whole number from 1 to 1000000, not "), "\(e)")
    }

    @Test func aMigrationsVersionIsAWholeNumber() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.migrate(0, function() end)
        """])
        #expect(Self.error(t, "app.lua").contains("okit.migrate: the version (the version it migrates from) must be a whole number from 1"))
    }

    /// `okit.migrate(2, …)` in a version-2 app: the migration "to 2" that never runs.
    @Test func aMigrationThatNeverRunsIsReported() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.app { id = "t", version = 2 }
        okit.entity("Clinic", { name = "string" })
        okit.migrate(2, function(model, raw) end)
        okit.migrate(1, function(model, raw) end)
        f = okit.model("Clinic")
        """])
        let line = "app.lua:4: okit.migrate(2, …) never runs: this app is version 2, and a migration is named by the version it migrates from; the migration from version 1 to 2 is okit.migrate(1, …)"
        // A problem of the check, which stops the app at load like every other; a warning without the check.
        let checked = Self.error(t, "app.lua")
        #expect(checked.contains(line + "\napp.lua: 1 problem in 0 screens, 0 bindings"))
        let app = try t.launch { $0.checkBindings = false }
        #expect(app.engine.warnings.contains(line), "\(app.engine.warnings)")
        #expect(app.checkApp().problems.contains(line), "\(app.checkApp().problems)")
    }
}
