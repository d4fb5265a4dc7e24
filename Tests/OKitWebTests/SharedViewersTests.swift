import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// Many people on one list (issue 39): the rows are kept once and a page shown alike to many is rendered once —
/// but what is one person's (their search, edit mode, CSRF token, page version) never shows on another's page.
@Suite struct SharedViewersTests {
    typealias Browser = WebAppTests.Browser

    /// The books a page shows, of those the tests add.
    func rows(_ page: String) -> [String] {
        ["Anna", "Dune", "Emma", "Zorro"].filter { page.contains(">\($0)<") }
    }

    func shop() async throws -> (WebApp, Browser) {
        let web = try await WebAppTests.serve()
        let writer = Browser(web)
        for name in ["Anna", "Dune", "Emma"] { _ = await writer.command(from: "/books", [("command", "add"), ("text", name)]) }
        return (web, writer)
    }

    @Test func aPageShownAlikeIsRenderedOnceAndCarriesEachSessionsOwnToken() async throws {
        let (web, _) = try await shop()
        let alice = Browser(web), bob = Browser(web)
        let a = await alice.page("/books"), b = await bob.page("/books")
        let renders = await web.sharedPageCounts.renders
        #expect(await web.sharedPageCounts.reuses >= 1, "bob's page was alice's body")
        #expect(rows(a) == rows(b) && rows(a).count == 3)
        let tokenA = Browser.attribute("data-csrf", a), tokenB = Browser.attribute("data-csrf", b)
        #expect(!tokenA.isEmpty && !tokenB.isEmpty && tokenA != tokenB)
        #expect(!a.contains(tokenB) && !b.contains(tokenA), "no page carries another session's token")
        let standIns = await web.sharedPageStandIns
        #expect(!a.contains(standIns.csrf) && !b.contains(standIns.csrf))
        #expect(!b.contains(standIns.version))
        // Each token works for its own session's commands.
        #expect(await bob.command(from: "/books", [("command", "add"), ("text", "Zorro")]).status == 303)
        #expect(rows(await alice.page("/books")).contains("Zorro"))
        #expect(await web.sharedPageCounts.renders == renders + 1, "one render after the write, for both")
        // A person's text that starts like a stand-in is left as typed.
        _ = await bob.command(from: "/books", [("command", "add"), ("text", "~" + standIns.csrf.prefix(6))])
        #expect(await alice.page("/books").contains(">~" + standIns.csrf.prefix(6) + "<"))
    }

    @Test func onePersonsSearchAndEditModeNeverShowOnAnothersPage() async throws {
        let (web, _) = try await shop()
        let alice = Browser(web), bob = Browser(web)
        _ = await bob.page("/books")
        let searched = await alice.page("/books?text=un")
        #expect(rows(searched) == ["Dune"])
        #expect(await alice.command(from: "/books?text=un", [("command", "edit"), ("on", "true")]).status == 303)
        let bobs = await bob.page("/books")
        #expect(rows(bobs) == ["Anna", "Dune", "Emma"])
        #expect(!bobs.contains("value=\"un\""), "bob's search box is empty")
        #expect(!bobs.contains("okit-delete"), "bob is not in edit mode")
    }

    @Test func anUnchangedPageIsSentAgainFromTheSharedPageWithTheSessionsOwnValues() async throws {
        let (web, writer) = try await shop()
        let alice = Browser(web), bob = Browser(web)
        let a = await alice.page("/books"), b = await bob.page("/books")
        let renders = await web.sharedPageCounts.renders
        // Sent again while nothing changed: the same page, each with its own token and version, and no session
        // keeps a body of its own for it.
        let againA = await alice.page("/books"), againB = await bob.page("/books")
        #expect(againA == a && againB == b)
        #expect(await web.sharedPageCounts.renders == renders)
        #expect(await web.sessionsKeepingOwnBodies == 0)
        let standIns = await web.sharedPageStandIns
        for page in [a, b] { #expect(!page.contains(standIns.csrf) && !page.contains(standIns.version)) }
        #expect(Browser.attribute("data-csrf", a) != Browser.attribute("data-csrf", b))
        // After a write each gets the new rows with a new version of its own, and its token still works.
        _ = await writer.command(from: "/books", [("command", "add"), ("text", "Zorro")])
        let a2 = await alice.page("/books"), b2 = await bob.page("/books")
        #expect(rows(a2).contains("Zorro") && rows(b2).contains("Zorro"))
        #expect(Browser.attribute("data-csrf", a2) == Browser.attribute("data-csrf", a))
        #expect(await alice.command(from: "/books", [("command", "add"), ("text", "Emil")]).status == 303)
        #expect(await web.sessionsKeepingOwnBodies == 0)
    }
}
