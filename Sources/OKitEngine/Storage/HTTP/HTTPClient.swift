import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One HTTP request of `HTTPClient`.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    /// Header fields to send (the bearer token is added by the client).
    public var headers: [String: String]
    public var body: [UInt8]?

    public init(method: String, url: URL, headers: [String: String] = [:], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A complete answer: its status, its header fields (names lower-cased) and its whole body.
public struct HTTPResponse: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: [UInt8]

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A header field by name (case-insensitive).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The `ETag` of the answer, if it has one.
    public var etag: String? { header("etag").flatMap { $0.isEmpty ? nil : $0 } }

    /// `412 Precondition Failed`: the status and its reason phrase.
    public var statusLine: String { HTTPResponse.statusLine(status) }

    static func statusLine(_ status: Int) -> String {
        let reasons: [Int: String] = [
            200: "OK", 201: "Created", 204: "No Content", 301: "Moved Permanently", 302: "Found",
            304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 409: "Conflict", 411: "Length Required", 412: "Precondition Failed",
            413: "Content Too Large", 429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented",
            502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout", 507: "Insufficient Storage",
        ]
        return reasons[status].map { "\(status) \($0)" } ?? "status \(status)"
    }
}

/// A small blocking HTTP client for the synchronous engine: each `send` waits for the whole answer, at most
/// `timeout` seconds in total. URLSession's own timeout is an idle timeout (a server that trickles bytes never
/// trips it), so the client enforces a total deadline itself and cancels the task when it passes.
public final class HTTPClient: Sendable {
    /// Seconds a request may take in total, from sending to the last byte of the answer.
    public let timeout: TimeInterval
    /// Sent as `Authorization: Bearer <token>` when set.
    let token: String?
    private let session: URLSession

    /// Why a request got no complete answer (the connection failed, the deadline passed, the body was cut).
    public struct TransportError: Error, CustomStringConvertible {
        public let method: String
        public let url: URL
        public let reason: String
        /// True when the deadline passed.
        public let timedOut: Bool

        public var description: String { "\(method) \(url.absoluteString): \(reason)" }
    }

    /// - Parameters:
    ///   - timeout: the total deadline of each request, in seconds.
    ///   - token: a bearer token sent with every request.
    public init(timeout: TimeInterval = 10, token: String? = nil) {
        self.timeout = timeout
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        let config = URLSessionConfiguration.ephemeral
        // URLSession on Linux truncates its timeouts to whole seconds (0.5 s would time out at once): it gets
        // whole seconds, at least the deadline, and the deadline is enforced here.
        config.timeoutIntervalForRequest = Self.idleTimeout(timeout)
        config.timeoutIntervalForResource = Self.idleTimeout(timeout)
        config.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        config.urlCache = nil
        config.httpCookieStorage = nil
        config.httpShouldSetCookies = false
        session = URLSession(configuration: config)
    }

    deinit { session.invalidateAndCancel() }

    /// The outcome of a task, written once by URLSession's queue and read by the waiting caller: the mutex makes
    /// the hand-over safe, the semaphore orders it (a read after a timeout finds nil or the late result, never
    /// a torn value).
    private final class Outcome: Sendable {
        let value = Mutex<Result<HTTPResponse, TransportError>?>(nil)
    }

    /// Sends a request and waits for its complete answer (any status), or throws a `TransportError` when the
    /// connection fails, the deadline passes or the body is shorter than its `Content-Length`.
    public func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        var r = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData,
                           timeoutInterval: Self.idleTimeout(timeout))
        r.httpMethod = request.method
        for (k, v) in request.headers { r.setValue(v, forHTTPHeaderField: k) }
        if let token { r.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body = request.body {
            r.httpBody = Data(body)
            if request.headers["Content-Type"] == nil { r.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type") }
        }
        let method = request.method, url = request.url, timeout = timeout
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: r) { data, response, error in
            let result = HTTPClient.result(method: method, url: url, timeout: timeout, data: data, response: response, error: error)
            outcome.value.withLock { $0 = result }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout) == .timedOut {
            // The cancelled task may still finish later: it then only fills `outcome`, which nobody reads.
            task.cancel()
            throw TransportError(method: method, url: url,
                                 reason: "no complete answer within \(HTTPClient.seconds(timeout)) (timed out)", timedOut: true)
        }
        guard let result = outcome.value.withLock({ $0 }) else {
            throw TransportError(method: method, url: url, reason: "no answer", timedOut: false)
        }
        return try result.get()
    }

    /// Turns what URLSession handed over into a response or a transport error; a body shorter than its
    /// `Content-Length` is an error, never a response.
    private static func result(method: String, url: URL, timeout: TimeInterval, data: Data?, response: URLResponse?,
                               error: Error?) -> Result<HTTPResponse, TransportError> {
        func failure(_ reason: String) -> Result<HTTPResponse, TransportError> {
            .failure(TransportError(method: method, url: url, reason: reason, timedOut: false))
        }
        if let error {
            return .failure(TransportError(method: method, url: url, reason: describe(error, timeout: timeout),
                                           timedOut: (error as? URLError)?.code == .timedOut))
        }
        guard let http = response as? HTTPURLResponse else { return failure("the answer is not HTTP") }
        var headers: [String: String] = [:]
        for (k, v) in http.allHeaderFields {
            if let k = k as? String, let v = v as? String { headers[k.lowercased()] = v }
        }
        let body = data.map { [UInt8]($0) } ?? []
        if method != "HEAD", http.statusCode != 204, http.statusCode != 304, headers["content-encoding"] == nil,
           let declared = headers["content-length"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
           declared != body.count {
            return failure("the answer was cut short (\(body.count) of \(declared) bytes arrived); nothing of it was used")
        }
        return .success(HTTPResponse(status: http.statusCode, headers: headers, body: body))
    }

    /// A short reason for a URLSession error.
    static func describe(_ error: Error, timeout: TimeInterval) -> String {
        guard let e = error as? URLError else { return "\(error)" }
        switch e.code {
        case .cannotConnectToHost: return "cannot connect to the server (connection refused)"
        case .cannotFindHost, .dnsLookupFailed: return "unknown host"
        case .timedOut: return "no complete answer within \(seconds(timeout)) (timed out)"
        case .networkConnectionLost: return "the connection was lost before the answer was complete"
        case .notConnectedToInternet: return "no network connection"
        case .badServerResponse: return "the server's answer is not valid HTTP"
        case .cancelled: return "cancelled"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "the TLS connection failed (\(e.code.rawValue))"
        default:
            // libcurl's own words (e.g. "transfer closed with 990 bytes remaining to read" for a cut body).
            let detail = (e as NSError).userInfo[NSLocalizedDescriptionKey] as? String ?? ""
            if detail.contains("remaining to read") { return "the answer was cut short (\(detail)); nothing of it was used" }
            return detail.isEmpty ? "network error \(e.code.rawValue)" : "network error (\(detail))"
        }
    }

    /// URLSession's idle timeout for a deadline: whole seconds, never below the deadline nor below 1 s.
    static func idleTimeout(_ deadline: TimeInterval) -> TimeInterval { max(1, deadline.rounded(.up)) }

    static func seconds(_ t: TimeInterval) -> String {
        t == t.rounded() ? "\(Int(t)) s" : "\(t) s"
    }
}
