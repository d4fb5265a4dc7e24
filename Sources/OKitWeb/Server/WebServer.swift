import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOPosix

/// The HTTP side of `okit-run serve`, on Hummingbird 2: every request becomes a `WebRequest` for the `WebApp`
/// actor (which runs on the engine's executor), and its `WebResponse` an HTTP response; Server-Sent Events
/// are written by the pipeline (`EventStreamHandler`) from the app's `EventSink`. Before anything else the `Host` header must name this server (421), and
/// the connection limits of `ConnectionGuard` hold. Form bodies above `ServeOptions.maxBody` answer 413, other
/// body types 415; `POST /backups` alone takes `multipart/form-data`, checked (session, login, CSRF from the
/// query or a header) before its body is read, then streamed to a file (`MultipartStream`).
public enum WebServer {
    /// Runs the process's Swift tasks on the server's event loops instead of Swift's own pool of threads: each
    /// connection's task, the responder's, the app's awaits come back where the connection's I/O is, without a
    /// wake-up of another thread (a futex and a switch) each time. Measured from outside: the server's CPU per
    /// answered re-GET on a new connection 155 → 130 µs (performance.md, "tenth session"). Call once, on the main
    /// thread, before anything starts a task. The price is NIO's rule for its loops: a task must never block (wait
    /// on a semaphore, a future's `wait()`, a lock held long); the engine's blocking work (storage, Lua) runs on its
    /// own executor's thread (`EngineExecutor`), never on these (docs/unsafe.md).
    public static func runTasksOnEventLoops() {
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

    /// The OS error number under a failure to serve (`bind` refused the address: `EADDRINUSE`, …), for the front end
    /// that runs the server to word for its operator; nil when it is not the OS's.
    public static func errorNumber(of error: any Error) -> Int32? { (error as? IOError)?.errnoCode }

    /// Serves until the process ends; `onRunning` gets the port listened on (once the socket is bound). Throws
    /// when the address cannot be bound.
    public static func run(_ app: WebApp, options: ServeOptions, onRunning: @escaping @Sendable (Int) async -> Void) async throws {
        var logger = Logger(label: "okit-run serve")
        logger.logLevel = .critical
        let table = ConnectionTable(options)
        let rules = FastAnswerHandler.Rules(answers: app.fastAnswers, hosts: options.hostCheck, tokenSet: options.token != nil,
                                            loopbackListener: ServeOptions.isLoopback(options.host))
        let sinks = EventSinks()
        let application = Application(
            responder: WebResponder(app: app, options: options, sinks: sinks),
            server: .http1(configuration: .init(additionalChannelHandlers: [AbsoluteFormHost(), ParserErrorAnswer(),
                                                                            ConnectionGuard(table: table),
                                                                            FastAnswerHandler(rules: rules),
                                                                            EventStreamHandler(sinks: sinks)])),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil,
                                 backlog: 1024),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? options.port) },
            logger: logger)
        let ticks = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 1_000_000_000)
                await app.tick()
            }
        }
        defer { ticks.cancel() }
        try await application.run()
    }
}

/// A request's context: Hummingbird's, plus the address of the peer (new sessions are counted per client).
struct WebRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let peer: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }
}

struct WebResponder: HTTPResponder {
    typealias Context = WebRequestContext
    let app: WebApp
    let options: ServeOptions
    let hosts: HostCheck
    /// `--trusted-proxy` addresses in one form (`HostCheck.canonicalAddress`), as `ConnectionGuard` keeps them.
    let trustedProxies: Set<String>
    /// Live-update streams on their way to the pipeline (`EventStreamHandler`).
    let sinks: EventSinks

    init(app: WebApp, options: ServeOptions, sinks: EventSinks) {
        self.app = app
        self.options = options
        self.sinks = sinks
        hosts = options.hostCheck
        trustedProxies = options.canonicalTrustedProxies
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        var web = webRequest(request, context)
        if HostCheck.namesSeveralHosts(authority: request.head.authority, hostHeaders: request.headers[values: .hostHeader]) {
            return Self.response(WebPages.message(400, "The request names more than one host (two Host headers); nothing was done.", link: nil))
        }
        if request.headers[.okitNoHost] != nil {
            return Self.response(WebPages.message(400, "The request has no Host header (HTTP/1.1 requires one, also beside an absolute address); nothing was done.", link: nil))
        }
        guard hosts.allows(web.host) else {
            return Self.response(WebPages.misdirected(host: web.host))
        }
        if request.method == .head { return await head(web) }
        // A POST names its type: one without (a script's, never a browser's form) is refused as other types are.
        let type = request.headers[.contentType] ?? ""
        if request.method == .post, request.uri.path == "/backups", type.lowercased().hasPrefix("multipart/form-data") {
            return Self.response(await upload(request, web, contentType: type))
        } else if request.method == .post {
            guard type.lowercased().hasPrefix("application/x-www-form-urlencoded") else {
                return Self.response(WebPages.message(415, "This server takes forms (application/x-www-form-urlencoded) only."))
            }
            // Refused before its body is read: the connection ends after the answer (ConnectionGuard).
            if let refused = await app.refusalBeforeBody(web) { return Self.response(refused) }
            do {
                let body = try await request.collectBody(upTo: options.maxBody)
                guard body.readableBytesView.reduce(0, { $0 + ($1 == UInt8(ascii: "&") ? 1 : 0) }) < ServeOptions.maxFormFields else {
                    return Self.response(WebPages.message(413, "The form has more than \(ServeOptions.maxFormFields) fields; nothing was changed."))
                }
                guard let text = String(validating: body.readableBytesView, as: UTF8.self), let form = FormBody.decodeStrictly(text) else {
                    return Self.response(WebPages.message(400, "The form's fields are not well formed (a % without two hex digits, or text that is not UTF-8); nothing was changed."))
                }
                web.form = form
            } catch {
                return Self.response(WebPages.message(413, "The form is too large (more than \(options.maxBody) bytes)."))
            }
        }
        return Self.response(await app.respond(web), sinks: sinks)
    }

    /// HEAD (RFC 9110 §9.3.2): the GET's status and headers, its length, no body. A live-update stream has no
    /// head of its own (405: GET it).
    func head(_ request: WebRequest) async -> Response {
        guard request.path != "/events" else {
            var refused = WebPages.message(405, "A live-update stream is opened with GET only.")
            refused.headers.append(("Allow", "GET"))
            return Self.response(refused)
        }
        var get = request
        get.method = "GET"
        get.headOnly = true
        var answer = await app.respond(get)
        let length = answer.file.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int } ?? answer.body.count
        answer.file = nil
        answer.body = []
        answer.headers.removeAll { $0.name.lowercased() == "content-length" }
        answer.headers.append(("Content-Length", String(length)))
        return Self.response(answer)
    }

    /// The request as the web app sees it (no body yet).
    func webRequest(_ request: Request, _ context: Context) -> WebRequest {
        func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { request.headers[$0] } }
        let proxy = ProxyHeaders(clientHeader: options.clientHeader, header)
        let cookies = SessionCookie.values(request.headers[values: .cookie], secure: proxy.https)
        var web = WebRequest(method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "",
                             sessionCookie: cookies.count == 1 ? cookies[0] : nil,
                             forwarded: proxy.forwarded, forwardedHTTPS: proxy.https)
        web.sessionCookies = cookies
        web.host = request.head.authority ?? ""
        // The client is the connection's address; the proxy's word for it only when a --trusted-proxy sent it
        // (anyone else could name any address). An IPv6 client counts by its /64, as guesses do.
        var address = context.peer
        if !trustedProxies.isEmpty, trustedProxies.contains(HostCheck.canonicalAddress(context.peer) ?? context.peer) {
            address = proxy.client.flatMap(HostCheck.canonicalAddress) ?? context.peer
        }
        web.attemptAddress = address
        web.client = FailedAttempts.key(address)
        web.headerCSRF = header("X-CSRF-Token") ?? web.queryFields.last { $0.name == "csrf" }?.value
        web.loginCookie = SessionCookie.values(request.headers[values: .cookie], secure: proxy.https, login: true).last
        web.fetchSite = header("Sec-Fetch-Site")
        web.origin = header("Origin")
        return web
    }

    /// `POST /backups`: admitted by the app (session, login, CSRF, a free upload slot) before a byte of the body is
    /// read; then the body is streamed into the upload area (at most `maxUpload` bytes) and handed to the app. A
    /// `Content-Length` over the limit is refused from the head, before anything is read or written.
    func upload(_ request: Request, _ web: WebRequest, contentType: String) async -> WebResponse {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > options.maxUpload {
            return await app.said(413, .uploadTooLarge, "\(options.maxUpload >> 20)")
        }
        let file: URL
        switch await app.admitUpload(web) {
        case .failure(let refusal): return refusal.response
        case .success(let url): file = url
        }
        defer {
            try? FileManager.default.removeItem(at: file)
            Task { await app.uploadEnded() }
        }
        var web = web
        do {
            var parser = try MultipartStream(contentType: contentType, file: file)
            var total = 0
            for try await chunk in request.body {
                total += chunk.readableBytes
                guard total <= options.maxUpload else {
                    return await app.said(413, .uploadTooLarge, "\(options.maxUpload >> 20)")
                }
                try parser.feed(chunk.readableBytesView)
            }
            (web.form, web.upload) = try parser.finish()
        } catch let error as MultipartError {
            return WebPages.message(400, error.description)
        } catch {
            return WebPages.message(400, "The upload stopped before its end (\(error)).")
        }
        return await app.handle(web)
    }

    /// The framework's response for an answer. A live-update stream is handed to the pipeline by a token in its
    /// head (`EventStreamHandler` writes its events); the response's body waits until the stream ends.
    static func response(_ r: WebResponse, sinks: EventSinks? = nil) -> Response {
        var headers = HTTPFields()
        for (n, v) in r.headers {
            if let name = HTTPField.Name(n) { headers.append(HTTPField(name: name, value: v)) }
        }
        let body: ResponseBody
        if let sink = r.sink, let sinks {
            headers[.okitStream] = sinks.add(sink)
            body = ResponseBody { _ in await sink.untilEnded() }
        } else if let events = r.events {
            body = ResponseBody(asyncSequence: events.map { ByteBuffer(string: $0) })
        } else if let path = r.file {
            body = ResponseBody(asyncSequence: FileChunks(path: path))
        } else {
            body = ResponseBody(byteBuffer: ByteBuffer(bytes: r.body))
        }
        return Response(status: HTTPResponse.Status(code: r.status), headers: headers, body: body)
    }
}

/// A file's bytes in chunks of 64 KiB, read as the response is written (a backup download is not held in memory).
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let path: String

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?

        mutating func next() async throws -> ByteBuffer? {
            guard let handle, let data = try handle.read(upToCount: 64 << 10), !data.isEmpty else {
                try? handle?.close()
                return nil
            }
            return ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(handle: FileHandle(forReadingAtPath: path)) }
}
