import Foundation

/// A request as the web app sees it: decoded path, query, form fields, the session cookie and the proxy headers.
public struct WebRequest: Sendable {
    public var method: String
    /// The path without the query, percent-decoded per segment by `segments`.
    public var path: String
    /// The query string as sent (without `?`).
    public var query: String
    /// Form fields in order (`application/x-www-form-urlencoded`).
    public var form: [(name: String, value: String)]
    /// The value of the session cookie (`okit_session`, `__Host-okit_session` behind https) when the request
    /// sent exactly one.
    public var sessionCookie: String?
    /// Every session cookie the request sent (more than one: another site of the domain put one beside the
    /// browser's own; `WebApp.sessionId` decides).
    public var sessionCookies: [String] = []
    /// The request came through a proxy (`X-Forwarded-For` or `Forwarded`).
    public var forwarded: Bool
    /// `X-Forwarded-Proto: https` or `Forwarded: proto=https`.
    public var forwardedHTTPS: Bool
    /// The `Host` header ("" when none was sent); nil for a request made in-process (not over HTTP).
    public var host: String?
    /// The client's address (the proxy's word for it behind a proxy): new sessions are counted per client.
    public var client = "local"
    /// The address wrong guesses of a secret are counted by (`FailedAttempts`): the connection's own address, or
    /// the proxy's word for the client only when the connection comes from a `--trusted-proxy` (anyone else could
    /// name any address in `X-Forwarded-For`).
    public var attemptAddress = "local"
    /// The CSRF token sent outside the body (`X-CSRF-Token` or the query's `csrf`): a multipart upload is checked
    /// with it before its body is read.
    public var headerCSRF: String?
    /// The file of a multipart upload (only `POST /backups` takes one), already on disk.
    public var upload: WebUpload?
    /// The login form's cookie (`SessionCookie.loginName`), which its token is tied to.
    public var loginCookie: String?
    /// The browser's `Sec-Fetch-Site` and `Origin` headers (`WebApp.fromAnotherSite`).
    public var fetchSite: String?
    public var origin: String?
    /// A HEAD answered as this GET: it makes no session.
    public var headOnly = false

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
    /// The stream behind `events`, for the server to hand to its pipeline (EventStreamHandler).
    var sink: EventSink?
    /// A file streamed as the body (a backup download) instead of `body`.
    public var file: String?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], events: AsyncStream<String>? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.events = events
    }
}

/// `application/x-www-form-urlencoded`: `+` is a space, `%XX` a byte; `decode` keeps malformed escapes as written,
/// `decodeStrictly` refuses them (a form's body, and a query: one that is not well formed is refused before anything
/// reads it, `WebApp.refusalOfAnyRequest`).
public enum FormBody {
    public static func decode(_ text: String) -> [(name: String, value: String)] {
        pairs(text) { unescape($0) } ?? []
    }

    /// A part with `+` and `%XX` undone, malformed escapes kept as written.
    static func unescape(_ s: Substring) -> String {
        String(decoding: bytes(s, strict: false) ?? [], as: UTF8.self)
    }

    /// A form body as a browser sends it, or nil when it is not one: a `%` without two hex digits after it, or
    /// escaped bytes that are not UTF-8 text (web.md "Security": malformed fields answer 400, never guessed at).
    public static func decodeStrictly(_ text: String) -> [(name: String, value: String)]? {
        pairs(text) { bytes($0, strict: true).flatMap { String(validating: $0, as: UTF8.self) } }
    }

    /// The `name=value` pairs, each part read by `read`; nil when it refuses one.
    private static func pairs(_ text: String, _ read: (Substring) -> String?) -> [(name: String, value: String)]? {
        var out: [(name: String, value: String)] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = read(parts[0]), let value = parts.count > 1 ? read(parts[1]) : "" else { return nil }
            out.append((name, value))
        }
        return out
    }

    /// A part's bytes with `+` and `%XX` undone; a `%` without two hex digits is kept as written, or (`strict`) nil.
    static func bytes(_ s: Substring, strict: Bool) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count)
        var it = Array(s.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "+") { bytes.append(0x20); continue }
            if b == UInt8(ascii: "%") {
                if it.count >= 2, let h = hex(it[it.startIndex]), let l = hex(it[it.startIndex + 1]) {
                    bytes.append(h << 4 | l)
                    it = it.dropFirst(2)
                    continue
                }
                if strict { return nil }
            }
            bytes.append(b)
        }
        return bytes
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
