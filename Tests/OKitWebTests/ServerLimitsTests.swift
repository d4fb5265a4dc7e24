import Foundation
import NIOCore
import NIOEmbedded
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// The server's defences (web.md "Limits of the server"), in-process: the `Host` names answered (DNS rebinding),
/// the proxy headers, sessions made only for pages and bounded per client, a new session id at login, and the
/// connection table's eviction of idle connections (slowloris). The same attacks over real sockets are
/// apptests/web/attacks.py.
@Suite struct ServerLimitsTests {
    typealias Browser = WebAppTests.Browser

    @Test func onlyTheNamesTheServerWasStartedForAreAnswered() {
        let loopback = HostCheck(listenHost: "127.0.0.1", allowed: [])
        for ok in ["127.0.0.1:8480", "localhost:8480", "LOCALHOST", "[::1]:8480", "127.0.0.2", "app.localhost:1"] {
            #expect(loopback.allows(ok), "\(ok)")
        }
        for bad in ["evil.example", "evil.example:8480", "127.0.0.1.evil.example", "", "10.0.0.1", "[::1", "a b", "x:y:z",
                    "127.0.0.1:80x"] {
            #expect(!loopback.allows(bad), "\(bad)")
        }
        #expect(!loopback.allows(nil))
        let named = HostCheck(listenHost: "127.0.0.1", allowed: ["books.example.org"])
        #expect(named.allows("books.example.org") && named.allows("Books.Example.org.:443") && !named.allows("example.org"))
        let wildcard = HostCheck(listenHost: "0.0.0.0", allowed: [])
        #expect(wildcard.allows("192.168.1.5:8480") && wildcard.allows("[fe80::1]") && !wildcard.allows("rebind.example"))
        #expect(HostCheck(listenHost: "10.1.2.3", allowed: []).allows("10.1.2.3:8480"))
    }

    /// The quick reading of a plain `Host` value gives what the full one gives, and leaves every other value to it.
    @Test func aPlainHostIsReadAsTheFullReadingReadsIt() {
        for v in ["127.0.0.1:8480", "localhost", "books.example.org:443", "a-b.c", "host:", "a..b", "x1:0"] {
            #expect(HostCheck.plainHostPart(v) == HostCheck.hostPart(v), "\(v)")
        }
        for v in ["LOCALHOST", "books.example.org.", "[::1]:8480", "::1", "a b", "x:y:z", "127.0.0.1:80x", "", " a", "é.example", ":8480"] {
            #expect(HostCheck.plainHostPart(v) == nil, "\(v)")
        }
    }

    @Test func anyProxyHeaderMakesARequestProxiedAndOnlyTheClientHeaderNamesTheClient() {
        func headers(_ pairs: [String: String]) -> (String) -> String? { { name in pairs.first { $0.key.lowercased() == name.lowercased() }?.value } }
        let standard = ProxyHeaders(clientHeader: .forwarded, headers(["Forwarded": "for=192.0.2.60;proto=https;by=203.0.113.43"]))
        #expect(standard.forwarded && standard.https && standard.client == "192.0.2.60")
        let chain = ProxyHeaders(clientHeader: .forwarded, headers(["Forwarded": "for=\"[2001:db8::1]\";proto=http, for=\"[2001:db8::17]:4711\""]))
        #expect(chain.forwarded && !chain.https && chain.client == "2001:db8::17", "brackets and port taken off")
        let classic = ProxyHeaders(headers(["X-Forwarded-For": "1.2.3.4, 5.6.7.8:80", "X-Forwarded-Proto": "https"]))
        #expect(classic.forwarded && classic.https && classic.client == "5.6.7.8")
        // A proxy set up with X-Real-IP and X-Forwarded-Proto only (a common nginx setup) is a proxy too.
        #expect(ProxyHeaders(headers(["X-Forwarded-Proto": "https"])).forwarded)
        #expect(ProxyHeaders(headers(["Via": "1.1 proxy"])).forwarded)
        #expect(!ProxyHeaders(headers([:])).forwarded)
        let real = ProxyHeaders(clientHeader: .xRealIP, headers(["X-Real-IP": " 203.0.113.9 "]))
        #expect(real.forwarded && real.client == "203.0.113.9")
        // A proxy writes one header and passes the others on as the client sent them: only the header it writes
        // names the client. nginx appending to X-Forwarded-For passes a client's own Forwarded and X-Real-IP on;
        // nginx setting X-Real-IP passes a client's own X-Forwarded-For on.
        let sent = ["X-Forwarded-For": "198.51.100.7, 10.0.0.5", "Forwarded": "for=192.0.2.99", "X-Real-IP": "192.0.2.98"]
        #expect(ProxyHeaders(headers(sent)).client == "10.0.0.5")
        #expect(ProxyHeaders(clientHeader: .xRealIP, headers(sent)).client == "192.0.2.98")
        #expect(ProxyHeaders(clientHeader: .forwarded, headers(sent)).client == "192.0.2.99")
        #expect(ProxyHeaders(clientHeader: .xRealIP, headers(["X-Forwarded-For": "198.51.100.7"])).client == nil)
    }

    @Test func aRequestForAnotherHostIsRefusedBeforeASessionExists() async throws {
        let web = try await WebAppTests.serve()
        var request = WebRequest(method: "GET", path: "/books")
        request.host = "rebind.attacker.example"
        let r = await web.handle(request)
        #expect(r.status == 421 && !r.headers.contains { $0.name == "Set-Cookie" })
        // No link onwards: "/" on the same name would be refused the same way.
        #expect(!String(decoding: r.body, as: UTF8.self).contains("<a href"))
        #expect(await web.sessionCount == 0)
        request.host = "127.0.0.1:8480"
        #expect(await web.handle(request).status == 200)
        var proxied = WebRequest(method: "GET", path: "/books")
        proxied.forwarded = true                 // `Forwarded:` alone, as ProxyHeaders reads it
        #expect(await web.handle(proxied).status == 403)
    }

    @Test func anonymousRequestsCannotFillTheSessions() async throws {
        var options = ServeOptions()
        options.maxSessions = 100
        let web = try await WebAppTests.serve(options)
        for i in 0..<120 {
            var r = WebRequest(method: "GET", path: i % 3 == 0 ? "/no-such-screen" : i % 3 == 1 ? "/static/okit.css" : "/books")
            r.client = "203.0.113.9"
            _ = await web.handle(r)
        }
        #expect(await web.sessionCount <= options.maxNewSessionsPerClient)
        var theme = WebRequest(method: "GET", path: "/theme.css")
        theme.client = "203.0.113.10"
        let before = await web.sessionCount
        let css = await web.handle(theme)
        let after = await web.sessionCount
        #expect(css.status == 200 && after == before, "a stylesheet makes no session")
        // 404s, static files and the login page took none; a new visitor and the owner still get in.
        #expect(await Browser(web).get("/books").status == 200)
        #expect(await Browser(web).get("/login").status == 200)
        let errors = await web.sessionCount
        _ = await Browser(web).get("/no-such-screen")
        _ = await Browser(web).get("/login")
        #expect(await web.sessionCount == errors)
    }

    /// Many addresses that never come back (a stranger with a few of them) cannot shut out a new visitor: at the cap
    /// the oldest session that never returned makes room; sessions in use are never taken, and only when every
    /// session is in use does the next visitor get the 503 page.
    @Test func requestsFromManyAddressesCannotShutOutANewVisitor() async throws {
        var options = ServeOptions()
        options.maxSessions = 5
        let web = try await WebAppTests.serve(options)
        let person = Browser(web)
        #expect(await person.get("/books").status == 200)
        #expect(await person.get("/books").status == 200)           // came back: in use
        for i in 0..<64 {
            var r = WebRequest(method: "GET", path: "/books")
            r.client = "198.51.100.\(i % 8 + 1)"
            #expect(await web.handle(r).status == 200, "stranger \(i)")
        }
        #expect(await web.sessionCount == 5)
        let newcomer = Browser(web)
        #expect(await newcomer.get("/books").status == 200, "a new visitor gets in")
        #expect(await newcomer.get("/books").status == 200)
        #expect(await person.get("/books").status == 200 && person.cookie != nil, "the person's session was kept")
        var inUse = [person, newcomer]
        for _ in 0..<3 {
            let b = Browser(web)
            _ = await b.get("/books")
            _ = await b.get("/books")
            inUse.append(b)
        }
        #expect(await Browser(web).get("/books").status == 503, "every session in use: the next one waits")
        for b in inUse { #expect(await b.get("/books").status == 200) }
    }

    /// Live-update streams count against the client's connection cap over all its sessions (a stranger's round
    /// five: one address opened 60 streams over 8 sessions, three times its cap, and took every `--max-streams` slot,
    /// so a victim's page got no live updates).
    @Test func oneAddressCannotTakeEveryLiveUpdateStream() async throws {
        var options = ServeOptions.unhurried
        options.maxStreams = 60
        options.maxClientConnections = 20
        let web = try await WebAppTests.serve(options)
        func request(_ path: String, client: String, cookie: String?) -> WebRequest {
            var r = WebRequest(method: "GET", path: path, sessionCookie: cookie)
            r.client = client
            r.attemptAddress = client
            return r
        }
        var opened = 0, refused = 0
        for _ in 0..<8 {
            let page = await web.handle(request("/books", client: "127.0.0.1", cookie: nil))
            let cookie = try #require(page.headers.first { $0.name == "Set-Cookie" }.map { String($0.value.dropFirst("okit_session=".count).prefix { $0 != ";" }) })
            _ = await web.handle(request("/books", client: "127.0.0.1", cookie: cookie))
            for _ in 0..<10 {
                let stream = await web.handle(request("/events", client: "127.0.0.1", cookie: cookie))
                if stream.status == 200 { opened += 1 } else if stream.status == 503 { refused += 1 }
            }
        }
        #expect(opened == 20 && refused == 60, "one address holds its cap of streams: \(opened) opened, \(refused) refused")
        let victim = await web.handle(request("/books", client: "127.0.0.9", cookie: nil))
        let cookie = try #require(victim.headers.first { $0.name == "Set-Cookie" }.map { String($0.value.dropFirst("okit_session=".count).prefix { $0 != ";" }) })
        #expect(await web.handle(request("/events", client: "127.0.0.9", cookie: cookie)).status == 200, "another address still gets live updates")
    }

    /// A trusted proxy that names no client carries everyone's streams: its address is capped only by the total.
    @Test func aTrustedProxysStreamsAreCappedOnlyByTheTotal() async throws {
        var options = ServeOptions.unhurried
        options.maxStreams = 30
        options.maxClientConnections = 2
        options.trustedProxies = ["10.0.0.10"]
        let web = try await WebAppTests.serve(options)
        var page = WebRequest(method: "GET", path: "/books")
        page.client = "::ffff:10.0.0.10"
        let cookie = try #require(await web.handle(page).headers.first { $0.name == "Set-Cookie" }
            .map { String($0.value.dropFirst("okit_session=".count).prefix { $0 != ";" }) })
        var opened = 0
        for _ in 0..<5 {
            var r = WebRequest(method: "GET", path: "/events", sessionCookie: cookie)
            r.client = "::ffff:10.0.0.10"
            if await web.handle(r).status == 200 { opened += 1 }
        }
        #expect(opened == 5)
    }

    @Test func aSessionThatNeverCameBackIsDroppedSoon() async throws {
        // The time is stated, not slept: with a limit of 0.2 s, a loaded machine (the whole suite at once) let more
        // than that pass between `again`'s two GETs, the sweep before the second dropped it, and none was left.
        var options = ServeOptions()
        options.newSessionSeconds = 30
        let web = try await WebAppTests.serve(options)
        let once = Browser(web)
        let again = Browser(web)
        _ = await once.get("/books")
        _ = await again.get("/books")
        _ = await again.get("/books")                      // came back with its cookie
        await web.sweepIdle(now: Date().addingTimeInterval(31))
        #expect(await web.sessionCount == 1)
        #expect(await again.get("/books").status == 200)
    }

    @Test func loggingInGivesTheSessionANewId() async throws {
        var options = ServeOptions()
        options.token = "s3cret-token"
        let web = try await WebAppTests.serve(options)
        let b = Browser(web)
        _ = await b.get("/books")
        let before = try #require(b.cookie)
        let login = String(decoding: await b.get("/login").body, as: UTF8.self)
        let csrf = Browser.attribute("name=\"csrf\" value", login)
        #expect(await b.post("/login", [("csrf", "1.2.3"), ("token", "s3cret-token")]).status == 403)
        #expect(await b.post("/login", [("csrf", csrf), ("token", "s3cret-token")]).status == 303)
        let after = try #require(b.cookie)
        #expect(after != before)
        // The old id is gone: a request with it gets no logged-in session.
        let fixated = Browser(web)
        fixated.cookie = before
        _ = await fixated.get("/books")
        #expect(fixated.cookie != before)
        #expect(await web.sessionCount == 2)
    }

    @Test func theLoginTokenIsSignedAndExpires() {
        let tokens = LoginTokens()
        let t = tokens.make()
        #expect(tokens.valid(t) && !LoginTokens().valid(t))
        #expect(!tokens.valid(t + "0") && !tokens.valid("") && !tokens.valid("a.b.c"))
        #expect(!tokens.valid(tokens.make(now: Date(timeIntervalSinceNow: -2 * LoginTokens.lifetime))))
    }

    @Test func theConnectionIdleTheLongestMakesRoom() throws {
        var options = ServeOptions()
        options.maxConnections = 3
        options.maxClientConnections = 2
        let table = ConnectionTable(options)
        let t0: UInt64 = 1_000_000_000, later = t0 + 1_000_000_000
        let a = EmbeddedChannel(), b = EmbeddedChannel(), c = EmbeddedChannel(), d = EmbeddedChannel(), e = EmbeddedChannel()
        for ch in [a, b, c, d, e] { try ch.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait() }
        #expect(table.open(a, client: "x", now: t0) && table.open(b, client: "x", now: t0))
        table.mark(b, idle: false)                           // b is answering a request
        #expect(table.open(c, client: "x", now: later))      // the client's cap: a (idle) goes
        #expect(!a.isActive && b.isActive && table.count == 2)
        table.mark(c, idle: false)
        #expect(!table.open(d, client: "x", now: later))     // none of x's is idle: the new one is refused
        #expect(table.open(d, client: "y", now: later))
        table.mark(d, idle: false)
        #expect(!table.open(e, client: "z", now: later))     // the total cap, nothing idle
        table.forget(b)                                      // b became a live-update stream
        #expect(table.open(e, client: "z", now: later) && table.count == 3)
    }

    @Test func aTrustedProxyIsCappedOnlyByTheTotal() throws {
        var options = ServeOptions()
        options.maxConnections = 3
        options.maxClientConnections = 1
        options.trustedProxies = ["127.0.0.1"]
        let table = ConnectionTable(options)
        let channels = (0..<4).map { _ in EmbeddedChannel() }
        for ch in channels { try ch.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait() }
        for ch in channels.prefix(3) {
            #expect(table.open(ch, client: "127.0.0.1"))
            table.mark(ch, idle: false)
        }
        #expect(table.count == 3 && channels.prefix(3).allSatisfy(\.isActive))   // past the per-client cap of 1
        #expect(!table.open(channels[3], client: "127.0.0.1"))                  // the total still holds
        let other = EmbeddedChannel()
        #expect(!table.open(other, client: "192.0.2.7"))                          // and for everyone else
    }

    @Test func aTrustedProxyIsKnownInEveryFormOfItsAddress() throws {
        var options = ServeOptions()
        options.maxClientConnections = 1
        options.trustedProxies = ["10.0.0.10", "0:0:0:0:0:0:0:1"]
        let table = ConnectionTable(options)
        // A dual-stack listener sees an IPv4 peer as ::ffff:10.0.0.10; ::1 is 0:0:0:0:0:0:0:1 written short.
        for client in ["::ffff:10.0.0.10", "::ffff:10.0.0.10", "::1", "::1"] {
            let ch = EmbeddedChannel()
            #expect(table.open(ch, client: client), "\(client)")
            table.mark(ch, idle: false)
        }
        let first = EmbeddedChannel(), second = EmbeddedChannel()
        #expect(table.open(first, client: "10.0.0.11"))
        table.mark(first, idle: false)
        #expect(!table.open(second, client: "10.0.0.11"), "another address keeps its cap")
        #expect(HostCheck.canonicalAddress("::FFFF:10.0.0.10") == "10.0.0.10")
        #expect(HostCheck.canonicalAddress("2001:DB8:0:0:0:0:0:1") == "2001:db8::1")
        #expect(HostCheck.canonicalAddress("nginx.local") == nil)
    }
}
