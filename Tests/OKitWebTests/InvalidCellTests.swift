import Testing
@testable import OKitEngine
@testable import OKitWeb

/// A detail cell whose value breaks a field rule (lua-api.md "Validation") shows the rule's message at the cell,
/// escaped, and its field points at it.
@Suite struct InvalidCellTests {
    static func page(invalid: String?) -> String {
        var row = Fixtures.cell("text", "Name", ControlSnapshot(value: .string(""), enabled: true, placeholder: "Name"))
        row.id = "Name"
        row.invalid = invalid
        var screen = ScreenSnapshot(id: "book", kind: "detail")
        screen.editing = true
        screen.sections = [SectionSnapshot(header: nil, footer: nil, rows: [row])]
        screen.rowCount = 1
        return PageRenderer.renderString(Snapshot(app: Fixtures.app(), screen: screen), Fixtures.context())
    }

    @Test func theMessageIsShownAtTheCellAndTheFieldPointsAtIt() {
        let html = InvalidCellTests.page(invalid: "Name is required \(Fixtures.evil)")
        #expect(html.contains("<p id=\"invalid-1-1\" class=\"okit-invalid\">Name is required &lt;script&gt;alert(1)&lt;/script&gt;</p>"), "\(html)")
        #expect(html.contains("aria-invalid=\"true\" aria-describedby=\"invalid-1-1\""))
        #expect(html.contains("okit-cell-invalid"))
        #expect(!html.contains(Fixtures.evil))
    }

    @Test func aValidCellHasNoMessage() {
        let html = InvalidCellTests.page(invalid: nil)
        #expect(!html.contains("okit-invalid") && !html.contains("aria-invalid"))
    }
}

/// The same through the server: a refused `set` is the page's error and changes nothing; a value that breaks a
/// rule (the code field starts empty) shows its message at the cell until a valid one is set.
@Suite struct InvalidCellServerTests {
    static func serve() async throws -> WebApp {
        let web = WebApp(options: .unhurried)
        try await web.load {
            let session = AppSession()
            let schema = session.engine.schema
            try schema.entity("Book", fields: [FieldSpec("name", .string, rules: FieldRules(required: true)),
                                               FieldSpec("code", .string, rules: FieldRules(required: true))])
            try schema.entity("Shop", fields: [try FieldSpec("books", "[Book]")])
            try schema.validate()
            let shop = try session.engine.register(model: "default", type: "Shop", storage: TransientStorage())
            let dune = try session.engine.make("Book", ["name": .string("Dune")])
            try session.engine.insert(.entity(dune), into: session.engine.collection(shop.root, "books"))
            var books = ListDeclaration(id: "books")
            books.type = "Book"
            books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"; books.segue = "book"
            var book = DetailDeclaration(id: "book")
            book.titlePath = "%Book"
            book.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "text", properties: ["path": "%Name", "textPath": "name"]),
                                                        CellDeclaration(kind: "text", properties: ["path": "%Code", "textPath": "code"])])]
            try session.shell.declare(books)
            try session.shell.declare(book)
            try session.start(home: ["books"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        return web
    }

    @Test func aRefusedSetIsThePagesErrorAndAnInvalidValueShowsAtTheCell() async throws {
        let b = WebAppTests.Browser(try await InvalidCellServerTests.serve())
        let tap = await b.command(from: "/books", [("command", "tap"), ("row", "1")])
        let detail = try #require(WebAppTests.header(tap, "Location"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        let opened = await b.page(detail)
        #expect(opened.contains("class=\"okit-invalid\">Code is required</p>"), "\(opened)")
        #expect(await b.command(from: detail, [("command", "set"), ("cell", "Name"), ("value", "")]).status == 303)
        let refused = await b.page(detail)
        #expect(refused.contains("<p role=\"alert\" class=\"okit-error\">Name is required</p>"), "\(refused)")
        // The field stays as the person left it (empty), said invalid with the rule's message (RefusedTextTests).
        #expect(refused.contains("value=\"\" aria-invalid=\"true\" aria-describedby=\"invalid-1-1\""), "\(refused)")
        #expect(refused.contains("class=\"okit-invalid\">Name is required</p>"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "false")])
        #expect(await b.page(detail).contains("value=\"Dune\""), "nothing changed")
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Code"), ("value", "D1")])
        #expect(!(await b.page(detail)).contains("okit-invalid"), "valid now")
    }
}
