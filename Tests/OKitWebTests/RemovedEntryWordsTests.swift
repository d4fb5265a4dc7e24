import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// What a person meets on a page whose entry someone else deleted, in their words (web.md "Sessions and live
/// updates"): a row's More sheet closes, and a change is named by its field, never by the entry's value.
@Suite struct RemovedEntryWordsTests {
    typealias Browser = WebAppTests.Browser

    struct RemovedEntry: Error, CustomStringConvertible {
        var description: String { "Book was removed from its model and can no longer be used" }
    }

    /// Books with a More sheet ("Mark", which writes the book) and a detail whose name cell is titled by the name
    /// itself and another cell by a label.
    static func serve() async throws -> WebApp {
        let web = WebApp(options: .unhurried)
        try await web.load {
            let session = AppSession()
            let schema = session.engine.schema
            try schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("note", .string)])
            try schema.entity("Shop", fields: [try FieldSpec("books", "[Book]")])
            try schema.validate()
            _ = try session.engine.register(model: "default", type: "Shop", storage: TransientStorage())
            var books = ListDeclaration(id: "books")
            books.type = "Book"
            books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"; books.segue = "book"
            books.addName = "name"
            books.actions.more = "#true"
            books.actions.moreActions = "%Mark"
            // As a script's method on a removed entry fails (okit's Lua: "Book(…) was removed from its model").
            books.actions.moreActionsTap = [.function { e, _ in if e?.state == .removed { throw RemovedEntry() } }]
            var book = DetailDeclaration(id: "book")
            book.titlePath = "name"
            book.editAlways = "#true"
            book.sections = [SectionDeclaration(cells: [
                CellDeclaration(kind: "text", properties: ["path": "name", "textPath": "name"]),
                CellDeclaration(kind: "text", properties: ["path": "%Note", "textPath": "note"]),
            ])]
            try session.shell.declare(books)
            try session.shell.declare(book)
            try session.start(home: ["books"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        return web
    }

    static func delete(_ row: String, by b: Browser) async {
        _ = await b.command(from: "/books", [("command", "delete"), ("row", row)])
        if await b.page("/books").contains("<dialog") { _ = await b.command(from: "/books", [("command", "respond"), ("action", "1")]) }
    }

    @Test func aMoreSheetOverABookSomeoneDeletedClosesAtTheNextPage() async throws {
        let web = try await RemovedEntryWordsTests.serve()
        let w = Browser(web), y = Browser(web)
        _ = await w.command(from: "/books", [("command", "add"), ("text", "Dune")])
        _ = await y.command(from: "/books", [("command", "more"), ("row", "Dune")])
        let sheet = await y.page("/books")
        #expect(sheet.contains("<dialog open") && sheet.contains(">Mark<"), "\(sheet)")
        await RemovedEntryWordsTests.delete("Dune", by: w)
        let after = await y.page("/books")
        #expect(!after.contains("<dialog open") && after.contains("That is not on this page (any more)"), "\(after)")
        // The sheet's answer from the page that still showed it: no script error, the page's words.
        _ = await y.post("/command", [("csrf", Browser.attribute("data-csrf", sheet)), ("v", Browser.attribute("data-version", sheet)),
                                      ("at", "/books"), ("command", "respond"), ("action", "1")])
        let answered = await y.page("/books")
        #expect(!answered.contains("removed") && !answered.contains("role=\"alert\""), "\(answered)")
    }

    @Test func theSheetsAnswerWithoutAPageBetweenIsToldTheBookIsNotThere() async throws {
        let web = try await RemovedEntryWordsTests.serve()
        let w = Browser(web), y = Browser(web)
        _ = await w.command(from: "/books", [("command", "add"), ("text", "Dune")])
        _ = await y.command(from: "/books", [("command", "more"), ("row", "Dune")])
        let sheet = await y.page("/books")
        await RemovedEntryWordsTests.delete("Dune", by: w)
        let r = await y.post("/command", [("csrf", Browser.attribute("data-csrf", sheet)), ("v", Browser.attribute("data-version", sheet)),
                                          ("at", "/books"), ("command", "respond"), ("action", "1"),
                                          ("dialog", Browser.attribute("name=\"dialog\" value", sheet))])
        #expect(r.status == 303)
        let page = await y.page("/books")
        // The sheet closed when the deletion was pushed (the fast answers' refresh) or at this post: either way in
        // the page's words, and the action did not run.
        #expect(page.contains("That is not on this page (any more)") || page.contains("This page was out of date"), "\(page)")
        #expect(!page.contains("removed from its model") && !page.contains("<dialog open"), "\(page)")
    }

    @Test func aChangeLostToADeletionNamesTheFieldNotTheBooksName() async throws {
        let web = try await RemovedEntryWordsTests.serve()
        let w = Browser(web), y = Browser(web)
        _ = await w.command(from: "/books", [("command", "add"), ("text", "Dune")])
        let dune = try TabPlacesTests.link("Dune", await y.page("/books"))
        let detail = await y.page(dune)
        await RemovedEntryWordsTests.delete("Dune", by: w)
        func post(_ cell: String, _ value: String) async -> String {
            _ = await y.post("/command", [("csrf", Browser.attribute("data-csrf", detail)), ("v", Browser.attribute("data-version", detail)),
                                          ("at", dune), ("command", "set"), ("cell", cell), ("value", value)])
            return await y.page("/books")
        }
        let named = await post("name", "Dune 2")
        #expect(named.contains("your change of name to"), "\(named)")
        #expect(!named.contains("your change of Dune to"))
    }

    @Test func aLabelledCellIsNamedByItsLabel() async throws {
        let web = try await RemovedEntryWordsTests.serve()
        let w = Browser(web), y = Browser(web)
        _ = await w.command(from: "/books", [("command", "add"), ("text", "Dune")])
        let dune = try TabPlacesTests.link("Dune", await y.page("/books"))
        let detail = await y.page(dune)
        await RemovedEntryWordsTests.delete("Dune", by: w)
        _ = await y.post("/command", [("csrf", Browser.attribute("data-csrf", detail)), ("v", Browser.attribute("data-version", detail)),
                                      ("at", dune), ("command", "set"), ("cell", "Note"), ("value", "kept")])
        let page = await y.page("/books")
        #expect(page.contains("your change of Note to"), "\(page)")
    }
}
