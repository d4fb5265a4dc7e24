import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// At `--sessions`, sessions whose pages are all closed and that have been quiet for a minute make room
/// (`WebApp.dropAQuietSession`): they held the cap until their 30-minute idle limit, and everyone behind the same
/// address as them got the 503 page meanwhile.
@Suite struct QuietSessionsMakeRoomTests {
    typealias Browser = WebAppTests.Browser

    @Test func atTheCapASessionWithItsPagesClosedAndQuietMakesRoomNeverOneWithAPageOpen() async throws {
        var options = ServeOptions.unhurried
        options.maxSessions = 4
        options.newSessionSeconds = 0.2          // "quiet for a minute", shortened
        let web = try await WebAppTests.serve(options)
        let browsers = (0..<4).map { _ in Browser(web) }
        var streams: [WebResponse] = []
        for b in browsers {
            _ = await b.page("/books")
            streams.append(await b.get("/events?at=/books&v=1"))
        }
        #expect(await web.sessionCount == 4)
        #expect(await Browser(web).get("/books").status == 503, "every session has a page open")
        // Three browsers close their tabs; one keeps its page open. A minute (here 0.2 s) later, newcomers come.
        for r in streams.dropFirst() { r.sink?.end() }
        try await Task.sleep(nanoseconds: 600_000_000)
        let kept = try #require(browsers[0].cookie)
        for _ in 0..<3 {
            let newcomer = Browser(web)
            #expect(await newcomer.get("/books").status == 200)
            _ = await newcomer.get("/events?at=/books&v=1")
        }
        #expect(await web.sessionCount == 4)
        #expect(await web.hasSession(kept), "the session with a page open is never the one to go")
        #expect(await Browser(web).get("/books").status == 503, "every session has a page open again")
    }
}
