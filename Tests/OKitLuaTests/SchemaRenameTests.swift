import Foundation
import Testing
import OKitEngine
import OKitLua

/// Types renamed and references become owned entities between versions of an app (storage.md "Schema changes").
@Suite struct SchemaRenameTests {
    static func app(version: Int, _ body: String) -> String {
        """
        local okit = require "okit"
        okit.app { id = "t", version = \(version) }
        \(body)
        """
    }

    /// `owner` was `ref Owner`; version 2 keeps the owner inside the pet.
    static func ownerFiles(_ storage: String) -> [String: String] {
        let m = storage == "file" ? #"f = okit.model("Clinic")"# : #"f = okit.model("Clinic", { storage = "\#(storage)" })"#
        let v2 = """
            okit.entity("Owner", { name = "string" })
            okit.entity("Pet", { name = "string", owner = "Owner" })
            okit.entity("Clinic", { owners = "[Owner]", pets = "[Pet]" })
            """
        return [
            "v1.lua": Self.app(version: 1, """
                okit.entity("Owner", { name = "string" })
                okit.entity("Pet", { name = "string", owner = "ref Owner" })
                okit.entity("Clinic", { owners = "[Owner]", pets = "[Pet]" })
                \(m)
                """),
            "none.lua": Self.app(version: 2, v2 + "\n" + m),
            "same.lua": Self.app(version: 1, v2 + "\n" + m),
            "v2.lua": Self.app(version: 2, v2 + """

                okit.migrate(1, function(model, raw)
                  for i, p in ipairs(model.pets) do
                    local o = raw.pets[i].owner
                    local id = type(o) == "table" and o.refKey or o      -- a file keeps {id, refKey}, SQLite the id
                    for _, owner in ipairs(model.owners) do
                      if owner.id == id then p.owner = okit.new("Owner", { name = owner.name }) end
                    end
                  end
                end)
                \(m)
                """),
        ]
    }

    static func stored(_ t: TempApp) throws {
        let v1 = try t.launch("v1.lua")
        try v1.run("""
        local ann = okit.new("Owner", { name = "Ann" })
        f.owners:append(ann)
        f.pets:append(okit.new("Pet", { name = "Rex", owner = ann }))
        """, chunkName: "w.lua")
        try v1.storeState()
        v1.session.closeDataFolder()
    }

    @Test(arguments: ["file", "sqlite"])
    func aReferenceBecomeAnOwnedEntityIsMigratedOrRefused(storage: String) throws {
        let t = try TempApp(Self.ownerFiles(storage))
        try Self.stored(t)
        let before = try SchemaChangeTests.snapshot(t)
        let none = SchemaChangeTests.error(t, "none.lua")
        #expect(none.contains(#"field "owner" of Pet holds"#) && none.contains("no migration runs for version 1"), "\(none)")
        let same = SchemaChangeTests.error(t, "same.lua")
        #expect(same.contains("owner") && same.contains("okit.app { version = 2 }"), "\(same)")
        #expect(try SchemaChangeTests.snapshot(t) == before)
        let v2 = try t.launch("v2.lua") { $0.seed = 2 }   // new ids, not those version 1 made under the virtual clock
        try v2.run(#"assert(f.pets[1].owner.name == "Ann", "the owner carried over")"#, chunkName: "r.lua")
        try v2.storeState()
        v2.session.closeDataFolder()
        // Stored by version 2: the owner is read from where version 2 keeps it, the old column emptied.
        let again = try t.launch("none.lua")
        try again.run(#"assert(f.pets[1].owner.name == "Ann", "the owner stays")"#, chunkName: "r.lua")
        again.session.closeDataFolder()
    }

    /// A type below the root renamed: a SQLite model's rows stay in the old table, which a warning names.
    @Test func aRenamedTypesTableIsNamedAtLoad() throws {
        let m = #"sq = okit.model("Clinic", { name = "sq", storage = "sqlite" })"#
        let t = try TempApp([
            "v1.lua": Self.app(version: 1, "okit.entity(\"Pet\", { name = \"string\" })\nokit.entity(\"Clinic\", { pets = \"[Pet]\" })\n" + m),
            "v2.lua": Self.app(version: 1, "okit.entity(\"Animal\", { name = \"string\" })\nokit.entity(\"Clinic\", { pets = \"[Animal]\" })\n" + m),
            "kept.lua": Self.app(version: 1, "okit.entity(\"Animal\", { name = \"string\" }, { table = \"Pet\" })\nokit.entity(\"Clinic\", { pets = \"[Animal]\" })\n" + m),
        ])
        let v1 = try t.launch("v1.lua")
        try v1.run(#"sq.pets:append(okit.new("Pet", { name = "Rex" }))"#, chunkName: "w.lua")
        try v1.storeState()
        v1.session.closeDataFolder()
        let v2 = try t.launch("v2.lua")
        #expect(v2.engine.warnings.contains { $0.contains("table Pet holds 1 row that no entity type of the model reads") && $0.contains(#"table = "Pet""#) },
                "\(v2.engine.warnings)")
        v2.session.closeDataFolder()
        let kept = try t.launch("kept.lua")
        try kept.run(#"assert(#sq.pets == 1 and sq.pets[1].name == "Rex")"#, chunkName: "r.lua")
        #expect(kept.engine.warnings.allSatisfy { !$0.contains("no entity type") }, "\(kept.engine.warnings)")
        kept.session.closeDataFolder()
    }

    /// The root type renamed: refused with what to do (keep its name), not with moving the data aside.
    @Test(arguments: ["file", "sqlite"])
    func aRenamedRootTypeSaysToKeepItsName(storage: String) throws {
        let m = { (type: String) in storage == "file" ? #"f = okit.model("\#(type)")"# : #"f = okit.model("\#(type)", { storage = "sqlite" })"# }
        let t = try TempApp([
            "v1.lua": Self.app(version: 1, "okit.entity(\"Clinic\", { name = \"string\" })\n" + m("Clinic")),
            "v2.lua": Self.app(version: 1, "okit.entity(\"Hospital\", { name = \"string\" })\n" + m("Hospital")),
        ])
        let v1 = try t.launch("v1.lua")
        try v1.run(#"f.name = "x""#, chunkName: "w.lua")
        try v1.storeState()
        v1.session.closeDataFolder()
        let e = SchemaChangeTests.error(t, "v2.lua")
        #expect(e.contains("a model's root type keeps its name") && e.contains("declare it as Clinic again"), "\(e)")
    }
}
