import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// Sessions held without an open page (their tabs closed, or not opened yet) cost nothing on a write: only the
/// sessions with a live-update stream have their page made again for their re-GET (`refreshFastAnswers`); the others'
/// snapshots are computed at their next GET. Seven hundred such sessions, a hundred and fifty of them at a place of
/// their own, made every re-GET after a write wait ~1 s on a server that had served many.
@Suite struct IdleSessionsOnAWriteTests {
    typealias Browser = WebAppTests.Browser

    @Test func aWriteMakesAgainOnlyThePagesOfSessionsWithAStream() async throws {
        let web = try await WebAppTests.serve()
        let writer = Browser(web)
        for name in ["Anna", "Dune", "Emma"] { _ = await writer.command(from: "/books", [("command", "add"), ("text", name)]) }
        let list = await writer.page("/books")
        let href = try #require(list.range(of: "href=\"/books/book~"))
        let book = "/books/book~" + list[href.upperBound...].prefix { $0 != "\"" }
        var idle: [(Browser, String)] = []
        for i in 0..<30 {
            let b = Browser(web)
            let place = [book, "/books", "/books?text=un", "/books?offset=1"][i % 4]
            _ = await b.page(place)
            _ = await b.page(place)         // came back: held until it is idle for 30 minutes
            idle.append((b, place))
        }
        let viewer = Browser(web)
        _ = await viewer.page("/books")
        _ = try #require(await viewer.get("/events?at=/books&v=1").events)
        let remade = await web.fastAnswersRemade
        _ = await writer.command(from: "/books", [("command", "add"), ("text", "Zorro")])
        // The viewer's re-GET waits for the refresh, then is answered without the engine.
        let fast = try #require(await FastAnswersTests.fast(web, viewer))
        #expect(fast.contains(">Zorro<"))
        #expect(await web.fastAnswersRemade == remade + 1, "the one session with a stream, not the 30 without")
        // The lists' snapshots read what the write changed (a book's detail did not): none of them computed again.
        let listIds = Set(idle.filter { $0.1 != book }.compactMap(\.0.cookie))
        #expect(listIds.count == 22)
        #expect(await web.staleSnapshots(of: listIds) == listIds.count, "no snapshot of a session without a stream was computed on the write")
        // Each one's next GET is the engine's, and shows the write where it shows the list.
        for (b, place) in idle where place == "/books" {
            #expect(await FastAnswersTests.fast(web, b) == nil)
            #expect(await b.page(place).contains(">Zorro<"))
        }
    }
}
