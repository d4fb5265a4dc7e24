import Foundation

/// How `okit-run serve` serves (web.md "Command line").
public struct ServeOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8480
    /// Most browser sessions at once; the next one gets a 503 page.
    public var maxSessions = 100
    /// The login token (`--token-file`): required for any non-loopback host and behind a proxy.
    public var token: String?
    /// Sessions idle this long are dropped (their navigation only).
    public var idleSeconds: TimeInterval = 30 * 60
    /// Rows of a list on one page; "More rows" shows the next ones.
    public var pageRows = 50
    /// Largest request body (forms; uploads have their own limit).
    public var maxBody = 1 << 20
    /// Largest backup upload (`POST /backups`, multipart).
    public var maxUpload = 512 << 20
    /// Uploads read at once (the next one answers 503 before its body is read).
    public var maxUploads = 2
    /// Host names answered besides loopback and `host` (`--allow-host`); others get 421 (DNS rebinding).
    public var allowedHosts: [String] = []
    /// A connection's request headers must be complete this long after it opened (`--header-timeout`).
    public var headerTimeout: TimeInterval = 10
    /// A connection with no request in progress (or a body that stopped coming) is closed after this long
    /// (`--idle-timeout`); live-update streams are exempt.
    public var connectionIdleTimeout: TimeInterval = 60
    /// Connections open at once, live-update streams not counted (`--max-connections`): past it the connection
    /// idle the longest is closed, or the new one when none is idle.
    public var maxConnections = 1024
    /// The same for one client address (`--max-client-connections`).
    public var maxClientConnections = 256
    /// Addresses of proxies in front of the server (`--trusted-proxy`, e.g. nginx's): every person's connection
    /// comes from them, so their connections count only in `maxConnections`, not in `maxClientConnections` (the
    /// proxy caps each person itself, nginx's `limit_conn`).
    public var trustedProxies: [String] = []
    /// `trustedProxies` in one spelling each (`HostCheck.canonicalAddress`), as a peer's address is compared.
    var canonicalTrustedProxies: Set<String> { Set(trustedProxies.map { HostCheck.canonicalAddress($0) ?? $0 }) }
    /// The header a `--trusted-proxy` writes the client's address in (`--client-header`): only it is read.
    public var clientHeader: ProxyHeaders.ClientHeader = .xForwardedFor
    /// Live-update streams open at once (`--max-streams`: the next one answers 503), and per session (one per
    /// tab: past it the session's oldest stream is closed).
    public var maxStreams = 4096
    public var maxStreamsPerSession = 16
    /// A session that was made for a visitor who never came back with its cookie is dropped after this long
    /// (instead of `idleSeconds`), and one client address holds at most `maxNewSessionsPerClient` of them.
    public var newSessionSeconds: TimeInterval = 60
    public var maxNewSessionsPerClient = 16
    /// The longest text a person may store through a form (`--max-text`, in characters: Unicode scalars): a cell's
    /// value, a prompt's field, any field of a command. A longer one is refused in the app's words, naming the cell.
    public var maxText = 65_536
    /// A form's fields at most (a page's forms have a handful): more answer 413 before they are decoded.
    public static let maxFormFields = 1_000
    /// Development mode (`--dev`, web.md "Development mode"): loopback only, each page with a Record bar.
    public var dev: DevOptions?

    public init() {}

    /// The `Host` headers this server answers.
    public var hostCheck: HostCheck { HostCheck(listenHost: host, allowed: allowedHosts) }

    /// Whether `host` is a loopback address: an IPv4 address of 127.0.0.0/8 written as one (`inet_pton`), `::1`, or
    /// `localhost`. A name that merely starts with `127.` (`127.0.0.1.example.com`) is a name a resolver answers — it
    /// may be any address, and the server would listen there without a token (web.md "Security").
    public static func isLoopback(_ host: String) -> Bool {
        host == "::1" || host == "localhost" || (HostCheck.isIPv4(host) && host.hasPrefix("127."))
    }
}

