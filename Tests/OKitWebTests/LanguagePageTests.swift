import Testing
@testable import OKitEngine
@testable import OKitWeb

/// The web page in the app's language (issue 36 items 6, 7): `<html lang>`, the page's own words from the
/// built-in words (an app's strings over OKit's), a field labelled by its cell's title, a breadcrumb of titles.
@Suite struct LanguagePageTests {
    static func serve(language: String, options: ServeOptions = .unhurried,
                      _ configure: @escaping @Sendable (Engine) -> Void = { _ in }) async throws -> WebApp {
        let web = WebApp(options: options)
        try await web.load {
            let session = AppSession()
            let engine = session.engine
            try engine.schema.entity("Owner", fields: [FieldSpec("name", .string, rules: FieldRules(required: true)),
                                                       FieldSpec("phone", .string), FieldSpec("insured", .bool)])
            try engine.schema.entity("Clinic", fields: [try FieldSpec("owners", "[Owner]")])
            try engine.schema.validate()
            let clinic = try engine.register(model: "default", type: "Clinic", storage: TransientStorage())
            let jane = try engine.make("Owner", ["name": .string("Jane"), "phone": .string("5550100")])
            try engine.insert(.entity(jane), into: engine.collection(clinic.root, "owners"))
            engine.strings.add(language: "de", strings: ["Owners": "Besitzer", "Phone": "Telefon", "Save": "Übernehmen",
                                                         "Insured": "Versichert"])
            configure(engine)
            engine.locale.language = language
            var owners = ListDeclaration(id: "owners")
            owners.type = "Owner"
            owners.dataPath = "owners"; owners.cellPath = "name"; owners.titlePath = "%Owners"; owners.segue = "owner"
            owners.search = "#true"
            var owner = DetailDeclaration(id: "owner")
            owner.titlePath = "name"
            owner.sections = [SectionDeclaration(cells: [
                CellDeclaration(kind: "text", properties: ["path": "%Name", "textPath": "name", "placeholder": "#Jane Doe"]),
                CellDeclaration(kind: "text", properties: ["path": "%Phone", "textPath": "phone", "placeholder": "#+1 555 0100"]),
                CellDeclaration(kind: "switch", properties: ["path": "%Insured", "onPath": "insured"]),
            ])]
            try session.shell.declare(owners)
            try session.shell.declare(owner)
            try session.start(home: ["owners"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        return web
    }

    @Test func aGermanPageSaysEverythingInGerman() async throws {
        let b = WebAppTests.Browser(try await LanguagePageTests.serve(language: "de"))
        let list = await b.page("/owners")
        #expect(list.contains("<html lang=\"de\">"), "\(list.prefix(200))")
        #expect(list.contains(">Bearbeiten</button>") && list.contains("placeholder=\"Suchen\""), "\(list)")
        let detail = try #require(WebAppTests.header(await b.command(from: "/owners", [("command", "tap"), ("row", "1")]), "Location"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        let page = await b.page(detail)
        #expect(page.contains(">Zurück</a>") && page.contains(">Fertig</button>"), "\(page)")
        #expect(page.contains("aria-label=\"Pfad\""), "the breadcrumb's own label")
        #expect(page.contains("<a href=\"/owners\">Besitzer</a>"), "the breadcrumb names the screen by its title: \(page)")
        #expect(!page.contains(">owners</a>"))
        #expect(page.contains(">Telefon</label>") && !page.contains(">+1 555 0100</label>"),
                "a field's label is its cell's title, not its placeholder")
        #expect(page.contains(">Übernehmen</button>"), "the app's own string for a built-in word wins")
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Name"), ("value", "")])
        #expect(await b.page(detail).contains("class=\"okit-error\">Name ist erforderlich</p>"))
    }

    /// What a person can meet by typing (a search too long) or from a form that is not the page's own (a row or an
    /// action the page does not have) is said in the app's language, never in okit-run's command-line words.
    @Test func refusedCommandsAreSaidInTheAppsLanguage() async throws {
        let b = WebAppTests.Browser(try await LanguagePageTests.serve(language: "de"))
        let long = await b.page("/owners?text=" + String(repeating: "x", count: SearchText.maxLength + 1))
        #expect(long.contains("Der Suchtext ist zu lang (1001 Zeichen; höchstens 1000)"), "\(long)")
        for fields in [[("command", "button"), ("id", "Nope")], [("command", "tap"), ("row", "Niemand")],
                       [("command", "respond"), ("action", "Nope")]] {
            _ = await b.command(from: "/owners", fields)
            let page = await b.page("/owners")
            #expect(page.contains("Das gibt es auf dieser Seite (nicht mehr); es wurde nichts geändert."), "\(fields): \(page)")
            #expect(!page.contains("no button") && !page.contains("no row") && !page.contains("no alert"))
        }
    }

    /// A value a cell refuses from a form that is not the page's own (a switch's "maybe") is said as the page names
    /// the cell, in the app's words, without the command line's advice.
    @Test func aValueACellRefusesIsSaidByTheCellsTitle() async throws {
        let b = WebAppTests.Browser(try await LanguagePageTests.serve(language: "de"))
        let detail = try #require(WebAppTests.header(await b.command(from: "/owners", [("command", "tap"), ("row", "1")]), "Location"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        _ = await b.command(from: detail, [("command", "set"), ("cell", "3"), ("value", "vielleicht")])
        let page = await b.page(detail)
        #expect(page.contains("Versichert nimmt diesen Wert nicht an; es wurde nichts geändert."), "\(page)")
        #expect(!page.contains("weder"), "no command-line wording")
    }

    @Test func theServersOwnNoticesAreInTheAppsLanguage() async throws {
        let web = try await LanguagePageTests.serve(language: "de")
        let b = WebAppTests.Browser(web)
        let list = await b.page("/owners")
        // A form from a page that is out of date: nothing changes, and the person is told so in German.
        let stale = await b.post("/command", [("csrf", WebAppTests.Browser.attribute("data-csrf", list)), ("v", "0"),
                                              ("at", "/owners"), ("command", "add")])
        #expect(stale.status == 303)
        #expect(await b.page("/owners").contains("Diese Seite war nicht mehr aktuell, daher wurde nichts geändert"))
        // A screen whose entity is gone: the nearest one, said in German.
        #expect(await b.get("/owners/owner~NOSUCHID").status == 303)
        #expect(await b.page("/owners").contains("Diese Ansicht gibt es nicht mehr; dies ist die nächstgelegene."))
        // A cell set outside edit mode (a form from another tab): the person's words, not the command line's.
        let detail = try #require(WebAppTests.header(await b.command(from: "/owners", [("command", "tap"), ("row", "1")]), "Location"))
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Telefon"), ("value", "5550199")])
        let refused = await b.page(detail)
        #expect(refused.contains("Telefon lässt sich nur im Bearbeitungsmodus ändern (Bearbeiten).") && !refused.contains("edit on first"), "\(refused)")
    }

    /// The server's own short pages a person meets are in the app's language too: title, sentence, link, `lang`.
    @Test func theServersShortPagesAreInTheAppsLanguage() async throws {
        let web = try await LanguagePageTests.serve(language: "de")
        let b = WebAppTests.Browser(web)
        _ = await b.page("/owners")
        let missing = await b.get("/nosuchscreen")
        let text = String(decoding: missing.body, as: UTF8.self)
        #expect(missing.status == 404 && text.contains("<html lang=\"de\">") && text.contains("<h1>Nicht gefunden</h1>")
                && text.contains("Diese Ansicht gibt es in dieser App nicht.") && text.contains(">Zur App</a>"), "\(text)")
        let forged = await b.post("/command", [("csrf", "not-the-token"), ("command", "add")])
        let refusal = String(decoding: forged.body, as: UTF8.self)
        #expect(forged.status == 403 && refusal.contains("<h1>Abgelehnt</h1>") && refusal.contains("Sicherheitstoken"), "\(refusal)")
        let nowhere = await b.post("/owners", [("command", "add")])
        let postedNowhere = String(decoding: nowhere.body, as: UTF8.self)
        #expect(nowhere.status == 404 && postedNowhere.contains("Hier gibt es nichts zu senden.") && postedNowhere.contains("<html lang=\"de\">"),
                "a form posted anywhere but /command: \(postedNowhere)")
        let ended = await web.handle(WebRequest(method: "POST", path: "/command", form: [("command", "add")]))
        #expect(ended.status == 403 && String(decoding: ended.body, as: UTF8.self).contains("beendeten Sitzung"))
        // In English the same pages say what they said before.
        let english = await WebAppTests.Browser(try await LanguagePageTests.serve(language: "en")).get("/nosuchscreen")
        let said = String(decoding: english.body, as: UTF8.self)
        #expect(said.contains("<html lang=\"en\">") && said.contains("<h1>Not found</h1>") && said.contains("There is no such screen in this app."))
    }

    @Test func anEnglishPageIsAsItWasButLabelledByTitles() async throws {
        let b = WebAppTests.Browser(try await LanguagePageTests.serve(language: "en"))
        let list = await b.page("/owners")
        #expect(list.contains("<html lang=\"en\">") && list.contains(">Edit</button>"))
        let detail = try #require(WebAppTests.header(await b.command(from: "/owners", [("command", "tap"), ("row", "1")]), "Location"))
        let page = await b.page(detail)
        #expect(page.contains(">Back</a>") && page.contains("<a href=\"/owners\">Owners</a>"), "\(page)")
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        let editing = await b.page(detail)
        #expect(editing.contains(">Phone</label>") && editing.contains(">Save</button>"), "\(editing)")
    }

    /// A language written right to left (Arabic, Hebrew, Persian, Urdu, any other with such a script) gives its
    /// pages `<html dir="rtl">`, the server's short pages too; others have no `dir` (web.md "Pages and forms").
    @Test func aRightToLeftLanguageGivesThePageDirRtl() async throws {
        let web = try await LanguagePageTests.serve(language: "ar_EG")
        let b = WebAppTests.Browser(web)
        let list = await b.page("/owners")
        #expect(list.contains("<html lang=\"ar-EG\" dir=\"rtl\">"), "\(list.prefix(200))")
        let detail = try #require(WebAppTests.header(await b.command(from: "/owners", [("command", "tap"), ("row", "1")]), "Location"))
        #expect(await b.page(detail).contains("<html lang=\"ar-EG\" dir=\"rtl\">"))
        let missing = String(decoding: await b.get("/nosuchscreen").body, as: UTF8.self)
        #expect(missing.contains("<html lang=\"ar-EG\" dir=\"rtl\">"), "\(missing)")
        for lang in ["ar", "he", "fa", "ur", "ps", "yi", "ckb", "pa-Arab"] {
            let page = HTMLDocument(lang: lang, head: [], body: []).render()
            #expect(page.contains("<html lang=\"\(lang)\" dir=\"rtl\">"), "\(lang)")
        }
        for lang in ["en", "de", "ja", "pa", "ru"] {
            #expect(HTMLDocument(lang: lang, head: [], body: []).render().contains("<html lang=\"\(lang)\">"), "\(lang)")
        }
    }

    /// Every page's own words come from `context.words`: the backups page and a list's row actions in German.
    @Test func theRendererTakesItsWordsFromTheContext() {
        var context = Fixtures.context()
        context.lang = "de"
        context.words = BuiltInWords(language: "de")
        let backups = PageRenderer.renderString(Fixtures.backups(), context)
        for word in ["Neues Backup", "Backup erstellen", "Passwort bestätigen", "Wiederherstellen", "Herunterladen",
                     "Backup hochladen", "Hochladen", ">Löschen</button>", ">Zurück</a>"] {
            #expect(backups.contains(word), "\(word)")
        }
        #expect(backups.hasPrefix("<!DOCTYPE html>\n<html lang=\"de\">") || backups.contains("<html lang=\"de\">"))
        let list = PageRenderer.renderString(Fixtures.list(), context)
        #expect(list.contains(">Mehr</button>") && list.contains("value=\"Alle\"") && list.contains(">Bereich</legend>"), "\(list)")
        #expect(!list.contains(">More</button>") && !list.contains(">Search</button>"))
    }
}
