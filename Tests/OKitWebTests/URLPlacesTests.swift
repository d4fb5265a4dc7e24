import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// A URL names only a place the app reaches by its segues, at most `LocationPath.maxScreens` deep, and a page's
/// breadcrumb grows with its depth, not its square (web.md "URLs name where the person is"; an outside tester's
/// round three: `/books` + `/dates`×8000 made a 192 MB page; `/books/dates` a list with no book behind it).
@Suite struct URLPlacesTests {
    typealias Browser = WebAppTests.Browser

    /// Books open a book; a book opens its dates (a cell) and itself again (a cell, on the same book); authors open
    /// nothing.
    static func serve(language: String = "en") async throws -> WebApp {
        let web = WebApp(options: ServeOptions())
        try await web.load {
            let session = AppSession()
            let engine = session.engine
            try engine.schema.entity("BookDate", fields: [FieldSpec("note", .string)])
            try engine.schema.entity("Book", fields: [FieldSpec("name", .string), try FieldSpec("dates", "[BookDate]")])
            try engine.schema.entity("Author", fields: [FieldSpec("name", .string)])
            try engine.schema.entity("Shop", fields: [try FieldSpec("books", "[Book]"), try FieldSpec("authors", "[Author]")])
            try engine.schema.validate()
            let shop = try engine.register(model: "default", type: "Shop", storage: TransientStorage())
            for name in ["Dune", "Emma"] {
                let book = try engine.make("Book", ["name": .string(name)])
                try engine.insert(.entity(book), into: engine.collection(shop.root, "books"), append: true)
                try engine.insert(.entity(try engine.make("BookDate", ["note": .string("first of " + name)])),
                                  into: engine.collection(book, "dates"), append: true)
            }
            try engine.insert(.entity(try engine.make("Author", ["name": .string("Jane")])), into: engine.collection(shop.root, "authors"))
            engine.locale.language = language
            var books = ListDeclaration(id: "books")
            books.type = "Book"; books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"; books.segue = "book"
            books.search = "#true"
            var book = DetailDeclaration(id: "book")
            book.titlePath = "name"
            book.sections = [SectionDeclaration(cells: [
                CellDeclaration(kind: "table", id: "Dates", properties: ["path": "%Dates", "segue": "dates"]),
                CellDeclaration(kind: "table", id: "Again", properties: ["path": "%Again", "segue": "book"]),
            ])]
            var dates = ListDeclaration(id: "dates")
            dates.type = "BookDate"; dates.dataPath = "dates"; dates.cellPath = "note"; dates.titlePath = "%Release Dates"
            var authors = ListDeclaration(id: "authors")
            authors.type = "Author"; authors.dataPath = "authors"; authors.cellPath = "name"; authors.titlePath = "%Authors"
            try session.shell.declare(books)
            try session.shell.declare(book)
            try session.shell.declare(dates)
            try session.shell.declare(authors)
            try session.start(home: ["books", "authors"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        return web
    }

    /// The URLs of the books list's rows, in order.
    static func bookURLs(_ b: Browser) async -> [String] {
        let page = await b.page("/books")
        return page.components(separatedBy: "href=\"/books/book~").dropFirst().map { "/books/book~" + $0.prefix { $0 != "\"" } }
    }

    @Test func aURLOfThousandsOfScreensLandsOnTheNearestRealOneAtOnce() async throws {
        let b = Browser(try await URLPlacesTests.serve())
        let deep = await b.get("/books" + String(repeating: "/dates", count: 8000))
        #expect(deep.status == 303 && WebAppTests.header(deep, "Location") == "/books", "\(deep.status)")
        let page = await b.page("/books")
        #expect(page.contains("That screen no longer exists; this is the nearest one that does."))
        #expect(page.utf8.count < 20_000)
    }

    @Test func aURLNamesOnlyPlacesTheScreensBeforeItOpen() async throws {
        let b = Browser(try await URLPlacesTests.serve())
        let urls = await URLPlacesTests.bookURLs(b)
        try #require(urls.count == 2)
        let (dune, emma) = (urls[0], urls[1])
        let emmaId = String(emma.dropFirst("/books/book~".count)), duneId = String(dune.dropFirst("/books/book~".count))
        let duneDates = dune + "/dates~" + duneId      // the link the book's Dates cell is (the cell opens them on the book)
        // (URL, where it lands): the books list opens a book by a row, not the dates; authors open nothing; a book's
        // own cell opens that book again, not another.
        for (url, lands) in [("/books/dates", "/books"), ("/authors/dates/book/dates", "/authors"), ("/books/book", "/books"),
                             (duneDates + "/dates", duneDates), (dune + "/dates", dune), (dune + "/dates~" + emmaId, dune),
                             (dune + "/book~" + emmaId, dune),
                             ("/books/book~NOSUCH", "/books")] {
            let r = await b.get(url)
            #expect(r.status == 303 && WebAppTests.header(r, "Location") == lands, "\(url): \(r.status) \(WebAppTests.header(r, "Location") ?? "")")
            #expect(await b.page(lands).contains("That screen no longer exists"), "\(url)")
        }
        let datesPage = await b.get(duneDates)
        #expect(datesPage.status == 200 && String(decoding: datesPage.body, as: UTF8.self).contains("first of Dune"))
        #expect(await b.page(dune).contains("href=\"\(duneDates)\""), "the page links to that place")
        #expect(await b.get(dune + "/book~" + duneId).status == 200)
        #expect(await b.get(emma).status == 200)
    }

    @Test func aURLNamesAtMostMaxScreensAndTheBreadcrumbStaysShort() async throws {
        let b = Browser(try await URLPlacesTests.serve())
        let dune = try #require(await URLPlacesTests.bookURLs(b).first)
        let again = "/book~" + dune.dropFirst("/books/book~".count)
        let r = await b.get(dune + String(repeating: again, count: 40))
        let bound = dune + String(repeating: again, count: LocationPath.maxScreens - 1)
        #expect(r.status == 303 && WebAppTests.header(r, "Location") == bound)
        let page = await b.page(bound)
        #expect(page.contains("That screen no longer exists"))
        let crumb = try #require(page.components(separatedBy: "okit-breadcrumb").dropFirst().first?.components(separatedBy: "</nav>").first)
        // The tab's first screen, "…", the last four below this one, and this one.
        #expect(crumb.components(separatedBy: "<li").count - 1 == WebApp.breadcrumbScreens + 3, "\(crumb)")
        #expect(crumb.contains("<li>…</li>") && crumb.contains("<a href=\"/books\">Books</a>"))
        #expect(crumb.utf8.count < (WebApp.breadcrumbScreens + 2) * (bound.utf8.count + 200), "linear in the depth")
    }

    @Test func theWebTakesNoOpenOrPresentOfAnyScreen() async throws {
        let b = Browser(try await URLPlacesTests.serve())
        for name in ["open", "present"] {
            let r = await b.command(from: "/books", [("command", name), ("id", "dates")])
            #expect(r.status == 400, "\(name): \(r.status)")
        }
        #expect(!(await b.page("/books")).contains("Release Dates"))
    }

    /// What the outside tester met in okit-run's command-line English under German: a scope by number, a command
    /// the screen does not take.
    @Test func refusalsAreTheAppsWordsNeverTheCommandLines() async throws {
        let b = Browser(try await URLPlacesTests.serve(language: "de"))
        let searched = await b.page("/books?text=Dune&scope=2")
        #expect(!searched.contains("no search scope") && !searched.contains("Das gibt es"), "\(searched)")
        #expect(searched.contains("value=\"Dune\""))
        for fields in [[("command", "quick"), ("row", "1")], [("command", "accessory"), ("row", "1")]] {
            _ = await b.command(from: "/books", fields)
            let page = await b.page("/books")
            #expect(page.contains("Das gibt es auf dieser Seite (nicht mehr); es wurde nichts geändert."), "\(fields): \(page)")
            #expect(!page.contains("does not allow") && !page.contains("screen \""), "\(fields)")
        }
    }
}
