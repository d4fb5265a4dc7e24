import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// The web app in-process (no sockets): sessions by cookie, commands as forms with their CSRF and version
/// checks, live updates, the session cap, the proxy and token rules, deep links.
@Suite struct WebAppTests {
    /// A bookshop (transient model) with a list and a detail screen, served with `options`.
    /// `virtualNow`: the app's clock stands there (a recording then writes no `advance` for a slow machine's pauses).
    static func serve(_ options: ServeOptions = .unhurried, protectionMinutes: Double? = nil, virtualNow: Date? = nil,
                      authenticate: (@Sendable () throws -> Bool)? = nil) async throws -> WebApp {
        let web = WebApp(options: options)
        try await web.load {
            var sessionOptions = SessionOptions()
            sessionOptions.virtualNow = virtualNow
            let session = AppSession(options: sessionOptions)
            session.callbacks.authenticate = authenticate
            let schema = session.engine.schema
            try schema.entity("Book", fields: [FieldSpec("name", .string)])
            try schema.entity("Shop", fields: [try FieldSpec("books", "[Book]"), FieldSpec("locked", .bool), FieldSpec("dark", .bool)])
            try schema.validate()
            _ = try session.engine.register(model: "default", type: "Shop", storage: TransientStorage())
            var books = ListDeclaration(id: "books")
            books.type = "Book"
            books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"; books.segue = "book"
            books.addName = "name"
            var book = DetailDeclaration(id: "book")
            book.titlePath = "name"
            try session.shell.declare(books)
            try session.shell.declare(book)
            var settings = DetailDeclaration(id: "settings", kind: "settings")
            settings.titlePath = "%Settings"
            settings.editAlways = "#true"
            settings.sections = [SectionDeclaration(cells: [
                CellDeclaration(kind: "switch", id: "Protection", properties: ["path": "%Protection", "onPath": "locked"]),
                CellDeclaration(kind: "switch", id: "Dark", properties: ["path": "%Dark", "onPath": "dark"]),
            ])]
            try session.shell.declare(settings)
            try session.shell.declare(WebAppTests.menu(MenuItem(title: "%Settings", present: "settings")))
            session.shell.settingsBindings["protection"] = "locked"
            if let minutes = protectionMinutes {
                session.shell.settingsBindings["protection"] = "#true"
                session.shell.settingsBindings["protectionTimeout"] = "#\(minutes)"
            }
            try session.start(home: ["books"], menu: "menu")
            return WebHostedApp(session: session, owner: nil)
        }
        return web
    }

    /// A menu of the books whose items present screens: what opens them, so a URL may name them (web.md "URLs name
    /// where the person is").
    static func menu(_ items: MenuItem...) -> MenuDeclaration {
        var list = ListDeclaration(id: "menu")
        list.type = "Book"; list.dataPath = "books"; list.cellPath = "name"; list.titlePath = "%Menu"
        var menu = MenuDeclaration(list: list)
        menu.items = items
        return menu
    }

    /// A browser: keeps its cookie, follows nothing by itself.
    final class Browser: @unchecked Sendable {
        // @unchecked Sendable: used by one test at a time, from one task.
        var cookie: String?
        /// The login form's cookie (`okit_login`), which its token is tied to.
        var loginCookie: String?
        var forwarded = false
        let web: WebApp
        init(_ web: WebApp) { self.web = web }

        /// A GET as the server makes it (`WebApp.respond`): when the session's fast answer was used, the engine is
        /// asked too and must have answered the same (every test that GETs a page checks the fast answers).
        func get(_ path: String) async -> WebResponse {
            let parts = path.split(separator: "?", maxSplits: 1).map(String.init)
            var request = WebRequest(method: "GET", path: parts[0], query: parts.count > 1 ? parts[1] : "",
                                     sessionCookie: cookie, forwarded: forwarded)
            request.loginCookie = loginCookie
            let r: WebResponse
            if let fast = await web.fastAnswer(request) {
                let engine = await web.handle(request)
                #expect(fast.status == engine.status && fast.body == engine.body, "the fast answer of \(path) is the engine's")
                #expect(fast.headers.map(\.name) == engine.headers.map(\.name) && fast.headers.map(\.value) == engine.headers.map(\.value))
                r = fast
            } else {
                r = await web.handle(request)
            }
            take(r)
            return r
        }

        func post(_ path: String, _ form: [(name: String, value: String)]) async -> WebResponse {
            var request = WebRequest(method: "POST", path: path, form: form, sessionCookie: cookie, forwarded: forwarded)
            request.loginCookie = loginCookie
            let r = await web.handle(request)
            take(r)
            return r
        }

        func take(_ r: WebResponse) {
            for c in r.headers where c.name == "Set-Cookie" {
                let value = String(c.value.drop { $0 != "=" }.dropFirst().prefix { $0 != ";" })
                if c.value.hasPrefix("okit_login=") { loginCookie = value } else { cookie = value }
            }
        }

        /// The page at `path` as text.
        func page(_ path: String) async -> String { String(decoding: await get(path).body, as: UTF8.self) }

        /// Posts a command from the page at `path` (its csrf, version and place).
        func command(from path: String, _ fields: [(name: String, value: String)]) async -> WebResponse {
            let html = await page(path)
            return await post("/command", [("csrf", Browser.attribute("data-csrf", html)), ("v", Browser.attribute("data-version", html)),
                                           ("at", path)] + fields)
        }

        static func attribute(_ name: String, _ html: String) -> String {
            guard let r = html.range(of: name + "=\"") else { return "" }
            return String(html[r.upperBound...].prefix { $0 != "\"" })
        }
    }

    static func header(_ r: WebResponse, _ name: String) -> String? { r.headers.first { $0.name == name }?.value }

    @Test func aFirstVisitGetsASessionAndLandsOnHome() async throws {
        let b = Browser(try await WebAppTests.serve())
        let r = await b.get("/")
        #expect(r.status == 303 && WebAppTests.header(r, "Location") == "/books")
        #expect(WebAppTests.header(r, "Set-Cookie")?.contains("HttpOnly; SameSite=Strict") == true)
        let page = await b.get("/books")
        #expect(page.status == 200)
        #expect(WebAppTests.header(page, "Content-Security-Policy")?.hasPrefix("default-src 'self'") == true)
        #expect(WebAppTests.header(page, "X-Content-Type-Options") == "nosniff")
        #expect(String(decoding: page.body, as: UTF8.self).contains(">Books</h1>"))
    }

    @Test func aPresentedScreenWithoutACloseOfItsOwnHasOne() async throws {
        // A settings screen opened from the menu: OKit gives it no Close, and a browser had no way back but the menu.
        let web = try await WebAppTests.serve()
        let b = Browser(web)
        let presented = await b.page("/books/!/settings")
        #expect(presented.contains("name=\"command\" value=\"close\"") && presented.contains(">Close</button>"), "\(presented)")
        let closed = await b.command(from: "/books/!/settings", [("command", "close")])
        #expect(closed.status == 303 && WebAppTests.header(closed, "Location") == "/books", "\(closed.status) \(WebAppTests.header(closed, "Location") ?? "")")
        #expect(!(await b.page("/books")).contains(">Close</button>"), "a screen that is not presented has none")
    }

    @Test func aPostWithoutTheCSRFTokenIsRefusedAndChangesNothing() async throws {
        let web = try await WebAppTests.serve()
        let b = Browser(web)
        _ = await b.page("/books")
        let r = await b.post("/command", [("csrf", "0123"), ("v", "1"), ("at", "/books"), ("command", "add"), ("text", "X")])
        #expect(r.status == 403)
        #expect(!(await b.page("/books")).contains("okit-alert"))
    }

    @Test func addingThroughThePromptShowsTheBookAndTellsTheOtherSessionLive() async throws {
        let web = try await WebAppTests.serve()
        let alice = Browser(web), bob = Browser(web)
        _ = await bob.page("/books")
        let events = try #require(await bob.get("/events").events)
        var it = events.makeAsyncIterator()
        #expect(await it.next()?.contains("okit live updates") == true)
        #expect(await alice.command(from: "/books", [("command", "add")]).status == 303)
        #expect(await alice.page("/books").contains("<dialog open"))
        #expect(await alice.command(from: "/books", [("command", "respond"), ("action", "1"), ("fields", "Dune <b>")]).status == 303)
        #expect(await it.next()?.hasPrefix("event: stale") == true)
        let page = await bob.page("/books")
        #expect(page.contains("Dune &lt;b&gt;"))
    }

    @Test func aPostFromAnOutdatedPageAppliesNothingAndSaysSo() async throws {
        let web = try await WebAppTests.serve()
        let alice = Browser(web), bob = Browser(web)
        let old = await alice.page("/books")
        _ = await bob.command(from: "/books", [("command", "add"), ("text", "Emma")])
        // alice's page still shows no rows; her post carries its old version
        let r = await alice.post("/command", [("csrf", Browser.attribute("data-csrf", old)), ("v", Browser.attribute("data-version", old)),
                                              ("at", "/books"), ("command", "add")])
        #expect(r.status == 303)
        let now = await alice.page("/books")
        #expect(now.contains("out of date") && !now.contains("<dialog open"))
    }

    @Test func deepLinksLandWhereTheySayOrOnTheNearestScreen() async throws {
        let web = try await WebAppTests.serve()
        let b = Browser(web)
        _ = await b.command(from: "/books", [("command", "add"), ("text", "Dune")])
        let list = await b.page("/books")
        let link = try #require(list.range(of: "href=\"/books/book~").map { "/books/book~" + list[$0.upperBound...].prefix { $0 != "\"" } })
        let detail = await b.page(link)
        #expect(detail.contains(">Dune</h1>"))
        let gone = await b.get("/books/book~NOSUCHID")
        #expect(gone.status == 303 && WebAppTests.header(gone, "Location") == "/books")
        #expect(await b.page("/books").contains("no longer exists"))
        #expect(await b.get("/nosuchtab").status == 404)
    }

    /// A person at a book another person deletes lands on the nearest screen that still exists, with the notice a
    /// URL naming a gone entity gets, at the next page they load (a reload, the live update's re-GET).
    @Test func aScreenWhoseEntityAnotherSessionDeletedLandsOnTheNearestOne() async throws {
        let web = try await WebAppTests.serve()
        let a = Browser(web), b = Browser(web)
        _ = await a.command(from: "/books", [("command", "add"), ("text", "Dune")])
        let list = await b.page("/books")
        let link = try #require(list.range(of: "href=\"/books/book~").map { "/books/book~" + list[$0.upperBound...].prefix { $0 != "\"" } })
        #expect(await b.page(link).contains(">Dune</h1>"))
        _ = await a.command(from: "/books", [("command", "delete"), ("row", "1")])
        if await a.page("/books").contains("<dialog") { _ = await a.command(from: "/books", [("command", "respond"), ("action", "1")]) }
        #expect(!(await a.page("/books")).contains(">Dune<"), "deleted")
        let again = await b.get(link)
        #expect(again.status == 303 && WebAppTests.header(again, "Location") == "/books", "\(again.status)")
        #expect(await b.page("/books").contains("no longer exists"))
    }

    @Test func processCommandsAndUnknownRoutesAreRefused() async throws {
        let web = try await WebAppTests.serve()
        let b = Browser(web)
        #expect(await b.command(from: "/books", [("command", "quit")]).status == 400)
        #expect(await b.post("/elsewhere", []).status == 404)
        let deleted = await b.web.handle(WebRequest(method: "DELETE", path: "/books", sessionCookie: b.cookie))
        #expect(deleted.status == 405 && WebAppTests.header(deleted, "Allow") == "GET, HEAD, POST")
    }

    @Test func theSessionCapAnswers503() async throws {
        var options = ServeOptions()
        options.maxSessions = 1
        let web = try await WebAppTests.serve(options)
        let first = Browser(web)
        #expect(await first.get("/books").status == 200)
        #expect(await first.get("/books").status == 200)          // came back: a session in use
        let busy = await Browser(web).get("/books")
        #expect(busy.status == 503 && WebAppTests.header(busy, "Retry-After") == "60")
    }

    @Test func requestsThroughAProxyNeedAToken() async throws {
        let open = Browser(try await WebAppTests.serve())
        open.forwarded = true
        #expect(await open.get("/books").status == 403)
        var options = ServeOptions()
        options.token = "s3cret-token"
        let b = Browser(try await WebAppTests.serve(options))
        b.forwarded = true
        let first = await b.get("/books")
        #expect(first.status == 303 && WebAppTests.header(first, "Location") == "/login")
        let login = String(decoding: await b.get("/login").body, as: UTF8.self)
        let csrf = Browser.attribute("name=\"csrf\" value", login)
        #expect(await b.post("/login", [("csrf", csrf), ("token", "wrong")]).status == 403)
        #expect(await b.post("/login", [("csrf", csrf), ("token", "s3cret-token")]).status == 303)
        #expect(await b.get("/books").status == 200)
    }

    @Test func anIdleSessionIsCoveredAndTheOthersAreNot() async throws {
        // The times are stated, not slept: a sleep past a short timeout let a loaded machine (the whole suite at once,
        // or the sanitizers) leave bob idle as long as alice. Alice was last seen before `aliceSeen`, bob after it and
        // 10 ms later at least; the sweep's clock is the timeout (20 minutes, under the idle limit of 30) and 5 ms past `aliceSeen`.
        // 20 minutes, not one: under the sanitizers more than a minute passed between bob's two pages, and the
        // sweep on the server's own clock covered him too.
        var options = ServeOptions()
        options.newSessionSeconds = 7200                    // alice, seen once, is covered, not dropped as new
        let web = try await WebAppTests.serve(options, protectionMinutes: 20)
        let alice = Browser(web)
        #expect(!(await alice.page("/books")).contains("type=\"password\""))
        let aliceSeen = Date()
        try await Task.sleep(nanoseconds: 10_000_000)
        let bob = Browser(web)
        _ = await bob.page("/books")
        await web.sweepIdle(now: aliceSeen.addingTimeInterval(1200.005))
        let covered = await alice.page("/books")
        #expect(covered.contains("type=\"password\"") && !covered.contains(">Books</h1>"))
        #expect(await bob.page("/books").contains(">Books</h1>"))            // bob was not idle
        // No passphrase set and no app function: the cover lifts (the app's own rule).
        #expect(await alice.command(from: "/books", [("command", "authenticate"), ("passphrase", "x")]).status == 303)
        #expect(await alice.page("/books").contains(">Books</h1>"))
    }

    /// The app's own `authenticate` decides on the web too: false keeps the cover whatever is typed.
    @Test func theAppsAuthenticateFunctionDecidesTheCover() async throws {
        var options = ServeOptions()
        options.newSessionSeconds = 600
        let web = try await WebAppTests.serve(options, protectionMinutes: 1, authenticate: { false })
        let alice = Browser(web)
        _ = await alice.page("/books")
        await web.sweepIdle(now: Date().addingTimeInterval(120))
        #expect(await alice.page("/books").contains("type=\"password\""))
        _ = await alice.command(from: "/books", [("command", "authenticate"), ("passphrase", "x")])
        _ = await alice.command(from: "/books", [("command", "authenticate")])
        _ = await alice.command(from: "/books", [("command", "authenticate"), ("ok", "true")])
        let page = await alice.page("/books")
        #expect(page.contains("type=\"password\"") && !page.contains(">Books</h1>"), "still covered")
    }

    @Test func withATokenTheSettingsThatActOnEveryonesDataNeedTheLogin() async throws {
        var options = ServeOptions()
        options.token = "s3cret-token"
        let web = try await WebAppTests.serve(options)
        let b = Browser(web)                                   // loopback: no login needed to use the app
        #expect(await b.get("/books").status == 200)
        let opened = await b.command(from: "/books", [("command", "menuItem"), ("title", "Settings")])
        let at = try #require(WebAppTests.header(opened, "Location"))
        #expect(at.hasPrefix("/books/!/settings"))
        #expect(await b.page(at).contains(">Settings</h1>"))
        _ = await b.command(from: at, [("command", "set"), ("cell", "Protection"), ("value", "true")])
        let refused = await b.page(at)
        #expect(refused.contains("log in with the token"))
        #expect(!refused.contains("checked"))                  // nothing changed
        _ = await b.command(from: at, [("command", "set"), ("cell", "Dark"), ("value", "true")])
        #expect(!(await b.page(at)).contains("log in with the token"))   // a setting of one's own
    }

    @Test func aLongListIsShownAPageAtATimeAndAnUnchangedPageIsSentAgain() async throws {
        var options = ServeOptions()
        options.pageRows = 2
        let web = try await WebAppTests.serve(options)
        let b = Browser(web)
        for name in ["Anna", "Dune", "Emma"] { _ = await b.command(from: "/books", [("command", "add"), ("text", name)]) }
        let first = await b.page("/books")
        #expect(first.contains("href=\"/books?offset=2\""))
        #expect(await b.page("/books") == first)                      // the same bytes, from the session's cache
        let next = await b.page("/books?offset=2")
        #expect(next.contains("okit-row") && next != first)
        _ = await Browser(web).command(from: "/books", [("command", "add"), ("text", "Zorro")])
        #expect(await b.page("/books") != first)                      // another session's book: a new page
    }
}
