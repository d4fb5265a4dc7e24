import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// `okit.partial` from Lua: the payload through the stub's field, synced fields, and declaration errors with
/// file:line.
@Suite struct LuaPartialTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Group", { name = "string", color = { "string", default = "#0000FF" }, tags = "[string]" })
    okit.partial("GroupDefer", "Group", { name = { "string", default = "<New Group>" }, color = "string" },
      { field = "group", sync = { "name", "color" } })
    okit.entity("Shelf", { groups = "[GroupDefer]" })
    shelf = okit.model("Shelf")
    """

    @Test func thePayloadIsReadThroughTheStubAndKeptInItsOwnFile() throws {
        let t = try TempApp(["app.lua": Self.app])
        var id = ""
        do {
            let app = try t.launch()
            try app.run("""
            local g = okit.new("GroupDefer", { name = "Poetry" })
            shelf.groups:append(g)
            assert(g.group.name == "Poetry", "the fresh payload takes the stub's synced fields")
            g.group.tags:append("verse")
            g.group.color = "#FF0000"
            assert(g.color == "#FF0000", "synced back to the stub")
            assert(okit.get(g, "group/tags[0]") == "verse")
            local ok, err = pcall(function() g.group = okit.new("Group") end)
            assert(not ok and err:find("GroupDefer.group is read-only", 1, true), err)
            assert(okit.data.bytes == okit.data.read)
            okit.storeState()
            """, chunkName: "t.lua")
            id = try #require(try app.engine.get(app.engine.models[0].root, "groups[0]/id").displayString)
        }
        let file = t.data.appendingPathComponent("okit/data/default/\(id).json")
        let payload = try String(contentsOf: file, encoding: .utf8)
        #expect(payload.contains("verse") && payload.contains(#""type":"Group""#))
        let again = try t.launch()
        try again.run("""
        assert(shelf.groups[1].color == "#FF0000")
        assert(shelf.groups[1].group.tags[1] == "verse")
        """, chunkName: "t.lua")
    }

    @Test func declarationErrorsNameTheLine() throws {
        let cases: [(String, String)] = [
            ("okit.partial('S', 'Nope', { name = 'string' })\nokit.entity('R', { s = '[S]' })\nokit.model('R')\n",
             "app.lua:2: okit.partial(\"S\"): payload type \"Nope\" is not declared"),
            ("okit.entity('P', { name = 'string' })\nokit.partial('S', 'P', { title = 'string' }, { sync = { 'name' } })\nokit.model('P')\n",
             "app.lua:3: okit.partial(\"S\"): sync field \"name\" is not a field of S"),
            ("okit.entity('P', { name = 'string' })\nokit.partial('S', 'P', { name = 'string' }, { sync = 'name' })\n",
             "app.lua:3: okit.partial(\"S\"): sync must list field names"),
            ("okit.entity('P', { name = 'string' })\nokit.partial('S', 'P', { p = 'string' })\n",
             "app.lua:3:26: okit.partial: entity type \"S\" declares field \"p\" twice"),   // at the field
            ("okit.entity('P', { name = 'string' })\nokit.partial('S', 'P', {\n  title = 'strng' })\nokit.entity('R', { s = '[S]' })\nokit.model('R')\n",
             "app.lua:4:3: okit.entity(\"S\"), field \"title\": unknown field type or entity type \"strng\""),
        ]
        for (source, expected) in cases {
            let t = try TempApp(["app.lua": "local okit = require 'okit'\n" + source])
            do { _ = try t.launch(); Issue.record("no error for \(source)") } catch {
                #expect("\(error)".contains(expected), "\(error)")
            }
        }
    }
}
