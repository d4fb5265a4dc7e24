import Foundation
import OKitTestSupport
import Testing

/// What a stranger on the network does to `okit-run serve`, over real sockets (web.md "Security", "Limits of the
/// server"): a form without a session is refused before its body is read, a body that trickles is cut, a proxy that
/// only sends `X-Real-IP` is a proxy, HEAD is answered as GET without a body.
@Suite(.serialized) struct ServeStrangerTests {
    /// A served app on a fresh folder: the child and its port.
    static func serve(_ extra: [String] = []) throws -> (ChildProcess, Int, TempFolder) {
        let folder = try TempFolder()
        let appFile = folder.url.appendingPathComponent("app.lua")
        try ServeProcessTests.app.write(to: appFile, atomically: true, encoding: .utf8)
        let child = try ChildProcess.start(OKitRun.binary.path, ["serve", appFile.path, "--data", folder.url.appendingPathComponent("data").path,
                                                                 "--port", "0"] + extra, stderr: .stdout)
        guard let port = ServeProcessTests.port(child) else {
            child.signal(SIGKILL)
            throw POSIXError(.ECONNREFUSED)
        }
        return (child, port, folder)
    }

    /// Whether the server closed the connection within `seconds` (reads until the end, dropping what comes).
    static func closed(_ fd: Int32, within seconds: Double) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 200) >= 0 else { return false }
            if p.revents == 0 { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return true }
        }
        return false
    }

    @Test func aFormWithoutASessionIsRefusedBeforeItsBodyIsRead() throws {
        let (child, port, _) = try Self.serve()
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let fd = try HTTPExchange.connect(port)
        defer { close(fd) }
        // A megabyte announced, two bytes sent: the answer comes at once, and the connection ends after it.
        try HTTPExchange.send(fd, "POST /command HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                              + "Content-Length: 1000000\r\n\r\nab")
        let answer = HTTPExchange.read(fd, until: "\r\n\r\n", seconds: 10)
        #expect(answer.hasPrefix("HTTP/1.1 403"), "\(answer.prefix(80))")
        #expect(Self.closed(fd, within: 10), "the connection stayed open to read the refused body")
    }

    @Test func aFormOfThousandsOfFieldsIsRefusedBeforeItIsDecoded() throws {
        let (child, port, _) = try Self.serve()
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let page = try HTTPExchange.request(port, "GET /books")
        let cookie = try #require(page.cookie)
        let form = (0..<5_000).map { "p\($0)=a" }.joined(separator: "&")
        let answer = try HTTPExchange.request(port, "POST /command", cookie: cookie, form: form)
        #expect(answer.status == 413 && answer.body.contains("1000 fields"), "\(answer.status) \(answer.body.prefix(200))")
    }

    /// Any answer given before its request's body was read (415 here: not a form) ends the connection: the server
    /// does not read on through a stranger's megabyte.
    @Test func anyAnswerBeforeTheBodyEndsTheConnection() throws {
        let (child, port, _) = try Self.serve()
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let fd = try HTTPExchange.connect(port)
        defer { close(fd) }
        try HTTPExchange.send(fd, "POST /command HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: text/plain\r\n"
                              + "Content-Length: 1000000\r\n\r\nab")
        let answer = HTTPExchange.read(fd, until: "\r\n\r\n", seconds: 10)
        #expect(answer.hasPrefix("HTTP/1.1 415") && answer.lowercased().contains("connection: close"), "\(answer.prefix(200))")
        #expect(Self.closed(fd, within: 10), "the connection stayed open to read the refused body")
    }

    @Test func aBodyThatTricklesIsCut() throws {
        // The body's rate is checked in windows as long as the idle timeout, at most 30 s: 10 s here.
        let (child, port, _) = try Self.serve(["--idle-timeout", "10"])
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let fd = try HTTPExchange.connect(port)
        defer { close(fd) }
        // The login form takes no session, so its body is read: one byte a second never completes it.
        try HTTPExchange.send(fd, "POST /login HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                              + "Content-Length: 100000\r\n\r\n")
        var cut = false
        for _ in 0..<40 {
            if send(fd, "a", 1, Int32(MSG_NOSIGNAL)) < 0 || Self.closed(fd, within: 1) { cut = true; break }
        }
        #expect(cut, "a body of one byte a second held the connection for 40 s")
        // A body sent fast enough is read whole: a login form at 1,000 bytes a second for 12 s is answered.
        let form = "csrf=x&token=" + String(repeating: "a", count: 12_000)
        let slow = try HTTPExchange.connect(port)
        defer { close(slow) }
        try HTTPExchange.send(slow, "POST /login HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                              + "Content-Length: \(form.utf8.count)\r\nConnection: close\r\n\r\n")
        var rest = Substring(form)
        while !rest.isEmpty {
            try HTTPExchange.send(slow, String(rest.prefix(250)))
            rest = rest.dropFirst(250)
            usleep(250_000)
        }
        let answered = HTTPExchange.read(slow, until: nil, seconds: 10)
        #expect(answered.hasPrefix("HTTP/1.1 "), "a body at 1,000 bytes a second was cut: \(answered.prefix(80))")
    }

    @Test func aProxyThatSendsOnlyXRealIPIsAProxy() throws {
        let (child, port, _) = try Self.serve()
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        for header in ["X-Real-IP: 203.0.113.5", "X-Forwarded-Proto: https", "Via: 1.1 proxy"] {
            let fd = try HTTPExchange.connect(port)
            defer { close(fd) }
            try HTTPExchange.send(fd, "GET /books HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(header)\r\nConnection: close\r\n\r\n")
            let answer = HTTPExchange.read(fd, until: nil, seconds: 10)
            #expect(answer.hasPrefix("HTTP/1.1 403") && answer.contains("--token-file"), "\(header): \(answer.prefix(80))")
        }
    }

    @Test func headIsAnsweredAsGetWithoutABody() throws {
        let (child, port, _) = try Self.serve()
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let get = try HTTPExchange.request(port, "GET /static/okit.css")
        for path in ["/static/okit.css", "/books"] {
            let fd = try HTTPExchange.connect(port)
            defer { close(fd) }
            // HEAD, then a GET on the same connection: the GET's answer follows the head's at once (no body between).
            try HTTPExchange.send(fd, "HEAD \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
                                  + "GET /static/okit.css HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
            let both = HTTPExchange.read(fd, until: nil, seconds: 10)
            let parts = both.components(separatedBy: "\r\n\r\n")
            #expect(parts[0].hasPrefix("HTTP/1.1 200"), "HEAD \(path): \(parts[0].prefix(80))")
            #expect(parts.count > 1 && parts[1].hasPrefix("HTTP/1.1 200"), "HEAD \(path) sent a body: \(both.prefix(300))")
            if path == "/static/okit.css" {
                #expect(parts[0].lowercased().contains("content-length: \(get.body.utf8.count)"), "\(parts[0])")
            }
            #expect(!parts[0].contains("okit_session="), "a HEAD makes no session: \(parts[0])")
        }
        let fd = try HTTPExchange.connect(port)
        defer { close(fd) }
        try HTTPExchange.send(fd, "HEAD /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        #expect(HTTPExchange.read(fd, until: nil, seconds: 10).hasPrefix("HTTP/1.1 405"))
    }

    /// Addresses that keep their sessions alive (GET, then GET again with the cookie) cannot fill `--sessions`:
    /// one holds at most a quarter of them (at least 16), and at the cap the address holding the most gives one up,
    /// so a newcomer from another address still gets a page.
    @Test func addressesThatKeepSessionsAliveCannotShutANewcomerOut() throws {
        let (child, port, _) = try Self.serve(["--sessions", "20"])
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        for source in ["127.0.0.1", "127.0.0.3"] {
            for _ in 0..<20 {
                let made = try Self.get(port, from: source, cookie: nil)
                if let cookie = made.firstMatch(of: /okit_session=([^;\r\n]+)/).map({ String($0.1) }) {
                    _ = try Self.get(port, from: source, cookie: cookie)
                }
            }
        }
        let newcomer = try Self.get(port, from: "127.0.0.2", cookie: nil)
        #expect(newcomer.hasPrefix("HTTP/1.1 200") && newcomer.contains("okit_session="), "\(newcomer.prefix(120))")
    }

    /// `GET /books` from a loopback address, with a session cookie or none: the whole answer.
    static func get(_ port: Int, from source: String, cookie: String?) throws -> String {
        let fd = try connect(port, from: source)
        defer { close(fd) }
        try HTTPExchange.send(fd, "GET /books HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
                              + (cookie.map { "Cookie: okit_session=\($0)\r\n" } ?? "") + "\r\n")
        return HTTPExchange.read(fd, until: nil, seconds: 10)
    }

    /// A connection to 127.0.0.1 from another loopback address.
    static func connect(_ port: Int, from source: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, rc == 0 else { close(fd); throw POSIXError(.ECONNREFUSED) }
        return fd
    }
}
