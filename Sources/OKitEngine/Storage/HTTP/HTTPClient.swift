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
///
/// Hostile servers (docs/http.md "Limits"): redirects are never followed (a 3xx is handed back as the answer, so
/// the bearer token never leaves the endpoint's origin), and a body over `maxBody` bytes is refused while it
/// arrives (the task is cancelled; at most `maxBody` bytes are ever held).
public final class HTTPClient: Sendable {
    /// Seconds a request may take in total, from sending to the last byte of the answer.
    public let timeout: TimeInterval
    /// Sent as `Authorization: Bearer <token>` when set.
    let token: String?
    /// The largest body accepted, in bytes (default 256 MiB).
    public let maxBody: Int
    private let session: URLSession
    private let delegate: Delegate

    /// Why a request got no complete answer (the connection failed, the deadline passed, the body was cut).
    public struct TransportError: RemedyCarrying {
        public let method: String
        public let url: URL
        public let reason: String
        /// True when the deadline passed.
        public let timedOut: Bool
        /// The way out the front end words: a body over the limit raises `httpMaxBody`.
        public var remedy: Remedy?

        public init(method: String, url: URL, reason: String, timedOut: Bool, remedy: Remedy? = nil) {
            (self.method, self.url, self.reason, self.timedOut, self.remedy) = (method, url, reason, timedOut, remedy)
        }

        public var description: String { "\(method) \(url.absoluteString): \(reason)" }
        public var neutralDescription: String { description }
    }

    /// The default largest body: 256 MiB (a front end gives another through the `httpMaxBody` setting).
    public static let defaultMaxBody = 256 << 20

    /// - Parameters:
    ///   - timeout: the total deadline of each request, in seconds.
    ///   - token: a bearer token sent with every request.
    ///   - maxBody: the largest answer body accepted, in bytes.
    public init(timeout: TimeInterval = 10, token: String? = nil, maxBody: Int = HTTPClient.defaultMaxBody) {
        self.timeout = timeout
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.maxBody = maxBody
        let config = URLSessionConfiguration.ephemeral
        // URLSession on Linux truncates its timeouts to whole seconds (0.5 s would time out at once): it gets
        // whole seconds, at least the deadline, and the deadline is enforced here.
        config.timeoutIntervalForRequest = Self.idleTimeout(timeout)
        config.timeoutIntervalForResource = Self.idleTimeout(timeout)
        config.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        config.urlCache = nil
        config.httpCookieStorage = nil
        config.httpShouldSetCookies = false
        delegate = Delegate()
        session = URLSession(configuration: config, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// What one task received so far, written by URLSession's queue and read by the waiting caller: the mutex
    /// makes the hand-over safe, the semaphore orders it.
    final class Transfer: Sendable {
        struct State {
            var response: HTTPURLResponse?
            var data: [UInt8] = []
            var tooLarge = false
            var result: Result<HTTPResponse, TransportError>?
        }
        let state = Mutex(State())
        let done = DispatchSemaphore(value: 0)
        let method: String, url: URL, timeout: TimeInterval, maxBody: Int

        init(method: String, url: URL, timeout: TimeInterval, maxBody: Int) {
            self.method = method
            self.url = url
            self.timeout = timeout
            self.maxBody = maxBody
        }
    }

    /// The session's delegate: refuses redirects, caps bodies, completes transfers.
    final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        let transfers = Mutex<[Int: Transfer]>([:])

        func transfer(_ task: URLSessionTask) -> Transfer? { transfers.withLock { $0[task.taskIdentifier] } }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
            completionHandler(nil)   // never followed: the 3xx is the answer
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
            guard let t = transfer(dataTask) else { return completionHandler(.cancel) }
            let http = response as? HTTPURLResponse
            let declared = http?.value(forHTTPHeaderField: "Content-Length").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            let tooLarge = (declared ?? 0) > t.maxBody
            t.state.withLock { $0.response = http; $0.tooLarge = $0.tooLarge || tooLarge }
            completionHandler(tooLarge ? .cancel : .allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard let t = transfer(dataTask) else { return }
            let over = t.state.withLock { s -> Bool in
                if s.tooLarge { return true }
                if s.data.count + data.count > t.maxBody { s.tooLarge = true; s.data = []; return true }
                s.data.append(contentsOf: data)
                return false
            }
            if over { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            guard let t = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
            t.state.withLock { s in
                if s.tooLarge {
                    s.result = .failure(TransportError(method: t.method, url: t.url, reason: "the answer is larger than \(t.maxBody >> 20) MiB, the most okit accepts; nothing of it was used",
                                                       timedOut: false, remedy: .raiseLimit("httpMaxBody")))
                } else {
                    s.result = HTTPClient.result(method: t.method, url: t.url, timeout: t.timeout, data: s.data,
                                                 response: s.response ?? task.response as? HTTPURLResponse, error: error)
                }
                s.data = []
            }
            t.done.signal()
        }
    }

    /// Sends a request and waits for its complete answer (any status; a redirect is not followed), or throws a
    /// `TransportError` when the connection fails, the deadline passes, the body is larger than `maxBody` or
    /// shorter than its `Content-Length`.
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
        let method = request.method, url = request.url
        let transfer = Transfer(method: method, url: url, timeout: timeout, maxBody: maxBody)
        let task = session.dataTask(with: r)
        delegate.transfers.withLock { $0[task.taskIdentifier] = transfer }
        task.resume()
        if transfer.done.wait(timeout: .now() + timeout) == .timedOut {
            // The cancelled task may still finish later: it then only fills `transfer`, which nobody reads.
            task.cancel()
            _ = delegate.transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
            throw TransportError(method: method, url: url,
                                 reason: "no complete answer within \(HTTPClient.seconds(timeout)) (timed out)", timedOut: true)
        }
        guard let result = transfer.state.withLock({ $0.result }) else {
            throw TransportError(method: method, url: url, reason: "no answer", timedOut: false)
        }
        return try result.get()
    }

    /// Turns what URLSession handed over into a response or a transport error; a body shorter than its
    /// `Content-Length` is an error, never a response.
    private static func result(method: String, url: URL, timeout: TimeInterval, data: [UInt8], response: URLResponse?,
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
        let body = data
        if method != "HEAD", http.statusCode != 204, http.statusCode != 304, !(300..<400).contains(http.statusCode),
           headers["content-encoding"] == nil,
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
