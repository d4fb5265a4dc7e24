import Foundation
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Synchronization
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// Live-update streams written by the pipeline (EventStreamHandler, EventSink): the app's events reach the
/// connection in order, the stream's token never reaches a client, the framework's end is not written, and a
/// closed connection ends the stream once.
@Suite struct EventStreamHandlerTests {
    static func head(token: String?) -> HTTPTypes.HTTPResponse {
        var fields = HTTPFields()
        fields[.contentType] = "text/event-stream"
        if let token { fields[.okitStream] = token }
        return HTTPTypes.HTTPResponse(status: .ok, headerFields: fields)
    }

    static func text(_ part: HTTPResponsePart?) -> String? {
        guard case .body(let buffer)? = part else { return nil }
        return String(buffer: buffer)
    }

    func connected() throws -> (EventSinks, EmbeddedChannel) {
        let sinks = EventSinks()
        let channel = EmbeddedChannel(handler: EventStreamHandler(sinks: sinks))
        channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 40000), promise: nil)
        return (sinks, channel)
    }

    @Test func eventsSentBeforeAndAfterTheTakeoverReachTheConnectionInOrder() throws {
        let (sinks, channel) = try connected()
        let ended = Mutex(0)
        let sink = EventSink(preamble: "retry: 2000\n\n") { ended.withLock { $0 += 1 } }
        sink.send("event: stale\ndata: 1\n\n")
        let token = sinks.add(sink)
        try channel.writeOutbound(HTTPResponsePart.head(EventStreamHandlerTests.head(token: token)))
        guard case .head(let head)? = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no head")
            return
        }
        #expect(head.headerFields[.okitStream] == nil, "the token is the pipeline's, never the client's")
        #expect(EventStreamHandlerTests.text(try channel.readOutbound()) == "retry: 2000\n\n")
        #expect(EventStreamHandlerTests.text(try channel.readOutbound()) == "event: stale\ndata: 1\n\n")
        sink.send("event: stale\ndata: 2\n\n")
        channel.embeddedEventLoop.run()
        #expect(EventStreamHandlerTests.text(try channel.readOutbound()) == "event: stale\ndata: 2\n\n")
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil, "the framework's end is not written")
        #expect(channel.isActive)
        try channel.writeInbound(HTTPRequestPart.head(HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/")))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil, "nothing read on a stream is passed on")
        _ = try? channel.finish()
        #expect(ended.withLock { $0 } == 1)
        sink.end()
        #expect(ended.withLock { $0 } == 1, "ended once")
        #expect(sinks.take(token) == nil, "taken once")
    }

    /// The app keeps a stream's sink until its session lets it go; a closed connection must not stay alive
    /// through it (the sink held the handler's closures, the handler the sink: a pipeline leaked per page).
    @Test func aClosedConnectionLetsItsHandlerGoWhileTheSinkLives() throws {
        weak var gone: EventStreamHandler?
        let sink = EventSink(preamble: "p\n\n") {}
        try {
            let sinks = EventSinks()
            let handler = EventStreamHandler(sinks: sinks)
            gone = handler
            let channel = EmbeddedChannel(handler: handler)
            channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 40000), promise: nil)
            try channel.writeOutbound(HTTPResponsePart.head(EventStreamHandlerTests.head(token: sinks.add(sink))))
            _ = try? channel.finish()
        }()
        #expect(gone == nil)
        sink.send("after\n\n")                   // the app may still send: nothing happens
    }

    @Test func anAnswerWithoutATokenPassesUnchanged() throws {
        let (_, channel) = try connected()
        try channel.writeOutbound(HTTPResponsePart.head(EventStreamHandlerTests.head(token: nil)))
        try channel.writeOutbound(HTTPResponsePart.body(ByteBuffer(string: "x")))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        guard case .head? = try channel.readOutbound(as: HTTPResponsePart.self) else { Issue.record("no head"); return }
        #expect(EventStreamHandlerTests.text(try channel.readOutbound()) == "x")
        guard case .end? = try channel.readOutbound(as: HTTPResponsePart.self) else { Issue.record("no end"); return }
    }

    @Test func theAppFinishingTheStreamClosesTheConnection() async throws {
        let (sinks, channel) = try connected()
        let sink = EventSink(preamble: "p\n\n") {}
        try channel.writeOutbound(HTTPResponsePart.head(EventStreamHandlerTests.head(token: sinks.add(sink))))
        sink.finish()
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
        await sink.untilEnded()
        sink.send("late\n\n")                     // nothing after the end, and nothing fails
    }

    @Test func aStreamFinishedBeforeItsHeadArrivesClosesItsConnection() throws {
        let (sinks, channel) = try connected()
        let sink = EventSink(preamble: "p\n\n") {}
        let token = sinks.add(sink)
        sink.finish()
        try channel.writeOutbound(HTTPResponsePart.head(EventStreamHandlerTests.head(token: token)))
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
    }

    @Test func beforeATakeoverTheStreamKeepsThePreambleAndTheNewestEvents() async {
        let sink = EventSink(preamble: "p") {}
        for i in 0..<10 { sink.send("e\(i)") }
        let taken = sink.takeOver(EventSink.Connection(send: { _ in }, close: {}))
        #expect(taken == ["p"] + (6..<10).map { "e\($0)" })
        var read: [String] = []
        for await e in sink.events { read.append(e) }
        #expect(read.count <= EventSink.kept, "the in-process stream ends at the takeover")
    }

    @Test func aStreamTheServerAnsweredButNoPipelineTookIsAbandonedLater() {
        let sink = EventSink(preamble: "p") {}
        #expect(!sink.isAbandoned(Date().addingTimeInterval(3600)), "in process: never")
        sink.markServed(Date())
        #expect(!sink.isAbandoned(Date()))
        #expect(sink.isAbandoned(Date().addingTimeInterval(60)))
    }

    /// The server allows half-closed connections: a browser closing its tab (a FIN) comes as `inputClosed`, not as
    /// the connection's end. The stream's connection closes then, so its `--max-streams` slot is free at once (it was
    /// held until a keep-alive comment failed to be written, up to 15 s).
    @Test func theBrowserClosingItsSideEndsTheStream() throws {
        let (sinks, channel) = try connected()
        let ended = Mutex(0)
        let sink = EventSink(preamble: "p\n\n") { ended.withLock { $0 += 1 } }
        try channel.writeOutbound(HTTPResponsePart.head(EventStreamHandlerTests.head(token: sinks.add(sink))))
        #expect(channel.isActive && ended.withLock { $0 } == 0)
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
        #expect(ended.withLock { $0 } == 1)
    }

    @Test func aBrowserThatClosedBeforeTheTakeoverEndsTheStreamAtIt() throws {
        let (sinks, channel) = try connected()
        let ended = Mutex(0)
        let sink = EventSink(preamble: "p\n\n") { ended.withLock { $0 += 1 } }
        let token = sinks.add(sink)
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(channel.isActive, "an answer on the way is not cut short")
        try channel.writeOutbound(HTTPResponsePart.head(EventStreamHandlerTests.head(token: token)))
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
        #expect(ended.withLock { $0 } == 1)
    }
}
