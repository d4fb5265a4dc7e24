import Testing
@testable import OKitEngine
@testable import OKitWeb

/// The web form of an int field refuses a number with a fraction as the other front ends do (the engine's value
/// conversion refuses it): the page's error says the field takes a whole number, and nothing changes.
@Suite struct WholeNumberFormTests {
    static func serve(language: String = "en") async throws -> WebApp {
        let web = WebApp(options: .unhurried)
        try await web.load {
            let session = AppSession()
            let engine = session.engine
            engine.locale = AppLocale(language: language, region: "", timeZone: "UTC")
            try engine.schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("pages", .int)])
            try engine.schema.entity("Shop", fields: [try FieldSpec("books", "[Book]")])
            try engine.schema.validate()
            let shop = try engine.register(model: "default", type: "Shop", storage: TransientStorage())
            let dune = try engine.make("Book", ["name": .string("Dune"), "pages": .int(412)])
            try engine.insert(.entity(dune), into: engine.collection(shop.root, "books"))
            var books = ListDeclaration(id: "books")
            books.type = "Book"
            books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"; books.segue = "book"
            var book = DetailDeclaration(id: "book")
            book.titlePath = "%Book"
            book.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "text", properties: ["path": "%Pages", "textPath": "pages"]),
                                                        CellDeclaration(kind: "stepper", properties: ["path": "%Steps", "valuePath": "pages",
                                                                                                       "maxValuePath": "#1000"])])]
            try session.shell.declare(books)
            try session.shell.declare(book)
            try session.start(home: ["books"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        return web
    }

    @Test func aFractionIsThePagesErrorAndNothingChanges() async throws {
        let b = WebAppTests.Browser(try await WholeNumberFormTests.serve())
        let tap = await b.command(from: "/books", [("command", "tap"), ("row", "1")])
        let detail = try #require(WebAppTests.header(tap, "Location"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        #expect(await b.command(from: detail, [("command", "set"), ("cell", "Pages"), ("value", "12.5")]).status == 303)
        let refused = await b.page(detail)
        #expect(refused.contains("<p role=\"alert\" class=\"okit-error\">Pages takes a whole number: \"12.5\" has a fraction</p>"), "\(refused)")
        #expect(refused.contains("value=\"12.5\""), "what was typed stays in the field (RefusedTextTests)")
        _ = await b.command(from: detail, [("command", "edit"), ("on", "false")])
        #expect(await b.page(detail).contains("value=\"412\""), "nothing changed")
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Pages"), ("value", "12")])
        #expect(await b.page(detail).contains("value=\"12\""))
    }

    /// A number no int holds, typed on a German page: the page's error is in German, names the cell by its title and
    /// quotes what was typed (it said `cannot write 100000000000000000000 to field "pages" of type int`).
    @Test func aNumberTooLargeIsThePagesErrorInTheAppsLanguage() async throws {
        let b = WebAppTests.Browser(try await WholeNumberFormTests.serve(language: "de"))
        let tap = await b.command(from: "/books", [("command", "tap"), ("row", "1")])
        let detail = try #require(WebAppTests.header(tap, "Location"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Pages"), ("value", "99999999999999999999")])
        let refused = await b.page(detail)
        #expect(refused.contains("Pages: „99999999999999999999“ liegt außerhalb des Bereichs: eine ganze Zahl von"), "\(refused)")
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Pages"), ("value", "NaN")])
        #expect(await b.page(detail).contains("Pages: „NaN“ ist keine Zahl wie 1.234</p>"))
        #expect(await b.page(detail).contains("value=\"NaN\""), "what was typed stays in the field")
        _ = await b.command(from: detail, [("command", "edit"), ("on", "false")])
        #expect(await b.page(detail).contains("value=\"412\""), "nothing changed")
    }

    /// A stepper's refusal is worded as a text cell's, not the page's generic "Steps does not take that value".
    @Test func aSteppersRefusalNamesTheCellAndQuotesWhatWasTyped() async throws {
        let b = WebAppTests.Browser(try await WholeNumberFormTests.serve(language: "de"))
        let tap = await b.command(from: "/books", [("command", "tap"), ("row", "1")])
        let detail = try #require(WebAppTests.header(tap, "Location"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Steps"), ("value", "abc")])
        let refused = await b.page(detail)
        #expect(refused.contains("Steps: „abc“ ist keine Zahl wie 1.234</p>"), "\(refused)")
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Steps"), ("value", "2.5")])
        #expect(await b.page(detail).contains("Steps nimmt nur ganze Zahlen: „2.5“ hat Nachkommastellen</p>"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "false")])
        #expect(await b.page(detail).contains("value=\"412\""), "nothing changed")
    }
}
