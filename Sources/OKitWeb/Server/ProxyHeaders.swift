import Foundation

/// The proxy headers of a request (web.md "Security"). Any header a proxy adds — `X-Forwarded-For`, the standard
/// `Forwarded` (RFC 7239), `X-Real-IP`, `X-Forwarded-Proto`/`-Host`/`-Port`, `Via`, and the client-address headers
/// of the common load balancers — makes it a proxied request: a proxy set up with only `X-Real-IP` and
/// `X-Forwarded-Proto` is a proxy all the same, and everyone behind it logs in.
///
/// The client's address is the proxy's word for it: the last `X-Forwarded-For` entry (the one the nearest proxy
/// appends: nginx's `$proxy_add_x_forwarded_for`); without `X-Forwarded-For`, the last `for=` of `Forwarded`; without
/// either, `X-Real-IP`. `X-Forwarded-For` comes first because a proxy that appends to it passes a client's own
/// `Forwarded` on untouched (nginx does): believing that would let the client name any address.
public struct ProxyHeaders: Sendable, Equatable {
    /// The request came through a proxy.
    public var forwarded = false
    /// The proxy says the browser used https.
    public var https = false
    /// The client's address as the nearest proxy gave it, if any.
    public var client: String?

    /// Headers only a proxy sends, besides the three read for their values.
    public static let otherProxyHeaders = ["X-Real-IP", "X-Forwarded-Proto", "X-Forwarded-Host", "X-Forwarded-Port",
                                           "X-Forwarded-Server", "X-Forwarded-Scheme", "Via", "X-Client-IP",
                                           "True-Client-IP", "CF-Connecting-IP", "Fastly-Client-IP", "X-Cluster-Client-IP"]

    /// `others`: whether the request carries any of `otherProxyHeaders`.
    public init(xForwardedFor: String?, xForwardedProto: String?, forwarded: String?, xRealIP: String? = nil,
                others: Bool = false) {
        self.forwarded = xForwardedFor != nil || forwarded != nil || xRealIP != nil || xForwardedProto != nil || others
        if xForwardedProto?.lowercased().split(separator: ",").first?.trimmingCharacters(in: .whitespaces) == "https" {
            https = true
        }
        if let header = forwarded {
            // Elements separated by commas (one per proxy), pairs by semicolons; the last element is the nearest
            // proxy's. `proto=https` in the first element is what the browser used.
            let elements = header.split(separator: ",").map(ProxyHeaders.pairs)
            if elements.first?["proto"]?.lowercased() == "https" { https = true }
            client = elements.last?["for"]
        }
        if let xff = xForwardedFor {
            client = xff.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        } else if client == nil, let real = xRealIP?.trimmingCharacters(in: .whitespaces), !real.isEmpty {
            client = real
        }
    }

    /// `for=192.0.2.1;proto=https` → ["for": "192.0.2.1", "proto": "https"] (quotes and brackets removed).
    static func pairs(_ element: Substring) -> [String: String] {
        var out: [String: String] = [:]
        for pair in element.split(separator: ";") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2 else { continue }
            var value = kv[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            out[kv[0].lowercased()] = value
        }
        return out
    }
}
