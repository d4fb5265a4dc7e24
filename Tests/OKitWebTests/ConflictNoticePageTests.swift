import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// The notice on the page of the session that lost a field to someone else's store (storage.md "Conflicts"): in
/// the app's language, each value as its cell shows it in the language's quotes — not JSON (`"Dune"`, `1500.0`).
@Suite struct ConflictNoticePageTests {
    @Test func theNoticeQuotesValuesAsThePageShowsThem() async throws {
        let web = WebApp(options: .unhurried)
        try await web.load {
            let session = AppSession()
            let engine = session.engine
            engine.locale = AppLocale(language: "de", region: "", timeZone: "UTC")
            try engine.schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("price", .double)])
            try engine.schema.entity("Shop", fields: [try FieldSpec("books", "[Book]")])
            try engine.schema.validate()
            let shop = try engine.register(model: "default", type: "Shop", storage: TransientStorage())
            let dune = try engine.make("Book", ["name": .string("Dune"), "price": .double(12.5)])
            try engine.insert(.entity(dune), into: engine.collection(shop.root, "books"))
            var books = ListDeclaration(id: "books")
            books.type = "Book"
            books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"
            // A store that lost the field to another process's earlier store reports it so.
            books.actions.tap = .function { [unowned session] _, _ in
                session.record(conflict: ConflictRecord(time: Date(), model: "default", type: "Book", id: "dune", field: "price",
                                                        base: "10.0", theirs: "1500.0", mine: "12.5"))
            }
            try session.shell.declare(books)
            try session.start(home: ["books"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        let b = WebAppTests.Browser(web)
        let there = try #require(WebAppTests.header(await b.command(from: "/books", [("command", "tap"), ("row", "1")]), "Location"))
        let page = await b.page(there)
        #expect(page.contains("jetzt „1500“; Ihr Wert „12,5“ wurde nicht gespeichert"), "\(page)")
        #expect(!page.contains("1500.0"))
    }
}
