import Foundation

/// How `okit-run serve` serves (web.md "Command line").
public struct ServeOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8480
    /// Most browser sessions at once; the next one gets a 503 page.
    public var maxSessions = 100
    /// The login token (`--token-file`): required for any non-loopback host and behind a proxy.
    public var token: String?
    /// Sessions idle this long are dropped (their navigation only).
    public var idleSeconds: TimeInterval = 30 * 60
    /// Rows of a list on one page; "More rows" shows the next ones.
    public var pageRows = 50
    /// Largest request body (forms; uploads have their own limit).
    public var maxBody = 1 << 20
    /// Largest backup upload (`POST /backups`, multipart).
    public var maxUpload = 512 << 20

    public init() {}

    /// Whether `host` is a loopback address.
    public static func isLoopback(_ host: String) -> Bool {
        host == "127.0.0.1" || host == "::1" || host == "localhost" || host.hasPrefix("127.")
    }
}

/// A request as the web app sees it: decoded path, query, form fields, the session cookie and the proxy headers.
public struct WebRequest: Sendable {
    public var method: String
    /// The path without the query, percent-decoded per segment by `segments`.
    public var path: String
    /// The query string as sent (without `?`).
    public var query: String
    /// Form fields in order (`application/x-www-form-urlencoded`).
    public var form: [(name: String, value: String)]
    /// The value of the `okit_session` cookie.
    public var sessionCookie: String?
    /// The request came through a proxy (`X-Forwarded-For`).
    public var forwarded: Bool
    /// `X-Forwarded-Proto: https`.
    public var forwardedHTTPS: Bool
    /// The file of a multipart upload (only `POST /backups` takes one).
    public var upload: WebUpload?

    public init(method: String, path: String, query: String = "", form: [(name: String, value: String)] = [],
                sessionCookie: String? = nil, forwarded: Bool = false, forwardedHTTPS: Bool = false) {
        self.method = method
        self.path = path
        self.query = query
        self.form = form
        self.sessionCookie = sessionCookie
        self.forwarded = forwarded
        self.forwardedHTTPS = forwardedHTTPS
    }

    /// The last value of a form field.
    public func field(_ name: String) -> String? { form.last { $0.name == name }?.value }
    /// Every value of a form field, in order.
    public func fields(_ name: String) -> [String] { form.filter { $0.name == name }.map(\.value) }
    /// The query's fields.
    public var queryFields: [(name: String, value: String)] { FormBody.decode(query) }
}

/// An answer: a status, headers and a body, or a stream of Server-Sent Events.
public struct WebResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    public var events: AsyncStream<String>?
    /// A file streamed as the body (a backup download) instead of `body`.
    public var file: String?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], events: AsyncStream<String>? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.events = events
    }
}

/// `application/x-www-form-urlencoded`: `+` is a space, `%XX` a byte; malformed escapes are kept as written.
public enum FormBody {
    public static func decode(_ text: String) -> [(name: String, value: String)] {
        guard !text.isEmpty else { return [] }
        return text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }

    static func unescape(_ s: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count)
        var it = Array(s.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "+") { bytes.append(0x20); continue }
            if b == UInt8(ascii: "%"), it.count >= 2, let h = hex(it[it.startIndex]), let l = hex(it[it.startIndex + 1]) {
                bytes.append(h << 4 | l)
                it = it.dropFirst(2)
                continue
            }
            bytes.append(b)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
