import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// `okit.extension(type, name, fn)` takes the receiver types lua-api.md lists or an entity type's name — declared
/// before or after it: a type that is neither ("int", "Librro", "strnig") stops the app at the type's line and
/// column with the closest type meant, and is never accepted silently.
@Suite struct ExtensionTypeTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Libro", { titolo = "string", prezzo = "double" })
    okit.entity("Scaffale", { libri = "[Libro]" })
    scaffale = okit.model("Scaffale")

    """

    static func loadError(_ extensionLine: String) throws -> String? {
        try DeclarationTypoTests.loadError(Self.app + extensionLine + "\n")
    }

    @Test func anUnknownTypeIsALoadErrorAtItsColumnWithTheTypeMeant() throws {
        let int = try #require(try Self.loadError("okit.extension(\"int\", \"euro\", function(n) return n end)"))
        #expect(int.hasPrefix("app.lua:5:17: okit.extension(\"int\", \"euro\"): \"int\" is not an extension type (did you mean \"number\"?); it takes string, number, bool,"), "\(int)")
        #expect(int.contains("Libro, Scaffale"), "\(int)")
        let typo = try #require(try Self.loadError("okit.extension(\"Librro\", \"label\", function(b) return b.titolo end)"))
        #expect(typo.contains("app.lua:5:17: okit.extension(\"Librro\", \"label\"): \"Librro\" is not an extension type (did you mean \"Libro\"?)"), "\(typo)")
        let string = try #require(try Self.loadError("okit.extension(\"strnig\", \"initial\", function(s) return s end)"))
        #expect(string.contains("(did you mean \"string\"?)"), "\(string)")
    }

    @Test func everyListedTypeAndAnEntityTypeDeclaredLaterAreTaken() throws {
        for type in ["string", "number", "bool", "date", "data", "collection", "entity", "any", "section", "Libro"] {
            #expect(try Self.loadError("okit.extension(\"\(type)\", \"x\", function(v) return v end)") == nil, "\(type)")
        }
        #expect(try DeclarationTypoTests.loadError("""
        local okit = require "okit"
        okit.extension("Autore", "nome", function(a) return a.nome end)
        okit.entity("Autore", { nome = "string" })
        okit.entity("Elenco", { autori = "[Autore]" })
        elenco = okit.model("Elenco")
        """) == nil)
    }
}
