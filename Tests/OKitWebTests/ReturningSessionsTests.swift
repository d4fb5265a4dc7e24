import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// Browsers whose session went to make room before they came back (ReturningSessions.swift, web.md "Sessions"):
/// more than 16 opening the app at one moment from one address keep their sessions; cookie-less requests still
/// cannot fill `--sessions`.
@Suite struct ReturningSessionsTests {
    typealias Browser = WebAppTests.Browser

    /// Served with sessions that never came back kept an hour: the whole suite at once on a loaded machine let more
    /// than a minute pass inside one test, and the sessions and their ids were gone by the clock.
    static func serve() async throws -> WebApp {
        var options = ServeOptions()
        options.newSessionSeconds = 3600
        return try await WebAppTests.serve(options)
    }

    @Test func fortyBrowsersFromOneAddressAtOnceKeepTheirSessions() async throws {
        let web = try await Self.serve()
        let browsers = (0..<40).map { _ in Browser(web) }
        for b in browsers { #expect(await b.get("/").status == 303) }
        #expect(await web.sessionCount == 16, "the address's cap on sessions that did not come back")
        let given = browsers.map(\.cookie)
        for b in browsers {
            let page = await b.get("/books")
            #expect(page.status == 200 && WebAppTests.header(page, "Set-Cookie") == nil, "no new session")
            #expect(await b.get("/events").status == 200, "live updates")
        }
        #expect(browsers.map(\.cookie) == given)
        #expect(await web.sessionCount == 40)
    }

    /// A page answered to a session that then went to make room: its form still works (same id and CSRF token).
    @Test func aFormFromThePageOfASessionThatWentToMakeRoomIsAnswered() async throws {
        let web = try await Self.serve()
        let b = Browser(web)
        let page = await b.page("/books")
        for _ in 0..<16 { _ = await Browser(web).get("/books") }
        let r = await b.post("/command", [("csrf", Browser.attribute("data-csrf", page)), ("v", Browser.attribute("data-version", page)),
                                          ("at", "/books"), ("command", "add"), ("text", "Dune")])
        #expect(r.status == 303)
        let now = await b.page("/books")
        #expect(now.contains(">Dune<") && !now.contains("out of date"))
    }

    /// Only an id the server gave and dropped to make room comes back; a made-up one starts a new session, and
    /// cookie-less requests still hold at most 16 sessions of an address.
    @Test func onlyADroppedIdComesBack() async throws {
        var options = ServeOptions()
        options.maxSessions = 100
        let web = try await WebAppTests.serve(options)
        for _ in 0..<120 { _ = await Browser(web).get("/books") }
        #expect(await web.sessionCount <= options.maxNewSessionsPerClient)
        let stranger = Browser(web)
        stranger.cookie = RandomToken.make()
        let made = stranger.cookie
        _ = await stranger.get("/books")
        #expect(stranger.cookie != made)
    }

    @Test func droppedIdsAreKeptForALimitedTimeAndNumber() {
        var dropped = DroppedSessions()
        let t0 = Date()
        dropped.add(id: "a", csrf: "ca", at: t0)
        #expect(dropped.peek("a", now: t0.addingTimeInterval(59), lifetime: 60)?.csrf == "ca")
        #expect(dropped.peek("a", now: t0.addingTimeInterval(61), lifetime: 60) == nil)
        #expect(dropped.take("a", now: t0, lifetime: 60) != nil && dropped.take("a", now: t0, lifetime: 60) == nil, "taken once")
        for i in 0..<(DroppedSessions.capacity + 1) { dropped.add(id: "\(i)", csrf: "", at: t0) }
        #expect(dropped.peek("0", now: t0, lifetime: 60) == nil, "the oldest are forgotten past the capacity")
        #expect(dropped.peek("\(DroppedSessions.capacity)", now: t0, lifetime: 60) != nil)
    }
}
