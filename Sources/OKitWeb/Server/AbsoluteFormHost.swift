import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// A request line in absolute form (`GET http://books.example.org/books HTTP/1.1`) names its host itself, and the
/// server must take the host from it, not from `Host` (RFC 9112 §3.2.2). The framework's conversion of the request
/// keeps only the path and believes `Host`, so a stranger could name another site in the request line under an
/// allowed `Host`. This handler sits before that conversion and turns the request into the origin form the rest
/// of the server checks: the target's host becomes the `Host` header (when there is none), or a second one when
/// `Host` names another (a request naming two hosts: 400, `HostCheck.namesSeveralHosts`).
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

    /// The part before the conversion: rewrites each request head in absolute form.
    final class Rewrite: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(var head) = unwrapInboundIn(data), let host = HostCheck.targetAuthority(head.uri) else {
                context.fireChannelRead(data)
                return
            }
            head.uri = AbsoluteFormHost.originForm(head.uri)
            let hosts = head.headers["Host"]
            if hosts.isEmpty || hosts.contains(where: { $0.lowercased() != host.lowercased() }) {
                head.headers.add(name: "Host", value: host)
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
