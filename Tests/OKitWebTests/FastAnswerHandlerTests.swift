import Foundation
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// The re-GETs answered on the connection's event loop (FastAnswerHandler): the same answer as the app's, only for
/// a plain GET of the place a session is at, everything else passed on unchanged and in order.
@Suite struct FastAnswerHandlerTests {
    typealias Browser = WebAppTests.Browser

    func served() async throws -> (WebApp, Browser, EmbeddedChannel) {
        let web = try await WebAppTests.serve()
        let b = Browser(web)
        _ = await b.page("/books")
        let options = ServeOptions()
        let rules = FastAnswerHandler.Rules(answers: web.fastAnswers, hosts: options.hostCheck, tokenSet: false,
                                            loopbackListener: true)
        let channel = EmbeddedChannel(handler: FastAnswerHandler(rules: rules))
        channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 40000), promise: nil)
        return (web, b, channel)
    }

    static func get(_ path: String, cookie: String?, host: String = "127.0.0.1:8480", close: Bool = false) -> HTTPTypes.HTTPRequest {
        var fields = HTTPFields()
        if let cookie { fields[.cookie] = cookie }
        if close { fields[.connection] = "close" }
        return HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: host, path: path, headerFields: fields)
    }

    @Test func aReGetIsAnsweredHereAsTheAppAnswersIt() async throws {
        let (web, b, channel) = try await served()
        let cookie = try #require(b.cookie)
        try channel.writeInbound(HTTPRequestPart.head(FastAnswerHandlerTests.get("/books", cookie: "a=1; okit_session=\(cookie)")))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil, "not passed on")
        guard case .head(let head)? = try channel.readOutbound(as: HTTPResponsePart.self),
              case .body(let body)? = try channel.readOutbound(as: HTTPResponsePart.self),
              case .end? = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no answer")
            return
        }
        let app = await web.handle(WebRequest(method: "GET", path: "/books", sessionCookie: cookie))
        #expect(head.status == .ok && Array(body.readableBytesView) == app.body)
        #expect(head.headerFields[.contentLength] == String(app.body.count) && head.headerFields[.date]?.hasSuffix(" GMT") == true)
        for (name, value) in app.headers { #expect(head.headerFields[HTTPField.Name(name)!] == value) }
        #expect(channel.isActive, "kept open without Connection: close")
        try channel.writeInbound(HTTPRequestPart.head(FastAnswerHandlerTests.get("/books", cookie: "okit_session=\(cookie)", close: true)))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive, "closed after the answer")
    }

    @Test func anythingElseIsPassedOnInOrder() async throws {
        let (_, b, channel) = try await served()
        let cookie = "okit_session=" + (try #require(b.cookie))
        for request in [FastAnswerHandlerTests.get("/books?offset=0", cookie: cookie),
                        FastAnswerHandlerTests.get("/books", cookie: cookie + "; okit_session=other"),
                        FastAnswerHandlerTests.get("/books", cookie: nil),
                        FastAnswerHandlerTests.get("/books", cookie: cookie, host: "evil.example"),
                        FastAnswerHandlerTests.get("/b%6Foks", cookie: cookie)] {
            try channel.writeInbound(HTTPRequestPart.head(request))
            try channel.writeInbound(HTTPRequestPart.end(nil))
            guard case .head(let passed)? = try channel.readInbound(as: HTTPRequestPart.self) else {
                Issue.record("\(request.path ?? "") was not passed on")
                continue
            }
            #expect(passed.path == request.path)
            #expect(try channel.readInbound(as: HTTPRequestPart.self) == .end(nil))
            // While the app has not answered, a request the handler could answer waits its turn behind it.
            try channel.writeInbound(HTTPRequestPart.head(FastAnswerHandlerTests.get("/books", cookie: cookie)))
            #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil)
            try channel.writeInbound(HTTPRequestPart.end(nil))
            _ = try channel.readInbound(as: HTTPRequestPart.self)
            try channel.writeOutbound(HTTPResponsePart.end(nil))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
            while try channel.readOutbound(as: HTTPResponsePart.self) != nil {}
        }
    }

    @Test func theDateIsWrittenAsHTTPWritesIt() {
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(951782400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.format(1795717544) == "Thu, 26 Nov 2026 18:25:44 GMT")
        #expect(HTTPDate.format(4107542399) == "Sun, 28 Feb 2100 23:59:59 GMT")
    }

    /// Counts the read completions that reach the server framework's side of the pipeline.
    final class ReadCompletions: ChannelInboundHandler {
        typealias InboundIn = HTTPRequestPart
        var count = 0
        func channelReadComplete(context: ChannelHandlerContext) {
            count += 1
            context.fireChannelReadComplete()
        }
    }

    /// A re-GET that came while a refresh was due is held; when the refresh leaves it to the app, it is handed on
    /// with a read completion of its own: the framework's async inbound stream hands on what it was given only then,
    /// and the request sat there — the connection hung (a writer's redirect after its command, with a viewer's
    /// live-update stream open).
    @Test func aRequestHeldForARefreshIsHandedOnWithAReadCompletion() async throws {
        let web = try await WebAppTests.serve()
        let b = Browser(web)
        _ = await b.page("/books")
        let cookie = try #require(b.cookie)
        let rules = FastAnswerHandler.Rules(answers: web.fastAnswers, hosts: ServeOptions().hostCheck, tokenSet: false,
                                            loopbackListener: true)
        let completions = ReadCompletions()
        let channel = EmbeddedChannel(handlers: [FastAnswerHandler(rules: rules), completions])
        channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 40000), promise: nil)
        _ = web.fastAnswers.bump()          // a write: the entry is out of date and its refresh due
        try channel.writeInbound(HTTPRequestPart.head(FastAnswerHandlerTests.get("/books", cookie: "okit_session=\(cookie)")))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil, "held while the refresh is due")
        let before = completions.count
        _ = web.fastAnswers.beginRefresh()    // a refresh that leaves the entry out of date: the app answers
        web.fastAnswers.endRefresh()
        channel.embeddedEventLoop.run()
        guard case .head(let passed)? = try channel.readInbound(as: HTTPRequestPart.self) else {
            Issue.record("the held request was not handed on")
            return
        }
        #expect(passed.path == "/books")
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == .end(nil))
        #expect(completions.count > before, "handed on with a read completion")
    }
}
