import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// HTTP/1.1 over a plain socket to 127.0.0.1, one request per connection (`Connection: close`).
public enum HTTPExchange {
    public struct Answer: Sendable {
        public let status: Int
        public let head: String
        public let body: String
        /// The `okit_session` cookie a `Set-Cookie` gave.
        public var cookie: String? { head.firstMatch(of: /okit_session=([^;\r\n]+)/).map { String($0.1) } }
        /// Where a redirect leads.
        public var location: String? { head.firstMatch(of: /\r\n[Ll]ocation: ([^\r\n]+)/).map { String($0.1) } }
    }

    /// Sends `line` (`METHOD PATH`) with the cookie and body, reads the answer to the connection's end.
    public static func request(_ port: Int, _ line: String, cookie: String? = nil, form: String? = nil) throws -> Answer {
        let fd = try connect(port)
        defer { close(fd) }
        var text = "\(line) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let cookie { text += "Cookie: okit_session=\(cookie)\r\n" }
        if let form {
            text += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n"
        }
        text += "\r\n" + (form ?? "")
        try send(fd, text)
        let all = read(fd, until: nil, seconds: 30)
        let parts = all.components(separatedBy: "\r\n\r\n")
        let status = Int(parts[0].split(separator: " ").dropFirst().first ?? "") ?? 0
        return Answer(status: status, head: parts[0], body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// A command posted from the page at `at` with its hidden fields, as its forms post it: the answer's status.
    public static func command(_ port: Int, cookie: String, at: String, _ fields: KeyValuePairs<String, String>) throws -> Int {
        let page = try request(port, "GET \(at)", cookie: cookie)
        let csrf = page.body.firstMatch(of: /data-csrf="([^"]+)"/).map { String($0.1) } ?? ""
        let version = page.body.firstMatch(of: /data-version="([^"]+)"/).map { String($0.1) } ?? ""
        let all = [("csrf", csrf), ("v", version), ("at", at)] + fields.map { ($0.key, $0.value) }
        let form = all.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&")
        return try request(port, "POST /command", cookie: cookie, form: form).status
    }

    /// A GET left open (a live-update stream): its socket.
    public static func openStream(_ port: Int, _ path: String, cookie: String) throws -> Int32 {
        let fd = try connect(port)
        try send(fd, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\nCookie: okit_session=\(cookie)\r\n\r\n")
        return fd
    }

    /// What the socket gives until `marker` was read, the connection closed or `seconds` passed.
    public static func read(_ fd: Int32, until marker: String?, seconds: Double) -> String {
        var out = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 200) >= 0 else { break }
            if p.revents == 0 { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += buffer[0..<n]
            if let marker, String(decoding: out, as: UTF8.self).contains(marker) { break }
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func connect(_ port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { close(fd); throw POSIXError(.ECONNREFUSED) }
        return fd
    }

    public static func send(_ fd: Int32, _ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw POSIXError(.EPIPE) }
            sent += n
        }
    }
}
