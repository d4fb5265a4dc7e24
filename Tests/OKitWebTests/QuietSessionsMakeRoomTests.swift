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
        // The quiet minute is passed as a later `now` (a test run's slow moments must not let the periodic sweep of
        // sessions that never came back drop them while the test sets up: the options stay unhurried).
        var options = ServeOptions.unhurried
        options.maxSessions = 4
        let web = try await WebAppTests.serve(options)
        let browsers = (0..<4).map { _ in Browser(web) }
        var streams: [WebResponse] = []
        for b in browsers {
            _ = await b.page("/books")
            streams.append(await b.get("/events?at=/books&v=1"))
        }
        #expect(await web.sessionCount == 4)
        #expect(await Browser(web).get("/books").status == 503, "every session has a page open")
        // Three browsers close their tabs; one keeps its page open. A day later (beyond the quiet limit) room is made.
        for r in streams.dropFirst() { r.sink?.end() }
        let kept = try #require(browsers[0].cookie)
        // A stream's end reaches its session on a task of its own (late in a loaded test run): each step is tried
        // until it takes, "later" counted from the moment of the try.
        func later() -> Date { Date().addingTimeInterval(options.newSessionSeconds + 1) }
        for left in [3, 2, 1] {
            var count = await web.sessionCount
            for _ in 0..<6000 where count > left {
                await web.dropAQuietSession(now: later())
                count = await web.sessionCount
                if count > left { try await Task.sleep(nanoseconds: 10_000_000) }
            }
            #expect(count == left)
        }
        await web.dropAQuietSession(now: later())
        #expect(await web.sessionCount == 1)
        #expect(await web.hasSession(kept), "the session with a page open is never the one to go")
    }
}
