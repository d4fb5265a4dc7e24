import Foundation
import Testing
import OKitEngine
import OKitLua

/// What counts as converting a value kept for the migrations: an assignment, nil included; a collection filled or
/// assigned — never a collection emptied because some other migration ran (its stored value was lost silently).
extension SchemaChangeTests {
    static let v1Tags = """
        local okit = require "okit"
        okit.app { id = "t", version = 1 }
        okit.entity("Pet", { name = "string", tags = "string", chip = "int" })
        okit.entity("Clinic", { pets = "[Pet]" })
        f = okit.model("Clinic")
        """

    static func v2Tags(_ migration: String) -> String {
        """
        local okit = require "okit"
        okit.app { id = "t", version = 2 }
        okit.entity("Tag", { text = "string" })
        okit.entity("Pet", { name = "string", tags = "[Tag]", chip = "string?" })
        okit.entity("Clinic", { pets = "[Pet]" })
        okit.migrate(1, function(model, raw)
        \(migration)
        end)
        f = okit.model("Clinic")
        """
    }

    static func storedTags() throws -> TempApp {
        let t = try TempApp(["v1.lua": v1Tags,
                             "unrelated.lua": v2Tags("  for _, p in ipairs(model.pets) do p.chip = nil; p.name = p.name .. '!' end"),
                             "converts.lua": v2Tags("""
                               for i, p in ipairs(model.pets) do
                                 p.chip = nil
                                 for word in raw.pets[i].tags:gmatch("%a+") do p.tags:append(okit.new("Tag", { text = word })) end
                               end
                             """),
                             "drops.lua": v2Tags("  for _, p in ipairs(model.pets) do p.chip = nil; p.tags = {} end")])
        let v1 = try t.launch("v1.lua")
        try v1.run(#"f.pets:append(okit.new("Pet", { name = "Rex", tags = "old friendly", chip = 42 }))"#, chunkName: "w.lua")
        try v1.storeState()
        v1.session.closeDataFolder()
        return t
    }

    @Test func aCollectionNoMigrationFilledIsRefusedNotEmptied() throws {
        let t = try Self.storedTags()
        let before = try Self.snapshot(t)
        let e = Self.error(t, "unrelated.lua")
        #expect(e.contains(#"field "tags" of Pet holds a string ("old friendly")"#) && e.contains("the migrations did not assign it"), "\(e)")
        #expect(try Self.snapshot(t) == before, "nothing was changed")
    }

    @Test func aMigrationConvertsByFillingAssigningOrNil() throws {
        let t = try Self.storedTags()
        let app = try t.launch("converts.lua")
        try app.run(#"assert(#f.pets[1].tags == 2 and f.pets[1].tags[2].text == "friendly" and f.pets[1].chip == nil)"#, chunkName: "r.lua")
        app.session.closeDataFolder()
        let dropped = try Self.storedTags()
        let d = try dropped.launch("drops.lua")
        try d.run("assert(#f.pets[1].tags == 0 and f.pets[1].chip == nil)", chunkName: "r.lua")
        try d.storeState()
        d.session.closeDataFolder()
        let json = try String(contentsOf: dropped.data.appendingPathComponent("okit/data/default.json"), encoding: .utf8)
        #expect(!json.contains("old friendly") && !json.contains("42"), "the stored values went with the assignment: \(json)")
    }
}
