import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The HTTP side of `okit-run serve`, on Hummingbird 2: every request becomes a `WebRequest` for the `WebApp`
/// actor (which runs on the engine's executor), and its `WebResponse` an HTTP response; Server-Sent Events
/// stream from the app's `AsyncStream`. Form bodies above `ServeOptions.maxBody` answer 413, other body types 415;
/// `POST /backups` alone takes `multipart/form-data` (up to `ServeOptions.maxUpload`, parsed by `MultipartBody`).
public enum WebServer {
    /// Serves until the process ends; `onRunning` gets the port listened on (once the socket is bound). Throws
    /// when the address cannot be bound.
    public static func run(_ app: WebApp, options: ServeOptions, onRunning: @escaping @Sendable (Int) async -> Void) async throws {
        var logger = Logger(label: "okit-run serve")
        logger.logLevel = .critical
        let application = Application(
            responder: WebResponder(app: app, maxBody: options.maxBody, maxUpload: options.maxUpload),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil),
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

struct WebResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let app: WebApp
    let maxBody: Int
    var maxUpload = 512 << 20

    func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        var form: [(name: String, value: String)] = []
        var upload: WebUpload?
        let type = request.headers[.contentType] ?? "application/x-www-form-urlencoded"
        if request.method == .post, request.uri.path == "/backups", type.lowercased().hasPrefix("multipart/form-data") {
            let body: ByteBuffer
            do { body = try await request.collectBody(upTo: maxUpload) } catch {
                return Self.response(WebPages.message(413, "The upload is too large (more than \(maxUpload >> 20) MiB)."))
            }
            do {
                (form, upload) = try MultipartBody.parse(Array(buffer: body), contentType: type)
            } catch {
                return Self.response(WebPages.message(400, error.description))
            }
        } else if request.method == .post {
            guard type.lowercased().hasPrefix("application/x-www-form-urlencoded") else {
                return Self.response(WebPages.message(415, "This server takes forms (application/x-www-form-urlencoded) only."))
            }
            do {
                let body = try await request.collectBody(upTo: maxBody)
                form = FormBody.decode(String(buffer: body))
            } catch {
                return Self.response(WebPages.message(413, "The form is too large (more than \(maxBody) bytes)."))
            }
        }
        let forwardedFor = HTTPField.Name("X-Forwarded-For").flatMap { request.headers[$0] }
        let proto = HTTPField.Name("X-Forwarded-Proto").flatMap { request.headers[$0] }
        var web = WebRequest(method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "",
                             form: form, sessionCookie: request.cookies["okit_session"]?.value,
                             forwarded: forwardedFor != nil, forwardedHTTPS: proto?.lowercased() == "https")
        web.upload = upload
        return Self.response(await app.handle(web))
    }

    static func response(_ r: WebResponse) -> Response {
        var headers = HTTPFields()
        for (n, v) in r.headers {
            if let name = HTTPField.Name(n) { headers.append(HTTPField(name: name, value: v)) }
        }
        let body: ResponseBody
        if let events = r.events {
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
