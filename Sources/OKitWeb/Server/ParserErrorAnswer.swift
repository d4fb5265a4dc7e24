import Foundation
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

    /// A request was refused here: what else comes on the connection is dropped until it closes.
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data) {
            // A transfer coding other than chunked last (RFC 9112 §6.3): its body's end cannot be found.
            if let coding = head.headerFields[.transferEncoding], !ParserErrorAnswer.endsChunked(coding) {
                if inFlight > 0 { refused = true; context.close(promise: nil); return }
                refuse(context, .badRequest, "The request's Transfer-Encoding is not chunked; this server reads no other, so nothing was done.")
                return
            }
            inFlight += 1
        }
        context.fireChannelRead(data)
    }

    /// Whether a `Transfer-Encoding` value's last coding is `chunked`.
    static func endsChunked(_ value: String) -> Bool {
        value.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces).lowercased() == "chunked" } ?? false
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { inFlight = max(0, inFlight - 1) }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if refused { return }       // answered already: the connection is closing
        guard let parserError = error as? HTTPParserError, inFlight == 0 else {
            context.fireErrorCaught(error)
            return
        }
        let (status, text) = ParserErrorAnswer.answer(for: parserError)
        refuse(context, status, text)
    }

    /// Answers `status` with one line and closes the connection; nothing else is answered on it.
    private func refuse(_ context: ChannelHandlerContext, _ status: HTTPResponse.Status, _ text: String) {
        inFlight = 1
        refused = true
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
            return (.badRequest, "The request is not valid HTTP/1.1: \(what(error)); nothing was done.")
        }
    }

    /// What is wrong with a request, in plain words (the decoder's own names its parser's internals).
    static func what(_ error: HTTPParserError) -> String {
        switch error {
        // A request line ended by a bare LF (no CR) is read as a version that does not end where it should.
        case .invalidVersion: return "its HTTP version is not HTTP/1.0 or HTTP/1.1, or its request line does not end with CR LF but with a bare LF"
        case .invalidMethod: return "its method is not an HTTP method"
        case .invalidURL, .invalidHost, .invalidPort, .invalidPath, .invalidQueryString, .invalidFragment:
            return "its address is not a valid one"
        case .invalidCharactersUsed, .invalidHeaderToken, .lfExpected, .invalidConstant:
            return "its request line or a header holds a character HTTP does not allow there"
        case .invalidContentLength, .unexpectedContentLength: return "its Content-Length is not valid"
        case .invalidChunkSize: return "its chunked body is not valid"
        case .trailingGarbage, .closedConnection: return "bytes came after the request"
        case .invalidEOFState: return "it ended before it was complete"
        default: return "it could not be read (every line of a request ends with CR LF, not a bare LF)"
        }
    }
}
