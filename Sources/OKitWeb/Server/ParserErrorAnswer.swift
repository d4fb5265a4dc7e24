import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// A request the HTTP decoder cannot read gets an answer that says why, not the framework's empty 400 (web.md
/// "Limits of the server"): an address or headers longer than the decoder reads (80 KiB: a 100 KB link) is 431
/// with the limit, anything else that is not HTTP/1.1 is 400. Either way the connection closes, as the decoder
/// cannot go on after it. In the pipeline after the decoder (it sees its errors before the framework does); a
/// request still being answered on the connection is left to the framework.
final class ParserErrorAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Requests whose head came through and whose answer has not ended (pipelined requests are several): while
    /// one is, an answer of ours would cut into it, so the framework handles the error as before (it ends the
    /// answers under way, then answers 400 and closes).
    private var inFlight = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { inFlight += 1 }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { inFlight = max(0, inFlight - 1) }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, inFlight == 0 else {
            context.fireErrorCaught(error)
            return
        }
        inFlight = 1   // the answer below: nothing else is answered on this connection
        let (status, text) = ParserErrorAnswer.answer(for: parserError)
        let body = ByteBuffer(string: text + "\n")
        var head = HTTPResponse(status: status)
        head.headerFields[.contentType] = "text/plain; charset=utf-8"
        head.headerFields[.contentLength] = String(body.readableBytes)
        head.headerFields[.connection] = "close"
        head.headerFields[.cacheControl] = "no-store"
        head.headerFields[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }

    /// The status and the one line a client reads for a decoder's error.
    static func answer(for error: HTTPParserError) -> (HTTPResponse.Status, String) {
        switch error {
        case .headerOverflow:
            return (.requestHeaderFieldsTooLarge,
                    "The request's address or headers are too long (this server reads at most 80 KiB of them); shorten the link or the search.")
        default:
            return (.badRequest, "The request is not valid HTTP/1.1 (\(error)); nothing was done.")
        }
    }
}
