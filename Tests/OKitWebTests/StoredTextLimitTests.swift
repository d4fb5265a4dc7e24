import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// The text a person may store through a form is bounded (`--max-text`, 65,536 characters; web.md "Limits of the
/// server"): a longer value of a cell, a prompt's field or any field of a command is refused in the app's words,
/// naming the cell, and nothing is stored or kept. (A stranger's round five: ten 1,000,000-character names made
/// every viewer's list page 20 MB.)
@Suite struct StoredTextLimitTests {
    typealias Browser = WebAppTests.Browser
    static let huge = String(repeating: "A", count: 1_000_000)

    /// A book list with an add prompt and a detail whose Name cell edits the book's name, in German or English.
    static func serve(_ options: ServeOptions = .unhurried, language: String? = nil) async throws -> WebApp {
        let web = WebApp(options: options)
        try await web.load {
            let session = AppSession()
            if let language { session.engine.locale.language = language }
            let schema = session.engine.schema
            try schema.entity("Book", fields: [FieldSpec("name", .string)])
            try schema.entity("Shop", fields: [try FieldSpec("books", "[Book]")])
            try schema.validate()
            let shop = try session.engine.register(model: "default", type: "Shop", storage: TransientStorage())
            let dune = try session.engine.make("Book", ["name": .string("Dune")])
            try session.engine.insert(.entity(dune), into: session.engine.collection(shop.root, "books"))
            var books = ListDeclaration(id: "books")
            books.type = "Book"
            books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"; books.segue = "book"
            books.addName = "name"
            var book = DetailDeclaration(id: "book")
            book.titlePath = "%Book"
            book.editAlways = "#true"
            book.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "text", id: "Name", properties: ["path": "%Name", "textPath": "name"])])]
            try session.shell.declare(books)
            try session.shell.declare(book)
            try session.start(home: ["books"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        return web
    }

    @Test func aMillionCharacterNameFromTheAddPromptIsRefused() async throws {
        let web = try await StoredTextLimitTests.serve()
        let b = Browser(web)
        #expect(await b.command(from: "/books", [("command", "add")]).status == 303)
        let prompt = await b.page("/books")
        try #require(prompt.contains("<dialog"), "\(prompt.prefix(300))")
        #expect(await b.command(from: "/books", [("command", "respond"), ("action", "1"), ("fields", StoredTextLimitTests.huge)]).status == 303)
        let page = await b.page("/books")
        #expect(page.contains("must be at most 65536 characters"), "refused, naming the field")
        #expect(!page.contains("AAAAAAAAAA") && page.utf8.count < 100_000, "nothing of it stored or shown: \(page.utf8.count) bytes")
        let other = await Browser(web).page("/books")
        #expect(!other.contains("AAAAAAAAAA") && other.utf8.count < 100_000, "another viewer's page stays small")
        // A name within the limit is taken as before.
        _ = await b.command(from: "/books", [("command", "respond"), ("action", "1"), ("fields", "Emma")])
        #expect(await b.page("/books").contains(">Emma<"))
        // The same through add's own text.
        _ = await b.command(from: "/books", [("command", "add"), ("text", StoredTextLimitTests.huge)])
        let added = await b.page("/books")
        #expect(!added.contains("AAAAAAAAAA") && added.contains("Name must be at most 65536 characters"), "\(added.prefix(2000))")
    }

    @Test func aCellsTooLongTextIsRefusedNamingTheCellInThePersonsLanguage() async throws {
        var options = ServeOptions.unhurried
        options.maxText = 100
        let web = try await StoredTextLimitTests.serve(options, language: "de")
        let b = Browser(web)
        let tap = await b.command(from: "/books", [("command", "tap"), ("row", "1")])
        let detail = try #require(WebAppTests.header(tap, "Location"))
        let long = String(repeating: "é", count: 101)              // characters, not bytes: 202 bytes
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Name"), ("value", long)])
        let refused = await b.page(detail)
        #expect(refused.contains("Name darf höchstens 100 Zeichen haben"), "in German, naming the cell: \(refused)")
        #expect(!refused.contains(long) && refused.contains("value=\"Dune\""), "nothing stored, and the text is not kept")
        // Combining marks count: one letter carrying 200 accents is 201 characters.
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Name"), ("value", "e" + String(repeating: "\u{301}", count: 200))])
        #expect(await b.page(detail).contains("value=\"Dune\""))
        let fits = String(repeating: "é", count: 100)
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Name"), ("value", fits)])
        #expect(await b.page(detail).contains("value=\"\(fits)\""), "100 characters are taken")
    }

    /// A text with the NUL character (`%00`) is refused on the page in a person's words, naming the field as the
    /// page labels it — not PostgreSQL, the model or the entity's id as the engine's message for logs does (web.md
    /// "Security"; a stranger's round six). In another language, the app's "does not take that value".
    @Test func aTextWithNULIsRefusedInAPersonsWordsNamingTheField() async throws {
        let b = Browser(try await StoredTextLimitTests.serve())
        let tap = await b.command(from: "/books", [("command", "tap"), ("row", "1")])
        let detail = try #require(WebAppTests.header(tap, "Location"))
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Name"), ("value", "Du\u{0}ne")])
        let refused = await b.page(detail)
        #expect(refused.contains("Name: a text cannot hold the NUL character; remove it (nothing was changed)."), "\(refused)")
        #expect(!refused.contains("PostgreSQL") && !refused.contains("model") && refused.contains("value=\"Dune\""))
        _ = await b.command(from: "/books", [("command", "add"), ("text", "A\u{0}B")])
        #expect(await b.page("/books").contains("Name: a text cannot hold the NUL character"))

        let de = Browser(try await StoredTextLimitTests.serve(language: "de"))
        let deTap = await de.command(from: "/books", [("command", "tap"), ("row", "1")])
        let deDetail = try #require(WebAppTests.header(deTap, "Location"))
        _ = await de.command(from: deDetail, [("command", "set"), ("cell", "Name"), ("value", "Du\u{0}ne")])
        let german = await de.page(deDetail)
        #expect(!german.contains("PostgreSQL") && !german.contains("NUL") && german.contains("value=\"Dune\""), "\(german)")
    }
}
