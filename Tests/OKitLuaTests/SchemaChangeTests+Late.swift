import Foundation
import Testing
import OKitEngine
import OKitLua

/// A model declared after the app loaded (from a controller, `app:run`) is migrated as one declared while loading:
/// before, the value kept for the migrations stayed beside the field, and the next store wrote its key twice.
extension SchemaChangeTests {
    @Test(arguments: ["file", "sqlite"])
    func aModelDeclaredAfterTheLoadIsMigratedToo(storage: String) throws {
        let t = try Self.stored(storage)
        let late = [Self.v2Head, """
            okit.migrate(1, function(model, raw)
              for i, p in ipairs(model.pets) do p.tag = tonumber(raw.pets[i].tag) or 0; p.weight = tostring(raw.pets[i].weight) end
            end)
            """].joined(separator: "\n")
        try late.write(to: t.folder.appendingPathComponent("late.lua"), atomically: true, encoding: .utf8)
        let app = try t.launch("late.lua")
        try app.run("local okit = require \"okit\"\n" + Self.model(storage), chunkName: "later.lua")
        try app.run("""
        assert(f.pets[1].tag == 0 and f.pets[2].tag == 5, "tags converted: " .. tostring(f.pets[1].tag) .. ", " .. tostring(f.pets[2].tag))
        assert(f.pets[2].weight == "3", "weights converted: " .. tostring(f.pets[2].weight))
        """, chunkName: "r.lua")
        try app.storeState()
        app.session.closeDataFolder()
        if storage == "file" {
            let json = try String(contentsOf: t.data.appendingPathComponent("okit/data/default.json"), encoding: .utf8)
            #expect(json.components(separatedBy: "\"tag\":").count == 3, "each pet's tag once: \(json)")
        }
        let again = try t.launch("none.lua")
        try again.run(#"assert(f.pets[1].tag == 0 and f.pets[2].weight == "3")"#, chunkName: "r.lua")
        again.session.closeDataFolder()
    }

    /// A late model whose migration fails inside a `pcall`: the app goes on without the model, which is taken back —
    /// the store writes nothing over its data (it stayed version 1, its values unconverted), the same declaration
    /// may be tried again, and version 2 with a working migration converts the data later.
    @Test(arguments: ["file", "sqlite"])
    func aLateModelWhoseMigrationFailsInsideAPcallIsTakenBackAndNeverStored(storage: String) throws {
        let t = try Self.stored(storage)
        let failing = [Self.v2Head, """
            okit.migrate(1, function(model, raw)
              for _, p in ipairs(model.pets) do p.weight = "x" end
              error("tags are not numbers yet")
            end)
            """].joined(separator: "\n")
        try failing.write(to: t.folder.appendingPathComponent("late.lua"), atomically: true, encoding: .utf8)
        let before = try Self.snapshot(t)
        let app = try t.launch("late.lua")
        try app.run("""
        local okit = require "okit"
        local ok, err = pcall(function() \(Self.model(storage)) end)
        assert(not ok and tostring(err):find("tags are not numbers yet", 1, true), tostring(err))
        local again, err2 = pcall(function() \(Self.model(storage)) end)
        assert(not again and not tostring(err2):find("already", 1, true), "declared again: " .. tostring(err2))
        """, chunkName: "later.lua")
        #expect(app.engine.models.isEmpty, "no model is left registered: \(app.engine.models.map(\.name))")
        try app.storeState()
        app.session.closeDataFolder()
        #expect(try Self.snapshot(t) == before, "the stored data is left as it is")
        let v2 = try t.launch("v2.lua")
        try v2.run(#"assert(f.pets[2].tag == 5 and f.pets[1].weight == "12", "converted by v2")"#, chunkName: "r.lua")
        v2.session.closeDataFolder()
    }
}
