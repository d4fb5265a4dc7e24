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

    /// A letter outside ASCII in a name (a French app's `libellé = …`): Lua names the first byte of the character
    /// (`near '<\195>'`) and no column; the message shows the character as written, at its column, with what Lua
    /// names are and what to write instead — a bracketed key in a table, an ASCII name elsewhere.
    @Test func aLetterOutsideASCIIIsShownAsWrittenAtItsColumnWithWhatToWrite() throws {
        let names = "Lua names are ASCII letters, digits and _; "
        #expect(try Self.message("local okit = {}\nokit.entity(\"Depense\", {\n  libellé = { \"string\", required = true },\n})\n")
                == "app.lua:3:9: '}' expected (to close '{' at line 2) near 'é' in \"libellé\": " + names
                + "write [\"libellé\"] = … (a field name may have any characters in brackets) or an ASCII name such as libelle")
        #expect(try Self.message("okit.locale { language = \"fr\", région = \"FR\" }")
                == "app.lua:1:33: '}' expected near 'é' in \"région\": " + names
                + "write [\"région\"] = … (a field name may have any characters in brackets) or an ASCII name such as region")
        // Not at the first "é" of the line, which is inside a string.
        #expect(try Self.message("local t = \"thé\"\nlocal x = \"é\"; local café = 1\n")
                == "app.lua:2:25: unexpected symbol near 'é' in \"café\": " + names + "write an ASCII name such as cafe")
        #expect(try Self.message("t = { échéance = 1 }")
                .hasPrefix("app.lua:1:7: unexpected symbol near 'é' in \"échéance\": " + names + "write [\"échéance\"] = …"))
        // Not a letter: the character and its code point.
        #expect(try Self.message("local x\u{A0}= 1") == "app.lua:1:8: unexpected symbol near '\u{A0}' (U+00A0): outside strings and comments Lua reads ASCII only")
        #expect(try Self.message("print(“hi”)") == "app.lua:1:7: unexpected symbol near '“' (U+201C): outside strings and comments Lua reads ASCII only")
    }
}
