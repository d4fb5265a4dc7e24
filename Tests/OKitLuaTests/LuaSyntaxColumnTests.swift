import Testing
@testable import OKitLua

/// A syntax error names its column (`app.lua:5:21:`): Lua names the line and the token it stopped at, and the
/// column is the occurrence of that token at which the source, cut there, fails the same way.
@Suite struct LuaSyntaxColumnTests {
    static func message(_ source: String) throws -> String {
        let lua = try LuaState()
        do {
            try lua.load(source: source, chunkName: "app.lua")
            Issue.record("loaded: \(source)")
            return ""
        } catch { return error.message }
    }

    @Test func theColumnIsTheTokenLuaStoppedAtNotTheLastOfItsKind() throws {
        // The second "=" of the line, not the last (a tester's app said 5:101 for an error at 5:35).
        #expect(try Self.message("okit.list(\"x\", {\n  dataPath = = \"plants\", titlePath = \"#P\", a = 1 })\n")
                == "app.lua:2:14: unexpected symbol near '='")
        #expect(try Self.message("local a = 1\nlocal oops = = 3\n") == "app.lua:2:14: unexpected symbol near '='")
        // Characters, not bytes, before it.
        #expect(try Self.message("local t = { \"Grüße\", x = = 1 }") == "app.lua:1:26: unexpected symbol near '='")
        // The last line of a file, and a message without a token: as Lua said it.
        #expect(try Self.message("x = ") == "app.lua:1: unexpected symbol near <eof>")
        #expect(try Self.message("local function f()\n  return 1\n") == "app.lua:3: 'end' expected (to close 'function' at line 1) near <eof>")
    }
}
