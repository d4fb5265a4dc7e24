import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// Tabs of one browser (one session, one shell) showing different pages: each stream is told when what its own
/// page shows changes (web.md "Sessions and live updates", `TabPlaces`); and a row's More sheet over a book someone
/// else deleted closes in the person's words.
@Suite struct TabPlacesTests {
    typealias Browser = WebAppTests.Browser

    /// The `stale` events a stream got so far (the stream is ended to read them: nothing waits for one more).
    static func staleEvents(_ r: WebResponse) async -> Int {
        r.sink?.finish()
        var n = 0
        if let events = r.events { for await e in events where e.hasPrefix("event: stale") { n += 1 } }
        return n
    }

    /// The link of the row named `name` on the books page.
    static func link(_ name: String, _ list: String) throws -> String {
        let row = try #require(list.range(of: ">\(name)<"))
        let before = list[..<row.lowerBound]
        let href = try #require(before.range(of: "href=\"/books/book~", options: .backwards))
        return "/books/book~" + before[href.upperBound...].prefix { $0 != "\"" }
    }

    @Test func aTabShowingAnotherPageThanTheSessionsLastIsToldOfItsOwnPage() async throws {
        let web = try await WebAppTests.serve()
        let alice = Browser(web), bob = Browser(web)
        _ = await alice.command(from: "/books", [("command", "add"), ("text", "Dune")])
        let dune = try TabPlacesTests.link("Dune", await bob.page("/books"))
        // Bob's first tab shows the list, his second (the same cookie) the detail of Dune, asked for last.
        let list = await bob.page("/books")
        let tab1 = await bob.get("/events?at=/books&v=" + Browser.attribute("data-version", list))
        let detail = await bob.page(dune)
        let tab2 = await bob.get("/events?at=\(dune)&v=" + Browser.attribute("data-version", detail))
        // Alice adds a book: the list changed, Dune's page did not.
        _ = await alice.command(from: "/books", [("command", "add"), ("text", "Emma")])
        #expect(await TabPlacesTests.staleEvents(tab1) == 1, "the list's tab is told, though the session was last at Dune")
        #expect(await TabPlacesTests.staleEvents(tab2) == 0, "Dune's page did not change")
    }

    @Test func aChangeOnlyTheSessionsLastPageShowsTellsOnlyItsTab() async throws {
        let web = try await WebAppTests.serve()
        let alice = Browser(web), bob = Browser(web)
        _ = await alice.command(from: "/books", [("command", "add"), ("text", "Dune")])
        _ = await bob.page("/books")
        let tab1 = await bob.get("/events")               // no place named: the page the session showed last
        _ = await bob.page("/books/!/settings")
        let tab2 = await bob.get("/events?at=/books/!/settings")
        _ = await alice.command(from: "/books/!/settings", [("command", "set"), ("cell", "Dark"), ("value", "true")])
        #expect(await TabPlacesTests.staleEvents(tab2) == 1, "the settings' tab is told")
        #expect(await TabPlacesTests.staleEvents(tab1) == 0, "the list's tab was told of the settings before")
    }

    @Test func aTabsRefreshMovesTheSessionAndTheOtherTabIsStillTold() async throws {
        let web = try await WebAppTests.serve()
        let alice = Browser(web), bob = Browser(web)
        _ = await alice.command(from: "/books", [("command", "add"), ("text", "Dune")])
        let dune = try TabPlacesTests.link("Dune", await bob.page("/books"))
        let tab1 = await bob.get("/events?at=/books")
        _ = await bob.page(dune)
        let tab2 = await bob.get("/events?at=\(dune)")
        _ = await alice.command(from: "/books", [("command", "add"), ("text", "Emma")])
        _ = await bob.page("/books")                      // tab 1 fetches its page: the shell is at the list again
        _ = await alice.command(from: "/books", [("command", "delete"), ("row", "Dune")])
        if await alice.page("/books").contains("<dialog") { _ = await alice.command(from: "/books", [("command", "respond"), ("action", "1")]) }
        #expect(await TabPlacesTests.staleEvents(tab2) == 1, "Dune's tab is told its book went")
        #expect(await TabPlacesTests.staleEvents(tab1) == 2)
    }

    @Test func aPageOutOfDateWhenItOpensItsStreamIsToldAtOnce() async throws {
        let web = try await WebAppTests.serve()
        let alice = Browser(web), bob = Browser(web)
        let old = await bob.page("/books")
        _ = await alice.command(from: "/books", [("command", "add"), ("text", "Dune")])
        _ = await bob.page("/books")
        let stream = await bob.get("/events?at=/books&v=" + Browser.attribute("data-version", old))
        #expect(await TabPlacesTests.staleEvents(stream) == 1)
        let current = await bob.get("/events?at=/books&v=" + Browser.attribute("data-version", await bob.page("/books")))
        #expect(await TabPlacesTests.staleEvents(current) == 0)
    }

    @Test func aStreamOfAGoneSessionIsRefusedBehindALoginToo() async throws {
        var options = ServeOptions.unhurried
        options.token = "secret"
        let web = try await WebAppTests.serve(options)
        let b = Browser(web)
        b.forwarded = true
        b.cookie = "0123456789abcdef0123456789abcdef"
        #expect(await b.get("/events").status == 403, "an EventSource would follow a redirect into the login form")
        #expect(await b.get("/books").status == 303)
    }
}
