import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// The URL names the search (web.md "URLs name where the person is"): a command's redirect, Back and "More rows"
/// carry `text` and `scope`, and a URL without them shows the list unsearched — the search no longer sticks to a
/// session whose address says nothing of it. And a URL that names a row's screen without its row lands on the list.
@Suite struct SearchURLTests {
    typealias Browser = WebAppTests.Browser

    func rows(_ page: String) -> [String] {
        ["Anna", "Dune", "Emma", "Dora"].filter { page.contains(">\($0)<") }
    }

    func shop(_ options: ServeOptions = .unhurried) async throws -> (WebApp, Browser) {
        let web = try await WebAppTests.serve(options)
        let writer = Browser(web)
        for name in ["Anna", "Dune", "Emma", "Dora"] { _ = await writer.command(from: "/books", [("command", "add"), ("text", name)]) }
        return (web, writer)
    }

    @Test func aCommandsRedirectCarriesTheSearchAndAnAddressWithoutItShowsEveryRow() async throws {
        let (web, _) = try await shop()
        let alice = Browser(web)
        #expect(rows(await alice.page("/books?text=d")) == ["Dune", "Dora"])
        let edit = await alice.command(from: "/books?text=d", [("command", "edit"), ("on", "true")])
        #expect(edit.status == 303 && WebAppTests.header(edit, "Location") == "/books?text=d")
        #expect(rows(await alice.page("/books?text=d")) == ["Dune", "Dora"])
        // The tab's link, or the query taken out of the address by hand: every row, the search box empty.
        let all = await alice.page("/books")
        #expect(rows(all) == ["Anna", "Dune", "Emma", "Dora"])
        #expect(!all.contains("value=\"d\""))
        let after = await alice.command(from: "/books", [("command", "edit"), ("on", "false")])
        #expect(WebAppTests.header(after, "Location") == "/books")
        // A text with spaces and other letters comes back as the person typed it.
        _ = await alice.page("/books?text=" + PageContext.pathSegment("Dü &x"))
        let odd = await alice.command(from: "/books?text=" + PageContext.pathSegment("Dü &x"), [("command", "edit"), ("on", "true")])
        #expect(WebAppTests.header(odd, "Location") == "/books?text=D%C3%BC%20%26x")
        #expect(await alice.page(WebAppTests.header(odd, "Location") ?? "").contains("value=\"Dü &amp;x\""))
    }

    @Test func backToASearchedListAndItsMoreRowsKeepTheSearch() async throws {
        var options = ServeOptions()
        options.pageRows = 1
        let (web, _) = try await shop(options)
        let alice = Browser(web)
        let searched = await alice.page("/books?text=d")
        #expect(searched.contains("href=\"/books?text=d&amp;offset=1\""), "More rows keeps the search")
        let open = await alice.command(from: "/books?text=d", [("command", "tap"), ("row", "1")])
        let detail = await alice.page(WebAppTests.header(open, "Location") ?? "")
        #expect(detail.contains("href=\"/books?text=d\""), "Back goes to the searched list")
        let second = await alice.page("/books?text=d&offset=1")
        #expect(rows(second) == ["Dune"], "the second of the books with a d (the newest come first)")
    }

    @Test func aRowsScreenWithoutItsEntityLandsOnTheListWithANotice() async throws {
        let (web, _) = try await shop()
        let alice = Browser(web)
        let answer = await alice.get("/books/book")
        #expect(answer.status == 303 && WebAppTests.header(answer, "Location") == "/books")
        let list = await alice.page("/books")
        #expect(rows(list).count == 4 && list.contains("role=\"status\""), "the list, with the notice that the screen is gone")
    }

    /// Two people at the same book, one of them having come from a searched list: each Back goes to their own list,
    /// though the page is rendered once for both when it can be.
    @Test func backCarriesEachPersonsOwnSearch() async throws {
        let (web, _) = try await shop()
        let alice = Browser(web), bob = Browser(web)
        let aliceOpened = await alice.command(from: "/books?text=dora", [("command", "tap"), ("row", "1")])
        let book = try #require(WebAppTests.header(aliceOpened, "Location"))
        #expect(await alice.page(book).contains("href=\"/books?text=dora\""))
        let bobsPage = await bob.page(book)
        #expect(bobsPage.contains("href=\"/books\"") && !bobsPage.contains("text=dora"), "bob never searched")
        #expect(await alice.page(book).contains("href=\"/books?text=dora\""))
    }

    /// A query is read as strictly as a form's body (a stranger's round six: `?text=%ff` searched for U+FFFD and
    /// `%zz` for itself): a `%` without two hex digits, or escaped bytes that are not UTF-8, answer 400 with the
    /// form's sentence, before anything reads the query; a well-formed one is read as before.
    @Test func aQueryThatIsNotWellFormedIsRefusedAsAFormIs() async throws {
        let (web, _) = try await shop()
        let b = Browser(web)
        for bad in ["/books?text=%ff", "/books?text=%zz", "/books?text=50%", "/books?x=%e2%82"] {
            let r = await b.get(bad)
            #expect(r.status == 400 && String(decoding: r.body, as: UTF8.self).contains("not well formed"), "\(bad): \(r.status)")
        }
        #expect(rows(await b.page("/books?text=%44")) == ["Dune", "Dora"], "%44 is D")
    }
}
