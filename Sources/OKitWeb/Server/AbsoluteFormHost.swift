import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// A request line in absolute form (`GET http://books.example.org/books HTTP/1.1`) names its host itself, and the
/// server must take the host from it, not from `Host` (RFC 9112 §3.2.2). The framework's conversion of the request
/// keeps only the path and believes `Host`, so a stranger could name another site in the request line under an
/// allowed `Host`. This handler sits before that conversion and turns the request into the origin form the rest
/// of the server checks: the target's host becomes the `Host` header (when there is none: HTTP/1.0), or a second one
/// when `Host` names another (a request naming two hosts: 400, `HostCheck.namesSeveralHosts`); an HTTP/1.1 request
/// without `Host` is 400 (`noHostMark`).
final class AbsoluteFormHost: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart

    /// Added with the framework's other handlers (after its conversion), it puts its rewriting part before the
    /// conversion and leaves. Without the conversion where it is looked for, the connection is closed: a request
    /// must never go unchecked.
    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        guard let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self),
              (try? pipeline.addHandler(Rewrite(), position: .before(codec))) != nil else {
            context.close(promise: nil)
            return
        }
        pipeline.removeHandler(context: context, promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    /// The mark of an HTTP/1.1 request in absolute form without a `Host` header, which the responder answers 400
    /// (RFC 9112 §3.2: a request of HTTP/1.1 without `Host` is refused). A client's own header of this name is
    /// taken out of every request.
    static let noHostMark = "X-Okit-No-Host"

    /// The part before the conversion (which drops the HTTP version): rewrites each request head in absolute form,
    /// marks one of HTTP/1.1 without `Host`, and makes an HTTP/1.0 request without keep-alive ask for the close
    /// HTTP/1.0 means (the connection ends after its answer) — and one with `Transfer-Encoding`, which HTTP/1.0 does
    /// not have: its framing is faulty, so it is answered and the connection closed (RFC 9112 §6.1), never read on.
    final class Rewrite: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(var head) = unwrapInboundIn(data) else {
                context.fireChannelRead(data)
                return
            }
            head.headers.remove(name: AbsoluteFormHost.noHostMark)
            if head.version.major == 1, head.version.minor == 0, !head.isKeepAlive || head.headers.contains(name: "Transfer-Encoding") {
                head.headers.replaceOrAdd(name: "Connection", value: "close")
            }
            if let host = HostCheck.targetAuthority(head.uri) {
                head.uri = AbsoluteFormHost.originForm(head.uri)
                let hosts = head.headers["Host"]
                if hosts.isEmpty, head.version.major == 1, head.version.minor >= 1 {
                    head.headers.add(name: AbsoluteFormHost.noHostMark, value: "1")
                } else if hosts.isEmpty || hosts.contains(where: { $0.lowercased() != host.lowercased() }) {
                    head.headers.add(name: "Host", value: host)
                }
            }
            context.fireChannelRead(wrapInboundOut(.head(head)))
        }
    }

    /// `http://books.example.org/books?text=a` → `/books?text=a`; `http://books.example.org` → `/`.
    static func originForm(_ target: String) -> String {
        let afterScheme = target[target.range(of: "://")!.upperBound...]
        guard let start = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return "/" }
        let rest = afterScheme[start...]
        return rest.hasPrefix("/") ? String(rest) : "/" + rest
    }
}

extension HTTPField.Name {
    /// `AbsoluteFormHost.noHostMark`: an HTTP/1.1 request in absolute form without `Host` (the responder answers 400).
    static let okitNoHost = HTTPField.Name(AbsoluteFormHost.noHostMark)!
}
