import Foundation
import HTTPTypes

/// The proxy headers of a request (web.md "Security"). Any header a proxy adds — `X-Forwarded-For`, the standard
/// `Forwarded` (RFC 7239), `X-Real-IP`, `X-Forwarded-Proto`/`-Host`/`-Port`, `Via`, and the client-address headers
/// of the common load balancers — makes it a proxied request: a proxy set up with only `X-Real-IP` and
/// `X-Forwarded-Proto` is a proxy all the same, and everyone behind it logs in.
///
/// The client's address is read from one header, the one the proxy is set up to write (`--client-header`, as
/// nginx's `real_ip_header`): `X-Forwarded-For` by default (its last entry, the one the nearest proxy appends),
/// `Forwarded` (its last `for=`) or `X-Real-IP`. The others are never read for it: a proxy passes on the headers it
/// does not write, so a client could name any address in them.
public struct ProxyHeaders: Sendable, Equatable {
    /// The request came through a proxy.
    public var forwarded = false
    /// The proxy says the browser used https.
    public var https = false
    /// The client's address as the nearest proxy gave it in the client header, if any.
    public var client: String?

    /// The headers the client's address may be read from (`--client-header`).
    public enum ClientHeader: String, Sendable, CaseIterable {
        case xForwardedFor = "X-Forwarded-For"
        case forwarded = "Forwarded"
        case xRealIP = "X-Real-IP"
    }

    /// Headers only a proxy sends.
    public static let proxyHeaderNames = ["X-Forwarded-For", "Forwarded", "X-Real-IP", "X-Forwarded-Proto", "X-Forwarded-Host",
                                          "X-Forwarded-Port", "X-Forwarded-Server", "X-Forwarded-Scheme", "Via", "X-Client-IP",
                                          "True-Client-IP", "CF-Connecting-IP", "Fastly-Client-IP", "X-Cluster-Client-IP"]
    static let proxyHeaderFields = proxyHeaderNames.compactMap { HTTPField.Name($0) }

    /// Whether a request carries any header only a proxy sends.
    public static func isProxied(_ fields: HTTPFields) -> Bool {
        proxyHeaderFields.contains { fields[$0] != nil }
    }

    /// `header`: a request's header by name. `clientHeader`: the one the client's address is read from.
    public init(clientHeader: ClientHeader = .xForwardedFor, _ header: (String) -> String?) {
        forwarded = ProxyHeaders.proxyHeaderNames.contains { header($0) != nil }
        if header("X-Forwarded-Proto")?.lowercased().split(separator: ",").first?.trimmingCharacters(in: .whitespaces) == "https" {
            https = true
        }
        let elements = header("Forwarded").map { $0.split(separator: ",").map(ProxyHeaders.pairs) } ?? []
        // `proto=https` in the first element is what the browser used.
        if elements.first?["proto"]?.lowercased() == "https" { https = true }
        let raw: String? = switch clientHeader {
        case .xForwardedFor: header("X-Forwarded-For")?.split(separator: ",").last.map(String.init)
        case .forwarded: elements.last?["for"]
        case .xRealIP: header("X-Real-IP")
        }
        client = raw.map(ProxyHeaders.address).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The address of a header's value: spaces, quotes, the brackets of IPv6 and a port taken off
    /// (`"[2001:db8::17]:4711"` → `2001:db8::17`, `192.0.2.1:80` → `192.0.2.1`).
    static func address(_ value: String) -> String {
        var v = value.trimmingCharacters(in: .whitespaces)
        if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 { v = String(v.dropFirst().dropLast()) }
        if v.hasPrefix("["), let close = v.firstIndex(of: "]") { return String(v[v.index(after: v.startIndex)..<close]) }
        if v.filter({ $0 == ":" }).count == 1, let colon = v.firstIndex(of: ":") { return String(v[..<colon]) }
        return v
    }

    /// `for=192.0.2.1;proto=https` → ["for": "192.0.2.1", "proto": "https"] (names lower-cased, values as written).
    static func pairs(_ element: Substring) -> [String: String] {
        var out: [String: String] = [:]
        for pair in element.split(separator: ";") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2 else { continue }
            out[kv[0].lowercased()] = kv[1]
        }
        return out
    }
}
