import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// What a person typed into a field and the cell refused stays in that field (nothing a person types is dropped):
/// the page they get back shows their text, marked invalid with the refusal beside it, on their session's pages only,
/// until they change it, leave the screen or the value is accepted (web.md "Pages and forms", `TypedTexts`).
@Suite struct RefusedTextTests {
    /// A French expenses app: an amount shown as currency and a date, in a detail.
    static func serve() async throws -> WebApp {
        let web = WebApp(options: .unhurried)
        try await web.load {
            let session = AppSession()
            let engine = session.engine
            engine.locale = AppLocale(language: "fr", region: "FR", timeZone: "Europe/Paris")
            try engine.schema.entity("Expense", fields: [FieldSpec("title", .string), FieldSpec("amount", .double),
                                                         FieldSpec("date", .date)])
            try engine.schema.entity("Book", fields: [try FieldSpec("expenses", "[Expense]")])
            try engine.schema.validate()
            let book = try engine.register(model: "default", type: "Book", storage: TransientStorage())
            let taxi = try engine.make("Expense", ["title": .string("Taxi"), "amount": .double(1234.56),
                                                   "date": .date(Date(timeIntervalSince1970: 1_780_000_000))])
            try engine.insert(.entity(taxi), into: engine.collection(book.root, "expenses"))
            var list = ListDeclaration(id: "expenses")
            list.type = "Expense"
            list.dataPath = "expenses"; list.cellPath = "title"; list.titlePath = "#Dépenses"; list.segue = "expense"
            var detail = DetailDeclaration(id: "expense")
            detail.titlePath = "title"
            detail.sections = [SectionDeclaration(cells: [
                CellDeclaration(kind: "text", properties: ["path": "#Titre", "textPath": "title"]),
                CellDeclaration(kind: "text", properties: ["path": "#Montant", "textPath": "amount/currency(#EUR)"]),
                CellDeclaration(kind: "date", properties: ["path": "#Date", "datePath": "date"]),
            ])]
            try session.shell.declare(list)
            try session.shell.declare(detail)
            try session.start(home: ["expenses"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        return web
    }

    /// A browser at the expense's detail in edit mode; the detail's path.
    static func editing(_ web: WebApp) async throws -> (WebAppTests.Browser, String) {
        let b = WebAppTests.Browser(web)
        let detail = try #require(WebAppTests.header(await b.command(from: "/expenses", [("command", "tap"), ("row", "1")]), "Location"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        return (b, detail)
    }

    /// The `value` attribute of the field labelled `label` (nil: no such field).
    static func field(_ label: String, in page: String) -> String? {
        guard let l = page.range(of: ">\(label)</label>"), let v = page[l.upperBound...].range(of: " value=\"") else { return nil }
        return String(page[v.upperBound...].prefix { $0 != "\"" })
    }

    /// The text of the page's error (`role=alert`), or nil.
    static func error(in page: String) -> String? {
        guard let r = page.range(of: "<p role=\"alert\" class=\"okit-error\">") else { return nil }
        return String(page[r.upperBound...].prefix { $0 != "<" })
    }

    @Test func aRefusedNumberStaysInItsFieldWithTheRefusalBesideIt() async throws {
        let (b, detail) = try await Self.editing(try await Self.serve())
        #expect(Self.field("Montant", in: await b.page(detail)) == "1\u{202F}234,56\u{A0}€")
        #expect(await b.command(from: detail, [("command", "set"), ("cell", "Montant"), ("value", "treize")]).status == 303)
        let refused = await b.page(detail)
        let refusal = try #require(Self.error(in: refused), "\(refused)")
        #expect(refusal.contains("treize\u{A0}» n’est pas un nombre comme 1\u{202F}234,56\u{A0}€"), "\(refusal)")
        #expect(Self.field("Montant", in: refused) == "treize", "what was typed is in the field: \(refused)")
        #expect(refused.contains("value=\"treize\" aria-invalid=\"true\" aria-describedby=\"invalid-1-2\""))
        #expect(refused.contains("<p id=\"invalid-1-2\" class=\"okit-invalid\">\(refusal)</p>"), "the refusal beside it")
        #expect(refused.contains("okit-cell-invalid") && Self.field("Titre", in: refused) == "Taxi", "the other fields as they are")
        // The next page of this session still has it (the page's error is said once; the field's message stays).
        let again = await b.page(detail)
        #expect(Self.field("Montant", in: again) == "treize" && again.contains("class=\"okit-invalid\">\(refusal)</p>"), "\(again)")
        #expect(!again.contains("role=\"alert\""))
        // Another refused value replaces it; setting another cell keeps it.
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Montant"), ("value", "douze")])
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Titre"), ("value", "Taxi de nuit")])
        let other = await b.page(detail)
        #expect(Self.field("Montant", in: other) == "douze" && Self.field("Titre", in: other) == "Taxi de nuit", "\(other)")
    }

    @Test func aRefusedDateStaysInItsOpenedField() async throws {
        let (b, detail) = try await Self.editing(try await Self.serve())
        #expect(await b.command(from: detail, [("command", "set"), ("cell", "Date"), ("value", "demain")]).status == 303)
        let refused = await b.page(detail)
        #expect(refused.contains("role=\"alert\""), "\(refused)")
        #expect(refused.contains("<details class=\"okit-date\" open>"), "the date's field is shown")
        #expect(refused.contains("name=\"value\" value=\"demain\" aria-invalid=\"true\" aria-describedby=\"invalid-1-3\">"), "\(refused)")
        #expect(refused.contains("<p id=\"invalid-1-3\" class=\"okit-invalid\">"))
        #expect(Self.field("Date", in: await b.page(detail)) == "demain", "and on the next page")
        // A date the field reads is accepted: the field shows it, closed again.
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Date"), ("value", "2026-05-01T10:00")])
        let accepted = await b.page(detail)
        #expect(Self.field("Date", in: accepted) == "2026-05-01T10:00" && !accepted.contains("okit-invalid"), "\(accepted)")
        #expect(!accepted.contains("<details class=\"okit-date\" open>"))
    }

    @Test func anotherSessionAtTheSameScreenNeverSeesIt() async throws {
        let web = try await Self.serve()
        let (alice, detail) = try await Self.editing(web)
        let (bob, bobs) = try await Self.editing(web)
        #expect(bobs == detail)
        _ = await bob.page(detail)                      // the page the two are shown alike
        _ = await alice.command(from: detail, [("command", "set"), ("cell", "Montant"), ("value", "treize")])
        #expect(Self.field("Montant", in: await alice.page(detail)) == "treize")
        #expect(Self.field("Montant", in: await alice.page(detail)) == "treize", "not answered from a shared page")
        for _ in 0..<2 {
            let page = await bob.page(detail)
            #expect(Self.field("Montant", in: page) == "1\u{202F}234,56\u{A0}€", "\(page)")
            #expect(!page.contains("treize") && !page.contains("okit-invalid") && !page.contains("aria-invalid"))
        }
        let (carol, _) = try await Self.editing(web)
        #expect(!(await carol.page(detail)).contains("treize"), "nor a session that comes later")
    }

    /// A value posted from a page made out of date by someone else's change (a form without the script): nothing is
    /// stored, and the text stays in its field with why, for this session only.
    @Test func aValuePostedFromAnOutOfDatePageStaysInItsField() async throws {
        let web = try await Self.serve()
        let (alice, detail) = try await Self.editing(web)
        let (bob, _) = try await Self.editing(web)
        let old = await alice.page(detail)
        _ = await bob.command(from: detail, [("command", "set"), ("cell", "Titre"), ("value", "Taxi de nuit")])
        let posted = await alice.post("/command", [("csrf", WebAppTests.Browser.attribute("data-csrf", old)),
                                                  ("v", WebAppTests.Browser.attribute("data-version", old)), ("at", detail),
                                                  ("command", "set"), ("cell", "Montant"), ("value", "99")])
        #expect(posted.status == 303)
        let page = await alice.page(detail)
        #expect(page.contains("This page was out of date") || page.contains("n’était plus à jour"), "\(page)")
        #expect(Self.field("Montant", in: page) == "99" && page.contains("aria-invalid=\"true\""), "the typed text stays: \(page)")
        #expect(Self.field("Titre", in: page) == "Taxi de nuit", "the other person's change shows")
        #expect(Self.field("Montant", in: await bob.page(detail)) == "1\u{202F}234,56\u{A0}€", "nothing stored, nothing shown to another")
    }

    @Test func anAcceptedValueForgetsIt() async throws {
        let (b, detail) = try await Self.editing(try await Self.serve())
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Montant"), ("value", "treize")])
        #expect(Self.field("Montant", in: await b.page(detail)) == "treize")
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Montant"), ("value", "12,50 €")])
        let accepted = await b.page(detail)
        #expect(Self.field("Montant", in: accepted) == "12,50\u{A0}€", "\(accepted)")
        #expect(!accepted.contains("treize") && !accepted.contains("okit-invalid") && !accepted.contains("role=\"alert\""))
    }

    @Test func leavingTheScreenOrEditModeForgetsIt() async throws {
        let (b, detail) = try await Self.editing(try await Self.serve())
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Montant"), ("value", "treize")])
        // Edit mode left (the field takes no values): forgotten, and not back when editing again.
        _ = await b.command(from: detail, [("command", "edit"), ("on", "false")])
        #expect(!(await b.page(detail)).contains("treize"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        #expect(Self.field("Montant", in: await b.page(detail)) == "1\u{202F}234,56\u{A0}€")
        // The screen left: back at it, the stored value.
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Montant"), ("value", "treize")])
        #expect(Self.field("Montant", in: await b.page(detail)) == "treize")
        #expect(await b.page("/expenses").contains("Taxi"))
        let again = try #require(WebAppTests.header(await b.command(from: "/expenses", [("command", "tap"), ("row", "1")]), "Location"))
        #expect(again == detail)
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        let back = await b.page(detail)
        #expect(Self.field("Montant", in: back) == "1\u{202F}234,56\u{A0}€" && !back.contains("treize"), "\(back)")
    }
}
