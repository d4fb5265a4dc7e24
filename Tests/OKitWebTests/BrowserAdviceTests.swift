import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// A storage whose every store is refused with a way out (`Remedy.recover`), as a model whose file could not be
/// read is.
final class RefusingStorage: ModelStorage {
    func load(name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel? { nil }
    func store(_ model: Model, engine: any ModelHost) throws -> StoreOutcome {
        throw StorageError(kind: .io, path: "/srv/shop/okit/data/default.json",
                           message: "this model's file could not be read, so it is not written over", remedy: .recover(model: "default"))
    }
}

/// The web words what a person can do about an error for a browser (`BrowserAdvice`): never okit-run's commands,
/// flags or environment, even when the session words its errors for the command line.
@Suite struct BrowserAdviceTests {
    static func serve() async throws -> WebApp {
        let web = WebApp(options: .unhurried)
        try await web.load {
            var options = SessionOptions()
            options.remedyWording = { _ in "; run okit-run with --recover default to move it aside" }   // a command line's words
            let session = AppSession(options: options)
            let schema = session.engine.schema
            try schema.entity("Book", fields: [FieldSpec("name", .string)])
            try schema.entity("Shop", fields: [try FieldSpec("books", "[Book]")])
            try schema.validate()
            _ = try session.engine.register(model: "default", type: "Shop", storage: RefusingStorage())
            var books = ListDeclaration(id: "books")
            books.type = "Book"
            books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"
            books.addName = "name"
            try session.shell.declare(books)
            try session.start(home: ["books"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        return web
    }

    @Test func aRefusedStoreIsExplainedForABrowser() async throws {
        let web = try await Self.serve()
        let browser = WebAppTests.Browser(web)
        #expect(await browser.command(from: "/books", [("command", "add")]).status == 303)
        #expect(await browser.command(from: "/books", [("command", "respond"), ("action", "1"), ("fields", "Dune")]).status == 303)
        let page = await browser.page("/books")
        #expect(page.contains("this model&#39;s file could not be read, so it is not written over")
                || page.contains("this model's file could not be read, so it is not written over"), "\(page)")
        #expect(page.contains("ask whoever runs this server to repair or restore it"), "\(page)")
        #expect(!page.contains("okit-run") && !page.contains("--recover"), "\(page)")
    }
}
