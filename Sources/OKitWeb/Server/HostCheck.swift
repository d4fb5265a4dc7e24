import Foundation

/// Which `Host` headers the server answers (web.md "Security", DNS rebinding): a page on another site can make its
/// own name resolve to 127.0.0.1, but the browser still sends that name in `Host`, so a server that answers only
/// the names it was started for is out of that page's reach. Allowed: the loopback names and addresses, `--host`
/// itself, every `--allow-host` name, and, when `--host` is a wildcard address (0.0.0.0, ::), any IP address (a
/// browser only sends an address as `Host` when the page itself was loaded from that address).
public struct HostCheck: Sendable {
    /// Names allowed besides loopback, lower-cased, without ports.
    let names: Set<String>
    /// `--host` is a wildcard: any address literal is one of this machine's.
    let anyAddress: Bool

    public init(listenHost: String, allowed: [String]) {
        var names = Set(allowed.map { HostCheck.hostPart($0.lowercased()) })
        names.insert(HostCheck.hostPart(listenHost.lowercased()))
        self.names = names
        anyAddress = listenHost == "0.0.0.0" || listenHost == "::" || listenHost == "[::]"
    }

    /// Whether a request names more than one host (RFC 9112 §3.2: such a request is answered 400, never read by its
    /// first name). The conversion of an HTTP/1 request takes its first `Host` header as the authority and keeps
    /// the others as fields, so a `Host` field beside an authority is a second `Host` header — the same name twice
    /// too (`AbsoluteFormHost` adds one that differs when the request line names another host).
    public static func namesSeveralHosts(authority: String?, hostHeaders: [String]) -> Bool {
        hostHeaders.count > 1 || (authority != nil && !hostHeaders.isEmpty)
    }

    /// The authority of an absolute-form request target (`http://books.example.org:8480/books` →
    /// `books.example.org:8480`, RFC 9112 §3.2.2: the server takes the host from it, not from `Host`), whatever its
    /// scheme (`ftp://…` too: the framework would read its path all the same); nil for the origin form (`/books`),
    /// `*` and a CONNECT's `host:port`.
    public static func targetAuthority(_ target: String) -> String? {
        guard let first = target.first, first.isLetter, let mark = target.range(of: "://") else { return nil }
        let scheme = target[..<mark.lowerBound]
        guard scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return String(target[mark.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" })
    }

    /// Whether a request with this `Host` header value (nil: none sent) is for this server.
    public func allows(_ header: String?) -> Bool {
        guard let header, !header.isEmpty, header.utf8.count <= 255 else { return false }
        // Every request asks (a thousand re-GETs after a write): a plain name or IPv4 address with a port is
        // read from its bytes; anything else by `hostPart`.
        let host = HostCheck.plainHostPart(header) ?? HostCheck.hostPart(header.lowercased())
        guard !host.isEmpty else { return false }
        if HostCheck.isLoopbackName(host) || names.contains(host) { return true }
        return anyAddress && HostCheck.isAddress(host)
    }

    /// The host of a `Host` value: `[::1]:8480` → `::1`, `books.example.org:443` → `books.example.org`, a trailing
    /// dot dropped; "" when it is malformed.
    static func hostPart(_ value: String) -> String {
        var v = Substring(value.trimmingCharacters(in: .whitespaces))
        if v.hasPrefix("[") {
            guard let close = v.firstIndex(of: "]") else { return "" }
            let rest = v[v.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return "" }
            return String(v[v.index(after: v.startIndex)..<close])
        }
        if v.filter({ $0 == ":" }).count == 1, let colon = v.lastIndex(of: ":") {
            guard v[v.index(after: colon)...].allSatisfy(\.isNumber) else { return "" }
            v = v[..<colon]
        } else if v.contains(":") {
            return isAddress(String(v)) ? String(v) : ""      // a bare IPv6 address (as `--host ::1` is written)
        }
        if v.hasSuffix(".") { v = v.dropLast() }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-._")
        return v.allSatisfy { allowed.contains($0) } ? String(v) : ""
    }

    /// The host of a `Host` value made only of lower-case letters, digits, `-` and `.`, with a port of digits or
    /// none (`127.0.0.1:8480`, `localhost`), as `hostPart` gives it; nil for any other value (upper case, a
    /// trailing dot, brackets, spaces, …), which `hostPart` reads.
    static func plainHostPart(_ value: String) -> String? {
        var utf8 = value.utf8[...]
        if let colon = utf8.firstIndex(of: UInt8(ascii: ":")) {
            let port = utf8[utf8.index(after: colon)...]
            guard port.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            utf8 = utf8[..<colon]
        }
        guard let last = utf8.last, last != UInt8(ascii: "."), utf8.allSatisfy({ b in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
        }) else { return nil }
        return String(Substring(utf8))
    }

    /// `localhost` (and names under it), 127.0.0.0/8 and ::1.
    static func isLoopbackName(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        return isIPv4(host) && host.hasPrefix("127.")
    }

    /// An address in one form for comparing: IPv4 dotted, IPv6 as `inet_ntop` writes it, an IPv4-mapped IPv6
    /// address (`::ffff:10.0.0.10`, how a dual-stack listener sees an IPv4 peer) as its IPv4 address; nil for a name.
    public static func canonicalAddress(_ host: String) -> String? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return ntop(AF_INET, &v4, Int(INET_ADDRSTRLEN)) }
        var v6 = in6_addr()
        guard host.contains(":"), inet_pton(AF_INET6, host, &v6) == 1,
              let written = ntop(AF_INET6, &v6, Int(INET6_ADDRSTRLEN)) else { return nil }
        // inet_ntop writes an IPv4-mapped address as ::ffff:a.b.c.d.
        if written.hasPrefix("::ffff:"), isIPv4(String(written.dropFirst(7))) { return String(written.dropFirst(7)) }
        return written
    }

    private static func ntop<A>(_ family: Int32, _ address: inout A, _ size: Int) -> String? {
        var out = [CChar](repeating: 0, count: size + 1)
        guard inet_ntop(family, &address, &out, socklen_t(size)) != nil else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// An IPv4 or IPv6 address (not a name).
    public static func isAddress(_ host: String) -> Bool {
        if isIPv4(host) { return true }
        var buffer = in6_addr()
        return host.contains(":") && inet_pton(AF_INET6, host, &buffer) == 1
    }

    static func isIPv4(_ host: String) -> Bool {
        var buffer = in_addr()
        return inet_pton(AF_INET, host, &buffer) == 1
    }
}
