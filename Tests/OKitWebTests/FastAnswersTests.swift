import Foundation
import Synchronization
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// Re-GETs answered without the engine (issue 39 item 2, FastAnswers.swift): only a re-GET of the shared page a
/// session is at, only while it is current, only with that session's own token and version — never a page from
/// before a write a browser was told of, and never one person's search, edit mode, notice or token on another's
/// page. (Every test's `Browser.get` also checks each fast answer against the engine's.)
@Suite struct FastAnswersTests {
    typealias Browser = WebAppTests.Browser

    func shop() async throws -> (WebApp, Browser) {
        let web = try await WebAppTests.serve()
        let writer = Browser(web)
        for name in ["Anna", "Dune", "Emma"] { _ = await writer.command(from: "/books", [("command", "add"), ("text", name)]) }
        return (web, writer)
    }

    /// A GET as the server makes it, without the engine's second answer the Browser asks for.
    static func get(_ web: WebApp, _ path: String, _ cookie: String?) async -> String {
        String(decoding: await web.respond(WebRequest(method: "GET", path: path, sessionCookie: cookie)).body, as: UTF8.self)
    }

    static func fast(_ web: WebApp, _ b: Browser, _ path: String = "/books") async -> String? {
        await web.fastAnswer(WebRequest(method: "GET", path: path, sessionCookie: b.cookie)).map { String(decoding: $0.body, as: UTF8.self) }
    }

    @Test func aReGetAfterAWriteIsAnsweredWithoutTheEngineWithTheSessionsOwnValues() async throws {
        let (web, writer) = try await shop()
        let alice = Browser(web), bob = Browser(web)
        let a = await alice.page("/books"), b = await bob.page("/books")
        _ = try #require(await alice.get("/events").events)
        _ = try #require(await bob.get("/events").events)        // a session without a stream is the engine's
        let answered = await web.fastAnswerCount
        let renders = await web.sharedPageCounts.renders
        _ = await writer.command(from: "/books", [("command", "add"), ("text", "Zorro")])
        let a2 = try #require(await FastAnswersTests.fast(web, alice)), b2 = try #require(await FastAnswersTests.fast(web, bob))
        #expect(a2.contains(">Zorro<") && b2.contains(">Zorro<"))
        #expect(await web.fastAnswerCount == answered + 2)
        #expect(await web.sharedPageCounts.renders == renders + 1, "one render for both")
        #expect(Browser.attribute("data-csrf", a2) == Browser.attribute("data-csrf", a))
        #expect(Browser.attribute("data-csrf", b2) == Browser.attribute("data-csrf", b))
        #expect(Browser.attribute("data-csrf", a2) != Browser.attribute("data-csrf", b2))
        // The version is the one the engine gives: a command from the new page is taken, one from the old is not.
        #expect(Browser.attribute("data-version", a2) != Browser.attribute("data-version", a))
        let old = await alice.post("/command", [("csrf", Browser.attribute("data-csrf", a)), ("v", Browser.attribute("data-version", a)),
                                                ("at", "/books"), ("command", "add"), ("text", "Old")])
        let afterOld = await alice.page("/books")
        #expect(old.status == 303 && !afterOld.contains(">Old<") && afterOld.contains("out of date"))
        let standIns = await web.sharedPageStandIns
        for page in [a2, b2] { #expect(!page.contains(standIns.csrf) && !page.contains(standIns.version)) }
    }

    @Test func onePersonsSearchEditModeAndNoticeAreNeverInAnothersFastAnswer() async throws {
        let (web, writer) = try await shop()
        let alice = Browser(web), bob = Browser(web)
        _ = await bob.page("/books")
        _ = try #require(await bob.get("/events").events)        // his page is told of writes: made again for him
        #expect(FastAnswersTests.rows(try #require(await FastAnswersTests.fast(web, bob))).count == 3)
        // Alice searches, turns edit mode on and gets a notice: her next page is the engine's, bob's is unchanged.
        _ = await alice.page("/books?text=un")
        #expect(await alice.command(from: "/books?text=un", [("command", "edit"), ("on", "true")]).status == 303)
        #expect(await FastAnswersTests.fast(web, alice) == nil, "a command's effects are the engine's to show")
        _ = await alice.post("/command", [("csrf", "x"), ("command", "add"), ("text", "Nope")])
        _ = await writer.command(from: "/books", [("command", "add"), ("text", "Zorro")])
        let bobs = try #require(await FastAnswersTests.fast(web, bob))
        #expect(FastAnswersTests.rows(bobs) == ["Anna", "Dune", "Emma", "Zorro"])
        #expect(!bobs.contains("value=\"un\"") && !bobs.contains("okit-delete") && !bobs.contains("role=\"alert\""))
        // A notice waiting for alice: her re-GET is the engine's, which shows it.
        _ = await alice.post("/command", [("csrf", Browser.attribute("data-csrf", await alice.page("/books"))), ("v", "0"),
                                          ("at", "/books"), ("command", "add"), ("text", "Late")])
        #expect(await FastAnswersTests.fast(web, alice) == nil)
        #expect(await alice.page("/books").contains("out of date"))
    }

    static func rows(_ page: String) -> [String] {
        ["Anna", "Dune", "Emma", "Zorro"].filter { page.contains(">\($0)<") }
    }

    @Test func onlyAPlainReGetOfThePlaceShownIsAnsweredFast() async throws {
        let (web, _) = try await shop()
        let alice = Browser(web)
        _ = await alice.page("/books")
        #expect(await FastAnswersTests.fast(web, alice) != nil)
        #expect(await web.fastAnswer(WebRequest(method: "GET", path: "/books", query: "offset=0", sessionCookie: alice.cookie)) == nil)
        #expect(await web.fastAnswer(WebRequest(method: "GET", path: "/books/", sessionCookie: alice.cookie)) == nil)
        #expect(await web.fastAnswer(WebRequest(method: "GET", path: "/books", sessionCookie: "someone-else")) == nil)
        var proxied = WebRequest(method: "GET", path: "/books", sessionCookie: alice.cookie, forwarded: true)
        #expect(await web.fastAnswer(proxied) == nil)
        #expect(await web.respond(proxied).status == 403, "a proxy without a token is refused, as before")
        proxied.forwarded = false
        proxied.host = "evil.example"
        #expect(await web.respond(proxied).status == 421)
    }

    @Test func aLoginsNewIdAndTokenEndTheOldFastAnswer() async throws {
        var options = ServeOptions()
        options.token = "s3cret-token"
        let web = try await WebAppTests.serve(options)
        let b = Browser(web)
        let before = await b.page("/books")
        let oldCookie = b.cookie
        #expect(await FastAnswersTests.fast(web, b) != nil, "on loopback a page needs no login")
        var proxied = WebRequest(method: "GET", path: "/books", sessionCookie: oldCookie, forwarded: true)
        proxied.host = "127.0.0.1"
        #expect(await web.fastAnswer(proxied) == nil)
        #expect(await web.respond(proxied).status == 303, "through a proxy: the login first, as before")
        let login = String(decoding: await b.get("/login").body, as: UTF8.self)
        #expect(await b.post("/login", [("csrf", Browser.attribute("name=\"csrf\" value", login)), ("token", "s3cret-token")]).status == 303)
        #expect(await web.fastAnswer(WebRequest(method: "GET", path: "/books", sessionCookie: oldCookie)) == nil)
        let after = await b.page("/books")
        #expect(Browser.attribute("data-csrf", after) != Browser.attribute("data-csrf", before))
        #expect(await FastAnswersTests.fast(web, b).map { Browser.attribute("data-csrf", $0) } == Browser.attribute("data-csrf", after))
    }

    @Test func aSessionPastItsIdleLimitIsTheEnginesToAnswer() async throws {
        let web = try await WebAppTests.serve(protectionMinutes: 0.005)      // 0.3 s
        let alice = Browser(web)
        _ = await alice.page("/books")
        try await Task.sleep(nanoseconds: 600_000_000)
        #expect(await FastAnswersTests.fast(web, alice) == nil, "only the engine covers an idle session")
        await web.tick()
        #expect(await alice.page("/books").contains("type=\"password\""))
    }

    @Test func aFastAnswerCountsAsTheSessionComingBack() async throws {
        // The times are stated, not slept: under the sanitizers on 2 cores a 0.1 s sleep took longer than any limit
        // a test could choose, and alice looked gone (CI failed on it).
        var options = ServeOptions()
        options.newSessionSeconds = 30
        let web = try await WebAppTests.serve(options)
        let alice = Browser(web), bob = Browser(web)
        let first = await alice.page("/books")
        _ = await bob.page("/books")
        let shown = Date()
        // Alice re-GETs 20 s later (answered fast), bob never comes back: 40 s on, the sweep keeps her, drops him.
        let again = await web.fastAnswer(WebRequest(method: "GET", path: "/books", sessionCookie: alice.cookie),
                                         now: shown.addingTimeInterval(20))
        #expect(again != nil)
        await web.sweepIdle(now: shown.addingTimeInterval(40))
        #expect(await web.sessionCount == 1)
        #expect(await FastAnswersTests.fast(web, bob) == nil)
        #expect(Browser.attribute("data-csrf", await alice.page("/books")) == Browser.attribute("data-csrf", first))
    }
}
