import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Live-update streams written by the pipeline itself (issue 39 item 2): when an answer's head carries a stream's
/// token (`X-Okit-Stream`, set by the server for `GET /events`), the token is removed, the head written, and the
/// connection taken over from its `EventSink`: every event the app sends from then on is written here, on the
/// connection's event loop. The framework's answer waits, suspended, until the stream ends; its end is not
/// written (the stream's end is the connection's). Anything read on such a connection is dropped. A connection
/// that cannot take more keeps only the newest event unsent and writes it when it can.
final class EventStreamHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let sinks: EventSinks
    /// The stream this connection carries, once taken over.
    private var sink: EventSink?
    /// The newest event not written while the connection could not take more (comments are not kept).
    private var unsent: String?
    /// The browser closed its side before the stream was taken over: the connection closes at the takeover.
    private var inputClosed = false

    init(sinks: EventSinks) { self.sinks = sinks }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard sink == nil else { return }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.headerFields[.okitStream] != nil:
            let token = head.headerFields[.okitStream] ?? ""
            head.headerFields[.okitStream] = nil
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            takeOver(token, context)
        case .end where sink != nil:
            promise?.succeed(())
        default:
            context.write(data, promise: promise)
        }
    }

    private func takeOver(_ token: String, _ context: ChannelHandlerContext) {
        guard let sink = sinks.take(token) else {
            context.flush()
            return
        }
        self.sink = sink
        if inputClosed {
            context.flush()
            context.close(promise: nil)           // channelInactive ends the sink
            return
        }
        let loop = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let pending = sink.takeOver(EventSink.Connection(
            send: { text in loop.eventLoop.execute { loop.value.0.send(text, loop.value.1) } },
            close: { loop.eventLoop.execute { loop.value.1.close(promise: nil) } }))
        guard let pending else {
            context.flush()
            context.close(promise: nil)
            return
        }
        for text in pending { context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(string: text))), promise: nil) }
        context.flush()
    }

    /// Writes one event, or keeps it (the newest only) while the connection cannot take more.
    private func send(_ text: String, _ context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        guard context.channel.isWritable else {
            if !text.hasPrefix(":") { unsent = text }
            return
        }
        context.writeAndFlush(wrapOutboundOut(.body(context.channel.allocator.buffer(string: text))), promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let text = unsent {
            unsent = nil
            send(text, context)
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed? = event as? ChannelEvent {
            guard sink == nil else {
                context.close(promise: nil)
                return
            }
            inputClosed = true
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        sink?.end()
        sink = nil
        context.fireChannelInactive()
    }
}

extension HTTPField.Name {
    /// The token of a live-update stream for the pipeline (`EventStreamHandler`); never written to a client.
    static let okitStream = HTTPField.Name("X-Okit-Stream")!
}
