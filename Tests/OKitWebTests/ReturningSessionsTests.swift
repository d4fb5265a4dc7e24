import Foundation
import Synchronization
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

    /// Every browser of 24 opening the list at one moment from one address, then its stream with the page's place and
    /// version, is told of the next write — those whose session went to make room and came back too (their streams
    /// answered 200 and were never told: the session came back at its home, with no page followed).
    @Test func theStreamsOfSessionsThatCameBackAreToldOfAWrite() async throws {
        let web = try await Self.serve()
        let writer = Browser(web)
        _ = await writer.page("/books")
        _ = await writer.page("/books")            // came back: not among those that make room
        let browsers = (0..<24).map { _ in Browser(web) }
        var pages: [String] = []
        for b in browsers { pages.append(await b.page("/books")) }
        #expect(await web.sessionCount < 25, "some went to make room")
        var streams: [EventReader] = []
        for (b, page) in zip(browsers, pages) {
            let r = await b.get("/events?at=/books&v=" + Browser.attribute("data-version", page))
            let it = EventReader(try #require(r.events))
            #expect(await it.next()?.contains("okit live updates") == true)
            streams.append(it)
        }
        #expect(await web.sessionCount == 25)
        _ = await writer.command(from: "/books", [("command", "add"), ("text", "Dune")])
        for i in streams.indices {
            #expect(await streams[i].next()?.hasPrefix("event: stale") == true, "browser \(i) told")
            let page = await browsers[i].page("/books")
            #expect(page.contains(">Dune<") && Browser.attribute("data-csrf", page) == Browser.attribute("data-csrf", pages[i]))
        }
    }

    /// A returning session's page already out of date when its stream opens (a write while it was away) is told at
    /// once.
    @Test func aReturningPageOutOfDateIsToldAtOnce() async throws {
        let web = try await Self.serve()
        let writer = Browser(web)
        let b = Browser(web)
        let page = await b.page("/books")
        for _ in 0..<16 { _ = await Browser(web).get("/books") }
        _ = await writer.command(from: "/books", [("command", "add"), ("text", "Dune")])
        let r = await b.get("/events?at=/books&v=" + Browser.attribute("data-version", page))
        let it = EventReader(try #require(r.events))
        #expect(await it.next()?.contains("okit live updates") == true)
        #expect(await it.next()?.hasPrefix("event: stale") == true)
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

/// A stream's events read as they come, in a task of their own: `next` gives the next one, or nil when none came
/// within `seconds` (a stream never told fails the test instead of hanging it; no test asserts how soon).
final class EventReader: Sendable {
    private final class Inbox: Sendable {
        let got = Mutex<[String]>([])
    }
    private let inbox = Inbox()
    private let reading: Task<Void, Never>

    init(_ events: AsyncStream<String>) {
        let inbox = self.inbox
        reading = Task { for await e in events { inbox.got.withLock { $0.append(e) } } }
    }

    deinit { reading.cancel() }

    func next(within seconds: Double = 20) async -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let e = inbox.got.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return e }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return nil
    }
}
