import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Re-GETs answered on the connection's own event loop (issue 39 item 2): in the HTTP pipeline after the
/// connection limits, a GET that `WebApp.fastAnswer` would answer from the session's fast answer (FastAnswers) is
/// answered here, without the request and response objects, the task switches and the async writer of the server
/// framework — the CPU of a thousand re-GETs after a write was mostly theirs. Anything else passes on unchanged to
/// the framework and the app, and so does a request on a connection whose earlier request the app is still
/// answering (answers go out in order). A GET whose entry's refresh is due is held until it ran, then answered or
/// passed on. `Connection: close` closes the connection after the answer, as the framework does.
final class FastAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What a GET needs to be answered here: the app's store and the server's rules that `handle` applies first.
    struct Rules: Sendable {
        let answers: FastAnswers
        let hosts: HostCheck
        let tokenSet: Bool
        let loopbackListener: Bool
    }

    let rules: Rules
    /// Requests passed on to the app whose answer's end has not been written.
    private var passedOn = 0
    /// A request held while its entry's refresh is due: its session, path and parts as they came.
    private var held: (id: String, path: String, anonymous: Bool, parts: [HTTPRequestPart])?
    /// The rest of a request answered here (its body and end) is dropped.
    private var dropping = false

    init(rules: Rules) { self.rules = rules }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if held != nil {
            held?.parts.append(part)
            return
        }
        if dropping {
            if case .end = part { dropping = false }
            return
        }
        guard case .head(let head) = part, passedOn == 0, let (id, path, anonymous) = candidate(head) else {
            if case .head = part { passedOn += 1 }
            context.fireChannelRead(data)
            return
        }
        switch rules.answers.lookup(id, path: path, anonymous: anonymous, now: Date()) {
        case .answer(let body):
            answer(body, closing: head.headerFields[.connection] == "close", context)
            dropping = true
        case .afterRefresh:
            held = (id, path, anonymous, [part])
            let loop = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            rules.answers.afterRefresh {
                loop.eventLoop.execute { loop.value.0.lookAgain(loop.value.1) }
            }
        case .none:
            passedOn += 1
            context.fireChannelRead(data)
        }
    }

    /// After the refresh a held request is answered here when its entry is now current, else passed on.
    private func lookAgain(_ context: ChannelHandlerContext) {
        guard let request = held else { return }
        held = nil
        guard context.channel.isActive else { return }
        if case .answer(let body) = rules.answers.lookup(request.id, path: request.path, anonymous: request.anonymous, now: Date()),
           case .head(let head) = request.parts[0] {
            answer(body, closing: head.headerFields[.connection] == "close", context)
            dropping = !request.parts.contains { if case .end = $0 { true } else { false } }
            return
        }
        passedOn += 1
        for p in request.parts { context.fireChannelRead(wrapInboundOut(p)) }
        // Outside a read from the socket: the server's async inbound stream hands on what it was given only at a
        // read's completion (without it the request sat there and its connection hung).
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { passedOn = max(0, passedOn - 1) }
        context.write(data, promise: promise)
    }

    /// The session, path and whether it may be answered without a login, for a GET that `WebApp.fastAnswer` would
    /// consider: an origin-form path (`/books`; an absolute-form target goes the app's way, which checks its host), no
    /// query, a path with nothing to decode, exactly one session cookie, an allowed `Host`, and no
    /// proxy unless a token is set (else `handle` refuses it).
    func candidate(_ head: HTTPRequest) -> (id: String, path: String, anonymous: Bool)? {
        guard head.method == .get, let path = head.path, path.hasPrefix("/"),
              !path.contains(where: { $0 == "?" || $0 == "%" || $0 == "#" }),
              rules.hosts.allows(head.authority ?? "") else { return nil }
        let f = head.headerFields
        if HostCheck.namesSeveralHosts(authority: head.authority, hostHeaders: f[values: .hostHeader]) { return nil }
        let proxied = ProxyHeaders.isProxied(f)
        if proxied, !rules.tokenSet { return nil }
        let https = proxied && ProxyHeaders { name in HTTPField.Name(name).flatMap { f[$0] } }.https
        guard let id = FastAnswerHandler.sessionCookie(f[values: .cookie], secure: https) else { return nil }
        return (id, path, !proxied && rules.loopbackListener)
    }

    /// The value of the only session cookie of the request's scheme (`SessionCookie`); nil when there is none or
    /// more than one (the app decides then).
    static func sessionCookie(_ headers: [String], secure: Bool = false) -> String? {
        let found = SessionCookie.values(headers, secure: secure)
        return found.count == 1 ? found[0] : nil
    }

    /// Writes a page's answer with the headers the app gives a page (`WebPages.html`), its length and the date.
    private func answer(_ page: FastAnswers.Answer, closing: Bool, _ context: ChannelHandlerContext) {
        var body = context.channel.allocator.buffer(capacity: page.template.body.count + 64)
        page.template.write(csrf: page.csrf, version: page.version, into: &body)
        var fields = FastAnswerHandler.pageFields
        fields[.contentLength] = String(body.readableBytes)
        fields[.date] = HTTPDate.now()
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .ok, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        if closing {
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        } else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    /// The headers of `WebPages.html`, in its order.
    static let pageFields: HTTPFields = {
        var fields = HTTPFields()
        for (n, v) in WebPages.html([]).headers {
            if let name = HTTPField.Name(n) { fields.append(HTTPField(name: name, value: v)) }
        }
        return fields
    }()
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let forwarded = HTTPField.Name("Forwarded")!
    /// `Host` as a header field (HTTPTypes reads the first into the request's authority; a second one stays here).
    static let hostHeader = HTTPField.Name("Host")!
}

/// The `Date` header's value (RFC 9110's IMF-fixdate, as the server framework writes it), made once a second.
enum HTTPDate {
    private static let cached = Mutex<(second: Int, text: String)>((-1, ""))

    static func now() -> String {
        let second = Int(Date().timeIntervalSince1970)
        if let text = cached.withLock({ $0.second == second ? $0.text : nil }) { return text }
        let text = format(second)
        cached.withLock { $0 = (second, text) }
        return text
    }

    /// `Thu, 26 Nov 2026 18:25:44 GMT` for seconds since 1970 (the civil date by Howard Hinnant's days_from_civil
    /// inverse).
    static func format(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secs = seconds - days * 86400
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let weekday = weekdays[((days % 7) + 7) % 7]
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) \(two(secs / 3600)):\(two(secs / 60 % 60)):\(two(secs % 60)) GMT"
    }
}
