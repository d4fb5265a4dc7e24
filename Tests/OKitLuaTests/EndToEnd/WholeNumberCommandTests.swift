import Foundation
import OKitTestSupport
import Testing

/// `set Pages "12,5"` on an int field stored 12 (the tester's Spanish app): over JSON lines — a JSON number, a JSON
/// string, the shell syntax the terminal reads — the value is refused saying the field takes a whole number, and
/// nothing changes; a whole number is taken.
@Suite struct WholeNumberCommandTests {
    static let app = """
    local okit = require "okit"
    okit.locale { language = "es" }
    okit.strings("es", { Pages = "Páginas", Books = "Libros" })
    okit.entity("Book", { name = "string", pages = "int" })
    okit.entity("Shelf", { books = "[Book]" })
    okit.model("Shelf", { seed = function(r) r.books:append(okit.new("Book", { name = "Rayuela", pages = 600 })) end })
    okit.list("books", { dataPath = "books", titlePath = "%Books", cell = { path = "name" }, segue = "book" })
    okit.detail("book", { sections = { { okit.cell.text { path = "%Pages", textPath = "pages" } } } })
    okit.app { home = "books" }
    """

    @Test func aFractionIsRefusedInEveryFormAJSONLinesProgramSendsIt() throws {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let t = try TempApp(["app.lua": Self.app])
        let lines = [
            "{\"cmd\":\"tap\",\"row\":1}", "{\"cmd\":\"edit\",\"on\":true}",
            "{\"cmd\":\"set\",\"cell\":\"Páginas\",\"value\":12.5}",
            "{\"cmd\":\"set\",\"cell\":\"Páginas\",\"value\":\"12,5\"}",
            "set Páginas \"12,5\"",
            "set Páginas 12.5",
            "{\"cmd\":\"set\",\"cell\":\"Páginas\",\"value\":\"13\"}",
        ]
        let r = try OKitRun.run([t.folder.appendingPathComponent("app.lua").path, "--json", "--data", t.data.path],
                                stdin: .text(lines.joined(separator: "\n") + "\n"))
        let answers = r.out.split(separator: "\n").map(String.init)
        try #require(answers.count == 7, "\(r.out)\(r.err)")
        for (i, typed) in [(2, "12,5"), (3, "12,5"), (4, "12,5"), (5, "12.5")] {
            #expect(answers[i] == "{\"ok\":false,\"error\":\"Páginas solo admite números enteros: «\(typed)» tiene decimales\"}", "\(i): \(answers[i])")
        }
        #expect(answers[6].hasPrefix("{\"ok\":true") && answers[6].contains("\"value\":13"), "\(answers[6])")
    }

    /// A whole number past what a double holds is the number typed or sent, exactly (it reached the cell as
    /// 9223372036854775808.0 and was refused); one no int holds is refused in the app's language, quoted as typed.
    @Test func aLargeWholeNumberIsExactAndOneTooLargeIsRefusedAsTyped() throws {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let t = try TempApp(["app.lua": Self.app])
        let lines = [
            "tap 1", "edit on", "set Páginas 9223372036854775807",
            "{\"cmd\":\"set\",\"cell\":\"Páginas\",\"value\":9007199254740993}",
            "set Páginas 99999999999999999999",
        ]
        let r = try OKitRun.run([t.folder.appendingPathComponent("app.lua").path, "--json", "--data", t.data.path],
                                stdin: .text(lines.joined(separator: "\n") + "\n"))
        let answers = r.out.split(separator: "\n").map(String.init)
        try #require(answers.count == 5, "\(r.out)\(r.err)")
        #expect(answers[2].contains("\"value\":9223372036854775807"), "\(answers[2])")
        #expect(answers[3].contains("\"value\":9007199254740993"), "\(answers[3])")
        #expect(answers[4].hasPrefix("{\"ok\":false,\"error\":\"Páginas: «99999999999999999999» está fuera de rango: un número entero de "),
                "\(answers[4])")
    }
}
