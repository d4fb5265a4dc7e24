import Foundation
import Synchronization

/// One open page's live-update stream (`GET /events`, a browser tab). What the app sends goes to `events`, the
/// stream a reader of `WebApp.respond` iterates (tests do), until the server's pipeline takes the connection
/// over (`EventStreamHandler`): from then on each event is written straight to the connection on its event loop,
/// with no task resumed per event — a write's push to a thousand open pages resumed a thousand tasks, each
/// writing through the framework's async writer (issue 39 item 2).
final class EventSink: Sendable {
    /// How the pipeline reaches its connection: `send` writes on the connection's event loop, `close` ends it.
    struct Connection: Sendable {
        let send: @Sendable (String) -> Void
        let close: @Sendable () -> Void
    }

    private struct State {
        var continuation: AsyncStream<String>.Continuation?
        /// What was sent before a takeover, in order: the preamble, then at most `EventSink.kept` of the newest.
        var pending: [String]
        var connection: Connection?
        var finished = false
        var ended = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        /// When the server answered the stream (its head on the way to the pipeline); nil in process.
        var servedAt: Date?
    }

    /// Events kept for a connection not taken over yet (as the in-process stream keeps: its newest).
    static let kept = 4
    private let state: Mutex<State>
    private let onEnd: @Sendable () -> Void
    /// The events as an asynchronous stream (its first element is the preamble).
    let events: AsyncStream<String>

    /// A stream that starts with `preamble`; `onEnd` runs once when the stream's reader or connection is gone.
    init(preamble: String, onEnd: @escaping @Sendable () -> Void) {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(Self.kept))
        events = stream
        self.onEnd = onEnd
        state = Mutex(State(continuation: continuation, pending: [preamble]))
        continuation.yield(preamble)
        continuation.onTermination = { [weak self] _ in self?.end() }
    }

    /// Sends one event (or comment): on the connection when taken over, else into the stream.
    func send(_ text: String) {
        let connection: Connection? = state.withLock { s in
            guard !s.finished, !s.ended else { return nil }
            if let c = s.connection { return c }
            s.pending.append(text)
            if s.pending.count > Self.kept + 1 { s.pending.remove(at: 1) }
            s.continuation?.yield(text)
            return nil
        }
        connection?.send(text)
    }

    /// Ends the stream from the app's side (the session dropped, too many streams, the server stopping).
    func finish() {
        let (continuation, connection) = state.withLock { s -> (AsyncStream<String>.Continuation?, Connection?) in
            s.finished = true
            defer { s.continuation = nil }
            return (s.continuation, s.connection)
        }
        continuation?.finish()
        connection?.close()
        end()
    }

    /// The pipeline takes the connection over: the events sent so far (to write first, in order), or nil when
    /// the stream was finished meanwhile (close the connection). The in-process stream ends without `onEnd`.
    func takeOver(_ connection: Connection) -> [String]? {
        let taken: (pending: [String], continuation: AsyncStream<String>.Continuation?)? = state.withLock { s in
            guard !s.finished, !s.ended else { return nil }
            s.connection = connection
            defer { s.pending = []; s.continuation = nil }
            return (s.pending, s.continuation)
        }
        guard let taken else { return nil }
        taken.continuation?.onTermination = nil
        taken.continuation?.finish()
        return taken.pending
    }

    /// The server is answering the stream: its connection should be taken over soon (`isAbandoned`).
    func markServed(_ now: Date = Date()) {
        state.withLock { $0.servedAt = now }
    }

    /// A stream the server answered that no pipeline took over within `seconds` (its connection went away before
    /// the answer's head was written).
    func isAbandoned(_ now: Date = Date(), after seconds: TimeInterval = 30) -> Bool {
        state.withLock { s in
            guard let served = s.servedAt, s.connection == nil, !s.ended else { return false }
            return now.timeIntervalSince(served) > seconds
        }
    }

    /// The connection or the stream's reader is gone: `onEnd` runs once and `untilEnded` returns. The
    /// connection's closures are let go (they hold the pipeline's handler, which holds this sink).
    func end() {
        let waiting: [CheckedContinuation<Void, Never>]? = state.withLock { s in
            guard !s.ended else { return nil }
            s.ended = true
            s.connection = nil
            defer { s.waiting = [] }
            return s.waiting
        }
        guard let waiting else { return }
        for w in waiting { w.resume() }
        onEnd()
    }

    /// Returns when the stream ended (the server's answer waits here, suspended, while the pipeline writes).
    func untilEnded() async {
        await withCheckedContinuation { (w: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.ended { return true }
                s.waiting.append(w)
                return false
            }
            if now { w.resume() }
        }
    }
}

/// The streams the server answered whose connections the pipeline has not taken over yet, by a token the
/// answer's head carries to the pipeline (`X-Okit-Stream`, removed there before it is written).
final class EventSinks: Sendable {
    private let waiting = Mutex<[String: EventSink]>([:])

    /// Registers a stream the server is answering; its token for the answer's head.
    func add(_ sink: EventSink) -> String {
        let token = RandomToken.make()
        sink.markServed()
        let abandoned: [EventSink] = waiting.withLock { w in
            w[token] = sink
            let gone = w.filter { $0.value.isAbandoned() }
            for key in gone.keys { w[key] = nil }
            return Array(gone.values)
        }
        for s in abandoned { s.finish() }
        return token
    }

    /// The stream of a token, taken out (nil for a token not given, or taken before).
    func take(_ token: String) -> EventSink? {
        waiting.withLock { $0.removeValue(forKey: token) }
    }
}
