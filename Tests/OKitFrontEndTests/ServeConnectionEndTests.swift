import Foundation
import OKitTestSupport
import Testing

/// When `okit-run serve` ends a connection after its answer, over real sockets (web.md "Limits of the server"; a
/// stranger's round five): a refused POST whose body already came answers with `Connection: close` and closes, so a
/// request pipelined behind it is not answered; an HTTP/1.0 request without keep-alive is closed after its answer;
/// a POST without a Content-Type is refused as other types are (415); an HTTP/1.1 request in absolute form without
/// `Host` is 400; an HTTP/1.0 request with `Transfer-Encoding` is closed after its answer.
@Suite(.serialized) struct ServeConnectionEndTests {
    /// Every status line in what a connection gave (wherever it starts: a body need not end with a line break).
    static func statuses(_ text: String) -> [String] {
        text.matches(of: /HTTP\/1\.[01] \d{3}/).map { String($0.output) }
    }

    /// The first answer's head.
    static func head(_ text: String) -> String {
        text.components(separatedBy: "\r\n\r\n").first ?? ""
    }

    /// Sends `text` on a new connection and reads until the server closes it (at most 10 s): what came, and
    /// whether it closed.
    static func exchange(_ port: Int, _ text: String) throws -> (answer: String, closed: Bool) {
        let fd = try HTTPExchange.connect(port)
        defer { close(fd) }
        try HTTPExchange.send(fd, text)
        let answer = HTTPExchange.read(fd, until: nil, seconds: 10)
        return (answer, ServeStrangerTests.closed(fd, within: 1))
    }

    @Test func aRefusedPostWhoseBodyCameEndsTheConnection() throws {
        let (child, port, _) = try ServeStrangerTests.serve()
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let host = "Host: 127.0.0.1:\(port)\r\n"
        let behind = "GET /books HTTP/1.1\r\n\(host)\r\n"
        let refused: [(String, String)] = [
            ("no session", "POST /command HTTP/1.1\r\n\(host)Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 5\r\n\r\nhello"),
            ("another host", "POST /command HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5\r\n\r\nhello"),
            ("a chunked body", "POST /command HTTP/1.1\r\n\(host)Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\r\nhello\r\n0\r\n\r\n"),
        ]
        for (what, post) in refused {
            let (answer, closed) = try Self.exchange(port, post + behind)
            let statuses = Self.statuses(answer)
            #expect(statuses.count == 1 && (statuses.first?.hasPrefix("HTTP/1.1 403") == true || statuses.first?.hasPrefix("HTTP/1.1 421") == true),
                    "\(what): one refusal and nothing after it: \(statuses)")
            #expect(Self.head(answer).lowercased().contains("connection: close"), "\(what): \(answer.prefix(300))")
            #expect(closed, "\(what): the connection ends after the answer")
            #expect(!answer.contains("okit_session="), "\(what): the pipelined GET made no session")
        }
    }

    @Test func aPostWithoutAContentTypeIsRefused() throws {
        let (child, port, _) = try ServeStrangerTests.serve()
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let page = try HTTPExchange.request(port, "GET /books")
        let cookie = try #require(page.cookie)
        let csrf = try #require(page.body.firstMatch(of: /data-csrf="([^"]+)"/).map { String($0.1) })
        let version = page.body.firstMatch(of: /data-version="([^"]+)"/).map { String($0.1) } ?? ""
        let form = "csrf=\(csrf)&v=\(version)&at=%2Fbooks&command=add"
        let (answer, _) = try Self.exchange(port, "POST /command HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: okit_session=\(cookie)\r\n"
                                            + "Content-Length: \(form.utf8.count)\r\nConnection: close\r\n\r\n\(form)")
        #expect(answer.hasPrefix("HTTP/1.1 415"), "\(answer.prefix(200))")
    }

    @Test func anHTTP10RequestWithoutKeepAliveIsClosedAfterItsAnswer() throws {
        let (child, port, _) = try ServeStrangerTests.serve()
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let host = "Host: 127.0.0.1:\(port)\r\n"
        let (answer, closed) = try Self.exchange(port, "GET /static/okit.css HTTP/1.0\r\n\(host)\r\n"
                                                 + "GET /static/okit.js HTTP/1.0\r\n\(host)\r\n")
        #expect(Self.statuses(answer).count == 1 && answer.hasPrefix("HTTP/1.1 200"), "\(Self.statuses(answer))")
        #expect(Self.head(answer).lowercased().contains("connection: close") && closed, "\(answer.prefix(300))")
        // With keep-alive asked for, it stays open for the next request.
        let fd = try HTTPExchange.connect(port)
        defer { close(fd) }
        try HTTPExchange.send(fd, "GET /static/okit.css HTTP/1.0\r\n\(host)Connection: keep-alive\r\n\r\n")
        #expect(HTTPExchange.read(fd, until: "\r\n\r\n", seconds: 10).hasPrefix("HTTP/1.1 200"))
        #expect(!ServeStrangerTests.closed(fd, within: 1), "keep-alive: still open")
    }

    /// HTTP/1.0 has no `Transfer-Encoding`: a request of it with one has faulty framing (RFC 9112 §6.1). It is
    /// answered and the connection closed, keep-alive or not, so what came after its chunked body is never taken
    /// for another request (a stranger's round six: it was decoded and the connection kept).
    @Test func anHTTP10RequestWithTransferEncodingIsClosedAfterItsAnswer() throws {
        let (child, port, _) = try ServeStrangerTests.serve()
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let host = "Host: 127.0.0.1:\(port)\r\n"
        let (answer, closed) = try Self.exchange(port, "GET /static/okit.css HTTP/1.0\r\n\(host)Connection: keep-alive\r\n"
                                                 + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                                                 + "GET /smuggled HTTP/1.1\r\n\(host)\r\n")
        #expect(Self.statuses(answer).count == 1 && !answer.contains("smuggled"), "\(Self.statuses(answer))")
        #expect(Self.head(answer).lowercased().contains("connection: close") && closed, "\(answer.prefix(300))")
    }

    /// An upload whose `Content-Length` is over the limit (512 MiB) is refused from its head: 413 before a byte of
    /// the body was sent, and the connection closes (it was streamed to disk up to the limit first).
    @Test func anUploadOverTheLimitIsRefusedFromItsHead() throws {
        let (child, port, _) = try ServeStrangerTests.serve()
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let (answer, closed) = try Self.exchange(port, "POST /backups HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                                                 + "Content-Type: multipart/form-data; boundary=b\r\n"
                                                 + "Content-Length: \((512 << 20) + 1)\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 413") && closed, "\(answer.prefix(300))")
    }

    @Test func anAbsoluteFormRequestWithoutHostIsABadRequest() throws {
        let (child, port, _) = try ServeStrangerTests.serve()
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let (bare, _) = try Self.exchange(port, "GET http://localhost/books HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(bare.hasPrefix("HTTP/1.1 400") && !bare.contains("okit_session="), "\(bare.prefix(200))")
        let (named, _) = try Self.exchange(port, "GET http://localhost/books HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        #expect(named.hasPrefix("HTTP/1.1 200"), "with its Host: answered as before: \(named.prefix(80))")
        let (marked, _) = try Self.exchange(port, "GET /books HTTP/1.1\r\nHost: localhost\r\nX-Okit-No-Host: 1\r\nConnection: close\r\n\r\n")
        #expect(marked.hasPrefix("HTTP/1.1 200"), "a client's own mark is not taken: \(marked.prefix(80))")
    }
}
