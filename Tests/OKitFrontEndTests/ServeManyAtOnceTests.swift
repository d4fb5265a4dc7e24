import Foundation
import OKitTestSupport
import Testing

/// Many people at once on `okit-run serve`, over real sockets (web.md "Sessions and live updates", scale.md): a
/// closed tab's live-update stream gives its `--max-streams` place back at once, and more browsers than one address
/// may hold new sessions for, opening the app at one moment, keep theirs.
@Suite(.serialized) struct ServeManyAtOnceTests {
    /// The status line's code of a live-update stream opened with `cookie` (the socket closed after).
    static func streamStatus(_ port: Int, cookie: String) throws -> Int {
        let fd = try HTTPExchange.openStream(port, "/events", cookie: cookie)
        defer { close(fd) }
        let head = HTTPExchange.read(fd, until: "\r\n\r\n", seconds: 10)
        return Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// With `--max-streams 2`, two tabs' streams closed by their browsers (a FIN, as a closed tab or a reload sends)
    /// free both places within moments; they were held until a keep-alive comment failed, up to 15 s.
    @Test func aStreamClosedByItsBrowserFreesItsPlaceAtOnce() throws {
        let (child, port, _) = try ServeStrangerTests.serve(["--max-streams", "2"])
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let first = try HTTPExchange.request(port, "GET /books")
        let cookie = try #require(first.cookie)
        let tabs = try (0..<2).map { _ in try HTTPExchange.openStream(port, "/events", cookie: cookie) }
        for fd in tabs { #expect(HTTPExchange.read(fd, until: "okit live updates", seconds: 10).contains("okit live updates")) }
        #expect(try Self.streamStatus(port, cookie: cookie) == 503, "both places are taken")
        for fd in tabs { close(fd) }
        var status = 0
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            status = try Self.streamStatus(port, cookie: cookie)
            if status == 200 { break }
            usleep(100_000)
        }
        #expect(status == 200, "a new tab's stream within 5 s of the others closing")
    }

    /// 40 browsers from 127.0.0.1 open the app at one moment: each gets its session (GET /), then comes back with its
    /// cookie (GET /books) and opens its live updates. Before, the 16-per-address cap on sessions that had not come
    /// back yet dropped 24 of them first: their /books started yet another session and /events answered 403.
    @Test func moreBrowsersThanAnAddressMayHoldNewSessionsForKeepTheirs() throws {
        let (child, port, _) = try ServeStrangerTests.serve()
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let cookies = try (0..<40).map { i in try #require(try HTTPExchange.request(port, "GET /").cookie, "browser \(i)") }
        var kept = 0, live = 0
        for cookie in cookies {
            let page = try HTTPExchange.request(port, "GET /books", cookie: cookie)
            if page.status == 200, page.cookie == nil { kept += 1 }
            if try Self.streamStatus(port, cookie: cookie) == 200 { live += 1 }
        }
        #expect(kept == 40, "browsers that kept their session")
        #expect(live == 40, "browsers whose live updates opened")
        // Cookie-less requests from the same address after them make room among their own kind only.
        let strangers = try (0..<20).compactMap { _ in try HTTPExchange.request(port, "GET /books").cookie }
        #expect(strangers.count == 20)
        let stillThere = try cookies.filter { try HTTPExchange.request(port, "GET /books", cookie: $0).cookie == nil }
        #expect(stillThere.count == 40, "the browsers that came back are not taken by newcomers")
    }
}
