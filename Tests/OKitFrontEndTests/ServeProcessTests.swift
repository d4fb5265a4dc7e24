import Foundation
import OKitTestSupport
import Testing

/// `okit-run serve` started as a person starts it and spoken to over real sockets: a viewer's live stream told of
/// another person's write, the re-GET that follows, many connections at once and the stop that stores. The server's
/// tasks run on its event loops (`WebServer.runTasksOnEventLoops`, docs/unsafe.md): this is the test that a served
/// process still answers, pushes and stops as before with them there.
@Suite(.serialized) struct ServeProcessTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Book", { name = "string" })
    okit.entity("Shop", { books = "[Book]" })
    okit.model("Shop", { seed = function(root)
      for _, n in ipairs { "Alpha", "Bravo", "Charlie" } do root.books:append(okit.new("Book", { name = n })) end
    end })
    okit.list("books", { type = "Book", dataPath = "books", titlePath = "%Books", rowSort = "name",
      cell = { path = "name" }, segue = "book" })
    okit.detail("book", { titlePath = "name", sections = { { okit.cell.text { path = "name", textPath = "name" } } } })
    okit.app { id = "served", home = "books" }
    """

    @Test func aWriteIsPushedToAViewerWhoseReGetAndManyConnectionsAtOnceSeeIt() throws {
        let folder = try TempFolder()
        let appFile = folder.url.appendingPathComponent("app.lua")
        try Self.app.write(to: appFile, atomically: true, encoding: .utf8)
        let data = folder.url.appendingPathComponent("data")
        let child = try ChildProcess.start(OKitRun.binary.path, ["serve", appFile.path, "--data", data.path, "--port", "0"],
                                           stderr: .stdout)
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let port = try #require(Self.port(child), "no serving line: \(child.outputSoFar)")

        // A viewer: its own session, the list once, its live stream open.
        let first = try HTTPExchange.request(port, "GET /books")
        #expect(first.status == 200)
        let viewer = try #require(first.cookie, "no session cookie")
        let stream = try HTTPExchange.openStream(port, "/events", cookie: viewer)
        defer { close(stream) }

        // A writer in another session renames Alpha from its detail screen.
        let list = try HTTPExchange.request(port, "GET /books")
        let writer = try #require(list.cookie)
        let book = try #require(list.body.firstMatch(of: /href="(\/books\/book~[^"]+)"/).map { String($0.1) })
        #expect(try HTTPExchange.command(port, cookie: writer, at: book, ["command": "edit", "on": "true"]) == 303)
        #expect(try HTTPExchange.command(port, cookie: writer, at: book, ["command": "set", "cell": "1", "value": "Renamed"]) == 303)

        // The viewer is told, and its re-GET shows the new name; so do 48 GETs at once, each a connection of its own.
        let told = HTTPExchange.read(stream, until: "event: stale", seconds: 30)
        #expect(told.contains("event: stale"), "the viewer's stream said: \(told)")
        let again = try HTTPExchange.request(port, "GET /books", cookie: viewer)
        #expect(again.status == 200 && again.body.contains("Renamed"))
        let answers = Mutex48()
        DispatchQueue.concurrentPerform(iterations: 48) { _ in
            let a = try? HTTPExchange.request(port, "GET /books", cookie: viewer)
            answers.add(a?.status == 200 && a?.body.contains("Renamed") == true)
        }
        #expect(answers.good == 48)

        // A form whose fields are not well formed is refused with 400, before anything runs.
        for bad in ["command=%zz", "command=tap&row=%E0%A4%A", "command=%FF%FE"] {
            let page = try HTTPExchange.request(port, "GET /books", cookie: viewer)
            let csrf = page.body.firstMatch(of: /data-csrf="([^"]+)"/).map { String($0.1) } ?? ""
            let answer = try HTTPExchange.request(port, "POST /command", cookie: viewer, form: "csrf=\(csrf)&at=/books&" + bad)
            #expect(answer.status == 400 && answer.body.contains("not well formed"), "\(bad): \(answer.status)")
        }

        try refusesRequestsNamingAnotherHost(port, viewer: viewer)

        // SIGTERM stores every model and ends the process 128 + 15.
        child.signal(SIGTERM)
        let ended = child.wait(timeout: 60)
        #expect(ended.code == 143, "\(ended.out)")
        let stored = try String(contentsOf: data.appendingPathComponent("okit/data/default.json"), encoding: .utf8)
        #expect(stored.contains("\"Renamed\""))
    }

    /// Two Host headers, and an absolute-form request line naming another site, are refused (DNS rebinding,
    /// RFC 9112 §3.2); this server's own name in the request line is answered.
    func refusesRequestsNamingAnotherHost(_ port: Int, viewer: String) throws {
        // Two Host headers, in either order and even when they are the same, are one request naming two hosts: 400,
        // never read by the first (RFC 9112 §3.2).
        for hosts in [["127.0.0.1:\(port)", "evil.example"], ["evil.example", "127.0.0.1:\(port)"],
                      ["127.0.0.1:\(port)", "127.0.0.1:\(port)"]] {
            let fd = try HTTPExchange.connect(port)
            defer { close(fd) }
            try HTTPExchange.send(fd, "GET /books HTTP/1.1\r\n" + hosts.map { "Host: \($0)\r\n" }.joined()
                                  + "Cookie: okit_session=\(viewer)\r\nConnection: close\r\n\r\n")
            let answer = HTTPExchange.read(fd, until: nil, seconds: 10)
            #expect(answer.hasPrefix("HTTP/1.1 400") || answer.hasPrefix("HTTP/1.1 421"), "\(hosts): \(answer.prefix(80))")
            #expect(!answer.hasPrefix("HTTP/1.1 200"), "\(hosts)")
        }
        for path in ["/books", "/static/okit.css"] {
            let fd = try HTTPExchange.connect(port)
            defer { close(fd) }
            try HTTPExchange.send(fd, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nHost: 127.0.0.1:\(port)\r\n"
                                  + "Cookie: okit_session=\(viewer)\r\nConnection: close\r\n\r\n")
            let answer = HTTPExchange.read(fd, until: nil, seconds: 10)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "two equal Host headers, \(path): \(answer.prefix(80))")
        }

        // An absolute-form request line names its host itself (RFC 9112 §3.2.2): another site's name there is refused
        // whatever the Host header says; this server's own name there is answered — with a Host header, which
        // HTTP/1.1 requires beside it (RFC 9112 §3.2: without one, 400).
        let absolute: [(line: String, host: String?, good: Bool)] = [
            ("GET http://evil.example/books", "127.0.0.1:\(port)", false), ("GET http://evil.example/books", nil, false),
            ("GET HTTP://EVIL.example:\(port)/books", "127.0.0.1:\(port)", false),
            ("GET ftp://evil.example/books", "127.0.0.1:\(port)", false),
            ("GET http://127.0.0.1:\(port)/books", "127.0.0.1:\(port)", true), ("GET http://127.0.0.1:\(port)/books", nil, false)]
        for (line, host, good) in absolute {
            let fd = try HTTPExchange.connect(port)
            defer { close(fd) }
            try HTTPExchange.send(fd, "\(line) HTTP/1.1\r\n" + (host.map { "Host: \($0)\r\n" } ?? "")
                                  + "Cookie: okit_session=\(viewer)\r\nConnection: close\r\n\r\n")
            let answer = HTTPExchange.read(fd, until: nil, seconds: 10)
            if good {
                #expect(answer.hasPrefix("HTTP/1.1 200") && answer.contains("Renamed"), "\(line) / \(host ?? "no Host"): \(answer.prefix(80))")
            } else {
                #expect(answer.hasPrefix("HTTP/1.1 400") || answer.hasPrefix("HTTP/1.1 421"), "\(line) / \(host ?? "no Host"): \(answer.prefix(80))")
            }
        }
    }

    /// Wrong login tokens are counted by the connection's address: an `X-Forwarded-For` of the guesser's choosing
    /// (no `--trusted-proxy` sent it) does not give each guess a fresh address.
    @Test func guessesFromOneConnectionAddressAreSlowedWhateverTheyClaimToComeFrom() throws {
        let folder = try TempFolder()
        let appFile = folder.url.appendingPathComponent("app.lua")
        try Self.app.write(to: appFile, atomically: true, encoding: .utf8)
        let tokenFile = folder.url.appendingPathComponent("token")
        try "s3cret-token-9".write(to: tokenFile, atomically: true, encoding: .utf8)
        let child = try ChildProcess.start(OKitRun.binary.path, ["serve", appFile.path, "--data", folder.url.appendingPathComponent("data").path,
                                                                 "--port", "0", "--token-file", tokenFile.path], stderr: .stdout)
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let port = try #require(Self.port(child), "no serving line: \(child.outputSoFar)")
        func login(_ token: String, from address: String, extra: String = "") throws -> String {
            let fd = try HTTPExchange.connect(port)
            defer { close(fd) }
            try HTTPExchange.send(fd, "GET /login HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Forwarded-For: \(address)\r\nConnection: close\r\n\r\n")
            let page = HTTPExchange.read(fd, until: nil, seconds: 10)
            let csrf = page.firstMatch(of: /name="csrf" value="([^"]+)"/).map { String($0.1) } ?? ""
            let binding = page.firstMatch(of: /Set-Cookie: (okit_login=[0-9a-f]+)/.ignoresCase()).map { String($0.1) } ?? ""
            let form = "csrf=\(csrf.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&token=\(token)"
            let post = try HTTPExchange.connect(port)
            defer { close(post) }
            try HTTPExchange.send(post, "POST /login HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Forwarded-For: \(address)\r\nCookie: \(binding)\r\n\(extra)"
                                  + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\nConnection: close\r\n\r\n" + form)
            return HTTPExchange.read(post, until: nil, seconds: 10)
        }
        // A page of another site posting the form is refused and counts for nothing (it could lock anyone out).
        let crossSite = "Origin: https://evil.example\r\nSec-Fetch-Site: cross-site\r\n"
        for _ in 0..<8 { #expect(try login("wrong", from: "203.0.113.99", extra: crossSite).hasPrefix("HTTP/1.1 403")) }
        #expect(try login("s3cret-token-9", from: "203.0.113.99", extra: crossSite).hasPrefix("HTTP/1.1 403"), "not even the right token")
        let own = try login("s3cret-token-9", from: "203.0.113.99", extra: "Origin: http://127.0.0.1:\(port)\r\nSec-Fetch-Site: same-origin\r\n")
        #expect(own.hasPrefix("HTTP/1.1 303"), "the login page's own post is not slowed: \(own.prefix(200))")
        for i in 0..<6 { #expect(try login("wrong", from: "203.0.113.\(i + 1)").hasPrefix("HTTP/1.1 403"), "guess \(i + 1)") }
        let slowed = try login("s3cret-token-9", from: "198.51.100.7")
        #expect(slowed.hasPrefix("HTTP/1.1 429") && slowed.contains("Retry-After"), "\(slowed.prefix(200))")
        // A request line ended by a bare LF is said to be that, not only a version this server does not read.
        let bare = try HTTPExchange.connect(port)
        defer { close(bare) }
        try HTTPExchange.send(bare, "GET /login HTTP/1.1\nHost: 127.0.0.1:\(port)\n\n")
        let refused = HTTPExchange.read(bare, until: nil, seconds: 10)
        #expect(refused.hasPrefix("HTTP/1.1 400") && refused.contains("does not end with CR LF but with a bare LF"), "\(refused)")
    }

    /// The port of the `okit-run: serving … at http://127.0.0.1:PORT/` line, waiting for it up to a minute.
    static func port(_ child: ChildProcess) -> Int? {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let m = child.outputSoFar.firstMatch(of: /serving .* at http:\/\/127\.0\.0\.1:([0-9]+)\//) { return Int(m.1) }
            usleep(50_000)
        }
        return nil
    }
}

/// How many of the concurrent answers were good.
final class Mutex48: @unchecked Sendable {
    // @unchecked Sendable: `count` is read and written only under `lock`.
    private let lock = NSLock()
    private var count = 0
    func add(_ good: Bool) { lock.lock(); if good { count += 1 }; lock.unlock() }
    var good: Int { lock.lock(); defer { lock.unlock() }; return count }
}
