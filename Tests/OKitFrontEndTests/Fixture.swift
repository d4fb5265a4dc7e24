import Foundation
import OKitEngine
import OKitWeb

/// A bookshop with a counter screen (CounterKind/), on a transient model: the counter kind is registered once, in
/// the session's options, and every front end takes it from there.
enum Fixture {
    static func session(home: [String] = ["tally", "books"]) throws -> AppSession {
        var options = SessionOptions()
        try options.screenKinds.register(.counter)
        let session = AppSession(options: options)
        let schema = session.engine.schema
        try schema.entity("Book", fields: [FieldSpec("name", .string)])
        try schema.entity("Shop", fields: [try FieldSpec("books", "[Book]"), FieldSpec("count", .int)])
        try schema.validate()
        _ = try session.engine.register(model: "default", type: "Shop", storage: TransientStorage())
        var books = ListDeclaration(id: "books")
        books.type = "Book"
        books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"; books.addName = "name"
        var tally = CounterDeclaration(id: "tally")
        tally.titlePath = "%Tally"
        try session.shell.declare(books)
        try session.shell.declare(tally)
        try session.start(home: home, menu: nil)
        return session
    }
}

/// A browser for the web app in-process: keeps its cookie; posts forms from the page it read last.
final class Browser: @unchecked Sendable {
    // @unchecked Sendable: used by one test at a time, from one task.
    var cookie: String?
    var page = ""
    let web: WebApp
    init(_ web: WebApp) { self.web = web }

    func get(_ path: String) async -> WebResponse {
        let r = await web.handle(WebRequest(method: "GET", path: path, sessionCookie: cookie))
        take(r)
        page = String(decoding: r.body, as: UTF8.self)
        return r
    }

    /// Posts a command from the page at `path` with its csrf, version and place.
    func command(from path: String, _ fields: [(name: String, value: String)]) async -> WebResponse {
        _ = await get(path)
        let form = [("csrf", attribute("data-csrf")), ("v", attribute("data-version")), ("at", path)] + fields
        let r = await web.handle(WebRequest(method: "POST", path: "/command", form: form, sessionCookie: cookie))
        take(r)
        return r
    }

    func take(_ r: WebResponse) {
        if let c = r.headers.first(where: { $0.name == "Set-Cookie" })?.value {
            cookie = String(c.dropFirst("okit_session=".count).prefix { $0 != ";" })
        }
    }

    func attribute(_ name: String) -> String {
        guard let r = page.range(of: name + "=\"") else { return "" }
        return String(page[r.upperBound...].prefix { $0 != "\"" })
    }
}
