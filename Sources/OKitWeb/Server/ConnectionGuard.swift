import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// The connection limits of `okit-run serve` (web.md "Limits of the server"), against connections that hold the
/// server without using it (slowloris): a connection's request headers must be complete `headerTimeout` after it
/// opened, a connection with no request in progress (or whose body stopped coming) is closed after `idleTimeout`,
/// and at most `maxConnections` (`maxClientConnections` per client address) are open at once — past that the
/// one idle the longest is closed to make room (a half-sent request or a keep-alive connection: a browser opens
/// another when it needs one), or the new one when none is idle. A trusted proxy's address (`--trusted-proxy`)
/// has no cap of its own: it carries everyone's connections. Live-update streams are not
/// connections in this count (the app caps them, `ServeOptions.maxStreams`), and they never time out.
final class ConnectionTable: @unchecked Sendable {
    // @unchecked Sendable: `entries`, `perClient` and `clock` are read and written only with `lock` held; the
    // channels kept are themselves Sendable (NIO's `Channel.close` may be called from any thread).
    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var perClient: [String: Int] = [:]
    let maxConnections: Int
    let maxClientConnections: Int
    /// Proxies' addresses: not capped per client (`ServeOptions.trustedProxies`).
    let trustedProxies: Set<String>
    let headerTimeout: TimeAmount
    let idleTimeout: TimeAmount
    /// A request body must bring `minBodyRate` bytes a second in every window of `bodyWindow` (at most the idle
    /// timeout) from its head on: one byte now and then never holds a connection (or an upload slot) for long, and
    /// bytes sent fast earlier earn nothing later.
    let bodyWindow: TimeAmount
    static let minBodyRate = 500

    struct Entry {
        let channel: any Channel
        let client: String
        /// When it became idle (`DispatchTime` nanoseconds), or nil while a request is in progress.
        var idleSince: UInt64?
    }

    init(_ options: ServeOptions) {
        maxConnections = max(1, options.maxConnections)
        maxClientConnections = max(1, options.maxClientConnections)
        trustedProxies = options.canonicalTrustedProxies
        headerTimeout = .milliseconds(Int64(options.headerTimeout * 1000))
        idleTimeout = .milliseconds(Int64(options.connectionIdleTimeout * 1000))
        bodyWindow = .milliseconds(Int64(min(30, options.connectionIdleTimeout) * 1000))
    }

    /// Connections counted now (streams not included).
    var count: Int { lock.withLock { entries.count } }

    /// Takes a new connection in (idle until its request head arrives). Returns false when it must be closed: the
    /// limit is reached and no connection is idle to make room.
    func open(_ channel: any Channel, client: String, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        let evicted: [any Channel]? = lock.withLock {
            var out: [any Channel] = []
            if perClient[client, default: 0] >= maxClientConnections, !isTrustedProxy(client) {
                guard let victim = oldestIdle(client: client) else { return nil }
                out.append(remove(victim)!)
            }
            if entries.count >= maxConnections {
                guard let victim = oldestIdle(client: nil) else { return nil }
                out.append(remove(victim)!)
            }
            entries[ObjectIdentifier(channel)] = Entry(channel: channel, client: client, idleSince: now)
            perClient[client, default: 0] += 1
            return out
        }
        guard let evicted else { return false }
        for c in evicted { c.close(promise: nil) }
        return true
    }

    /// A request began (busy) or the last answer went out (idle).
    func mark(_ channel: any Channel, idle: Bool, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        lock.withLock {
            let id = ObjectIdentifier(channel)
            guard entries[id] != nil else { return }
            entries[id]?.idleSince = idle ? now : nil
        }
    }

    /// The connection closed, or became a live-update stream: it is no longer counted.
    func forget(_ channel: any Channel) {
        lock.withLock { _ = remove(ObjectIdentifier(channel)) }
    }

    /// Whether `client` is a `--trusted-proxy` address, in whatever form the listener wrote it (`::ffff:10.0.0.10`
    /// for an IPv4 peer of a dual-stack listener, IPv6 in another spelling).
    func isTrustedProxy(_ client: String) -> Bool {
        !trustedProxies.isEmpty && trustedProxies.contains(HostCheck.canonicalAddress(client) ?? client)
    }

    private func oldestIdle(client: String?) -> ObjectIdentifier? {
        var best: (ObjectIdentifier, UInt64)?
        for (id, e) in entries {
            guard let since = e.idleSince, client == nil || e.client == client else { continue }
            if best == nil || since < best!.1 { best = (id, since) }
        }
        return best?.0
    }

    private func remove(_ id: ObjectIdentifier) -> (any Channel)? {
        guard let e = entries.removeValue(forKey: id) else { return nil }
        perClient[e.client, default: 1] -= 1
        if perClient[e.client] == 0 { perClient[e.client] = nil }
        return e.channel
    }
}

/// The per-connection half of the limits, in the HTTP pipeline after the decoder (it sees request and response
/// parts): it tells the table when the connection is busy or idle and closes it when a timeout runs out, when a
/// request body comes slower than `ConnectionTable.minBodyRate` in a window, and once an answer written before its
/// request's body was read is out (a refusal: the body is not read on).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let table: ConnectionTable
    private var timer: Scheduled<Void>?
    private var inFlight = 0
    private var readingBody = false
    private var stream = false
    private var started = false
    /// The request announced a body (`Content-Length` above 0, or `Transfer-Encoding`).
    private var hasBody = false
    /// The answer went out before the request's body was read (a refusal): the connection ends after it.
    private var closeAfterAnswer = false
    /// After such an answer: the output is closed, what still comes in is dropped until the close.
    private var lingering = false
    /// Body bytes in the current window (`ConnectionTable.bodyWindow`).
    private var windowBytes = 0
    /// The requests whose answers have not begun, in order (pipelined ones are several): whether each is a POST and
    /// whether its client asked for the close (`Connection: close`, or HTTP/1.0 without keep-alive).
    private var waiting: [(post: Bool, close: Bool)] = []

    init(table: ConnectionTable) { self.table = table }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    /// The connection is open (its peer's address known): counted, and its headers' clock starts.
    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        // Counted by address, an IPv6 one by its /64 (whoever has one address of a network has them all); a
        // trusted proxy by its own address.
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        let client = table.isTrustedProxy(address) ? address : FailedAttempts.key(address)
        guard table.open(context.channel, client: client) else {
            context.close(promise: nil)
            return
        }
        schedule(context, table.headerTimeout)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        table.forget(context.channel)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        table.forget(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !lingering else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            inFlight += 1
            readingBody = true
            let length = head.headerFields[.contentLength].flatMap { Int($0) } ?? 0
            hasBody = length > 0 || head.headerFields[.transferEncoding] != nil
            waiting.append((head.method == .post,
                            head.headerFields[.connection].map { $0.lowercased().contains("close") } ?? false))
            windowBytes = 0
            table.mark(context.channel, idle: false)
            schedule(context, table.bodyWindow)          // the body must keep coming
        case .body(let chunk):
            windowBytes += chunk.readableBytes
        case .end:
            readingBody = false
            cancelTimer()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response):
            let request = response.status.kind == .informational || waiting.isEmpty ? nil : waiting.removeFirst()
            // Answered before its body was read (a refusal, 413, 415): the body is not read on. A POST refused after
            // its body came (403, 421, 400, …) ends the connection too, and so does an answer whose client asked
            // for that: nothing pipelined behind it is answered (web.md "Limits of the server").
            let refusedPost = request?.post == true && response.status.code >= 400
            if !closeAfterAnswer, (readingBody && hasBody) || refusedPost || request?.close == true {
                closeAfterAnswer = true
                response.headerFields[.connection] = "close"
            }
            if response.headerFields[.contentType]?.lowercased().hasPrefix("text/event-stream") == true {
                stream = true
                cancelTimer()
                table.forget(context.channel)
            }
            context.write(wrapOutboundOut(.head(response)), promise: promise)
            return
        case .body:
            break
        case .end:
            inFlight = max(0, inFlight - 1)
            if closeAfterAnswer {
                // The rest of the refused body is not read: the output closes once the answer is out, and what
                // still comes in is dropped for a moment before the connection closes (a close with unread bytes
                // would reset it, and the client could lose the answer).
                let written = context.eventLoop.makePromise(of: Void.self)
                written.futureResult.assumeIsolated().whenComplete { [weak self] result in
                    promise?.completeWith(result)
                    self?.linger(context)
                }
                context.writeAndFlush(data, promise: written)
                return
            }
            if inFlight == 0, !readingBody, !stream {
                table.mark(context.channel, idle: true)
                schedule(context, table.idleTimeout)
            }
        }
        context.write(data, promise: promise)
    }

    /// Closes the output and drops what comes in for two seconds, then closes.
    private func linger(_ context: ChannelHandlerContext) {
        lingering = true
        cancelTimer()
        context.close(mode: .output, promise: nil)
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) { context.close(promise: nil) }
    }

    /// Whether the body brought its bytes in the window just ended (then the next window starts).
    private func keptBodyRate() -> Bool {
        let kept = windowBytes >= ConnectionTable.minBodyRate * Int(table.bodyWindow.nanoseconds / 1_000_000_000)
        windowBytes = 0
        return kept
    }

    /// (Re)starts the timer: when it runs out the connection closes, unless an answer is being written.
    private func schedule(_ context: ChannelHandlerContext, _ delay: TimeAmount) {
        cancelTimer()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [weak self] in
            guard let self else { return }
            self.timer = nil
            if self.readingBody, self.inFlight > 0, self.keptBodyRate() {
                self.schedule(context, self.table.bodyWindow)
                return
            }
            // Waiting for a request's head, a body that came too slowly, or idle between requests: close.
            // Answering: not ours to cut.
            if self.readingBody || self.inFlight == 0 { context.close(promise: nil) }
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }
}
