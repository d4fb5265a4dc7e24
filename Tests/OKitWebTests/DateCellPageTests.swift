import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// A date cell on the web (issue 36 item 8): it shows the text the engine gives it (its `detailPath`, else the
/// date in the app's language), never only the browser's own date widget, whose format follows the browser.
@Suite struct DateCellPageTests {
    static func dateSnapshot(detail: String?, editing: Bool = true) -> Snapshot {
        var screen = ScreenSnapshot(id: "book", kind: "detail")
        screen.title = "Dune"
        screen.editing = editing
        var cell = Fixtures.cell("date", "Erschienen", ControlSnapshot(value: .string("2019-05-01T10:00:00Z"), enabled: editing))
        cell.detail = detail
        screen.sections = [SectionSnapshot(header: nil, footer: nil, rows: [cell])]
        screen.rowCount = 1
        return Snapshot(app: Fixtures.app(), screen: screen)
    }

    @Test func aDateShowsTheEnginesTextInTheAppsLanguage() {
        var de = Fixtures.context()
        de.lang = "de"
        let html = PageRenderer.renderString(Self.dateSnapshot(detail: "01.05.2019, 10:00"), de)
        #expect(html.contains("<details class=\"okit-date\"><summary class=\"okit-row-main\"><span class=\"okit-text\">Erschienen</span><span class=\"okit-detail\" id=\"date-1-1\">01.05.2019, 10:00</span></summary>"), "\(html)")
        // Opened, the input edits it; the script sends it on change, Save shows without the script.
        #expect(html.contains("<form method=\"post\" action=\"/command\" class=\"okit-form okit-control okit-auto\">"))
        #expect(html.contains("<label for=\"control-1-1\">Erschienen</label><input type=\"datetime-local\" id=\"control-1-1\" name=\"value\" value=\"2019-05-01T10:00\">"))
        let display = PageRenderer.renderString(Self.dateSnapshot(detail: "01.05.2019, 10:00", editing: false), de)
        #expect(display.contains("<div class=\"okit-row-main\"><span class=\"okit-text\">Erschienen</span><span class=\"okit-detail\" id=\"date-1-1\">01.05.2019, 10:00</span></div>"))
        #expect(!display.contains("datetime-local"), "a date that takes no values is text, not a disabled widget")
    }

    @Test func aDateCellsDetailPathIsShownInEditMode() async throws {
        let web = WebApp(options: .unhurried)
        try await web.load {
            let session = AppSession()
            let engine = session.engine
            try engine.schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("date", .date),
                                                      FieldSpec("edition", .string)])
            try engine.schema.entity("Shop", fields: [try FieldSpec("books", "[Book]")])
            try engine.schema.validate()
            let shop = try engine.register(model: "default", type: "Shop", storage: TransientStorage())
            let dune = try engine.make("Book", ["name": .string("Dune"), "date": .date(Date(timeIntervalSince1970: 1_556_704_800)),
                                                "edition": .string("first edition")])
            try engine.insert(.entity(dune), into: engine.collection(shop.root, "books"))
            var books = ListDeclaration(id: "books")
            books.type = "Book"
            books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"; books.segue = "book"
            var book = DetailDeclaration(id: "book")
            book.titlePath = "name"
            book.sections = [SectionDeclaration(cells: [
                CellDeclaration(kind: "date", properties: ["path": "%Released", "datePath": "date", "detailPath": "edition"]),
            ])]
            try session.shell.declare(books)
            try session.shell.declare(book)
            try session.start(home: ["books"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        let b = WebAppTests.Browser(web)
        let detail = try #require(WebAppTests.header(await b.command(from: "/books", [("command", "tap"), ("row", "1")]), "Location"))
        let display = await b.page(detail)
        #expect(display.contains("<span class=\"okit-detail\" id=\"date-1-1\">first edition</span>"), "shown outside edit mode: \(display)")
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        let editing = await b.page(detail)
        #expect(editing.contains("<span class=\"okit-text\">Released</span><span class=\"okit-detail\" id=\"date-1-1\">first edition</span></summary>"), "\(editing)")
        #expect(editing.contains("type=\"datetime-local\""))
    }

    /// Emptying the date field of an optional date (`date?`) clears it, as emptying a text field clears an optional
    /// text; a date that is not optional refuses it in the app's language, and keeps its date.
    @Test func anEmptiedDateFieldClearsAnOptionalDateOnly() async throws {
        let web = WebApp(options: .unhurried)
        try await web.load {
            let session = AppSession()
            let engine = session.engine
            engine.locale = AppLocale(language: "de", region: "", timeZone: "UTC")
            try engine.schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("date", .date), try FieldSpec("due", "date?")])
            try engine.schema.entity("Shop", fields: [try FieldSpec("books", "[Book]")])
            try engine.schema.validate()
            let shop = try engine.register(model: "default", type: "Shop", storage: TransientStorage())
            let day = Date(timeIntervalSince1970: 1_556_704_800)
            let dune = try engine.make("Book", ["name": .string("Dune"), "date": .date(day), "due": .date(day)])
            try engine.insert(.entity(dune), into: engine.collection(shop.root, "books"))
            var books = ListDeclaration(id: "books")
            books.type = "Book"
            books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"; books.segue = "book"
            var book = DetailDeclaration(id: "book")
            book.titlePath = "name"
            book.sections = [SectionDeclaration(cells: [
                CellDeclaration(kind: "date", properties: ["path": "#Erschienen", "datePath": "date"]),
                CellDeclaration(kind: "date", properties: ["path": "#Fällig", "datePath": "due"]),
            ])]
            try session.shell.declare(books)
            try session.shell.declare(book)
            try session.start(home: ["books"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        let b = WebAppTests.Browser(web)
        let detail = try #require(WebAppTests.header(await b.command(from: "/books", [("command", "tap"), ("row", "1")]), "Location"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        #expect(await b.page(detail).contains("id=\"date-1-2\">01.05.19, 10:00</span>"))
        _ = await b.command(from: detail, [("command", "set"), ("cell", "2"), ("value", "")])
        let cleared = await b.page(detail)
        #expect(!cleared.contains("id=\"date-1-2\""), "the optional date shows none: \(cleared)")
        _ = await b.command(from: detail, [("command", "set"), ("cell", "1"), ("value", "")])
        let refused = await b.page(detail)
        #expect(refused.contains("Erschienen ist erforderlich"), "\(refused)")
        #expect(refused.contains("id=\"date-1-1\">01.05.19, 10:00</span>"), "the date stays")
    }
}
