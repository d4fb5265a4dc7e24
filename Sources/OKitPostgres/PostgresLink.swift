import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import OKitEngine
import PostgresNIO

/// One connection to a `postgres` model's database, used from the engine's thread: each query waits for its answer
/// (the engine is synchronous; the connection's I/O runs on SwiftNIO's shared event loops, never on the caller's
/// thread). Values travel as GRDB's `RelationalValue`, the form the table mapping reads and writes.
final class PostgresLink {
    let settings: PostgresSettings
    private(set) var connection: PostgresConnection?
    static let logger = Logger(label: "okit.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Every statement sent, in order, while not nil (tests count what a start reads of the catalog).
    var statementLog: [String]?

    init(settings: PostgresSettings) { self.settings = settings }

    /// A connection must be closed before it goes (postgres-nio checks).
    deinit { close() }

    var isOpen: Bool { connection.map { !$0.isClosed } ?? false }

    /// Connects when not connected (or when the connection was lost).
    @discardableResult
    func open() throws -> PostgresConnection {
        if let c = connection, !c.isClosed { return c }
        connection = nil
        let c = try Self.connect(settings).wait()
        connection = c
        return c
    }

    static func connect(_ s: PostgresSettings) throws -> EventLoopFuture<PostgresConnection> {
        var config = PostgresConnection.Configuration(host: s.host, port: s.port, username: s.user, password: s.password,
                                                      database: s.database, tls: try tls(s))
        config.options.connectTimeout = .seconds(5)
        return PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.any(), configuration: config,
                                          id: 1, logger: logger)
    }

    /// The TLS of a connection as libpq reads `sslmode`: `disable` none; `allow` and `prefer` TLS when the server
    /// offers it, unchecked (and without it when no TLS context can be made); `require` TLS, unchecked (checked
    /// against `sslrootcert` when the URL names one, as libpq does); `verify-ca` the certificate checked;
    /// `verify-full` and the host name too. `require` and the verify modes fail closed: without a TLS context
    /// nothing is sent (`PostgresTLSSetupError`), and a server without TLS is refused by the connection.
    static func tls(_ s: PostgresSettings) throws -> PostgresConnection.Configuration.TLS {
        if s.sslMode == "disable" { return .disable }
        var tlsConfig = TLSConfiguration.makeClientConfiguration()
        switch s.sslMode {
        case "verify-full": break
        case "verify-ca": tlsConfig.certificateVerification = .noHostnameVerification
        case "require" where s.sslRootCert != nil: tlsConfig.certificateVerification = .noHostnameVerification
        default: tlsConfig.certificateVerification = .none      // libpq's prefer and require check nothing
        }
        if let root = s.sslRootCert { tlsConfig.trustRoots = .file(root) }
        let strict = s.sslMode == "require" || s.sslMode.hasPrefix("verify")
        do {
            let context = try NIOSSLContext(configuration: tlsConfig)
            return strict ? .require(context) : .prefer(context)
        } catch {
            guard !strict else { throw PostgresTLSSetupError(mode: s.sslMode, rootCert: s.sslRootCert, reason: "\(error)") }
            return .disable
        }
    }

    func close() {
        if let c = connection { _ = try? c.close().wait() }
        connection = nil
    }

    /// Runs one statement with `$1…` parameters; returns its rows and how many rows it touched.
    @discardableResult
    func query(_ sql: String, _ binds: [PostgresBind] = []) throws -> PostgresQueryResult {
        let c = try open()
        statementLog?.append(sql)
        var b = PostgresBindings(capacity: binds.count)
        for v in binds { v.append(to: &b) }
        return try c.query(PostgresQuery(unsafeSQL: sql, binds: b), logger: Self.logger).wait()
    }

    /// Sends one statement without parameters and returns at once: its answer comes in the future, on the
    /// connection's event loop. Statements sent after it run after it (the connection keeps them in order).
    func send(_ sql: String) throws -> EventLoopFuture<PostgresQueryResult> {
        statementLog?.append(sql)
        return try open().query(PostgresQuery(unsafeSQL: sql), logger: Self.logger)
    }

    /// Runs statements without parameters (BEGIN, COMMIT, DDL).
    func execute(_ sql: String) throws {
        try query(sql)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ isolation: String = "READ COMMITTED", _ body: () throws -> T) throws -> T {
        try execute("BEGIN ISOLATION LEVEL \(isolation)")
        do {
            let r = try body()
            try execute("COMMIT")
            return r
        } catch {
            if isOpen { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` in a savepoint of the open transaction: released when it returns (or rolled back to, with
    /// `rollingBack`: a try that leaves nothing), rolled back to when it throws — the transaction goes on either way.
    @discardableResult
    func savepoint<T>(rollingBack: Bool = false, _ body: () throws -> T) throws -> T {
        try execute("SAVEPOINT okit_row")
        let r: T
        do { r = try body() } catch {
            if isOpen { _ = try? execute("ROLLBACK TO SAVEPOINT okit_row"); _ = try? execute("RELEASE SAVEPOINT okit_row") }
            throw error
        }
        if rollingBack { try execute("ROLLBACK TO SAVEPOINT okit_row") }
        try execute("RELEASE SAVEPOINT okit_row")
        return r
    }

    /// A cell as a `RelationalValue`: booleans as 0/1 and every number as INTEGER or REAL, as SQLite has them.
    static func value(_ cell: PostgresCell) -> RelationalValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .bool: return ((try? cell.decode(Bool.self)) ?? false) ? Int64(1).relationalValue : Int64(0).relationalValue
        case .int2, .int4, .int8: return (try? cell.decode(Int64.self))?.relationalValue ?? .null
        case .float4, .float8: return (try? cell.decode(Double.self))?.relationalValue ?? .null
        case .numeric:
            if let s = try? cell.decode(String.self), let d = Double(s) { return d.relationalValue }
            return .null
        case .bytea:
            if var b = cell.bytes, let bytes = b.readBytes(length: b.readableBytes) { return Data(bytes).relationalValue }
            return .null
        default:
            return (try? cell.decode(String.self))?.relationalValue ?? .null
        }
    }

    static func values(_ row: PostgresRow) -> [RelationalValue] {
        var out: [RelationalValue] = []
        out.reserveCapacity(row.count)
        for cell in row { out.append(value(cell)) }
        return out
    }
}

/// A parameter of a statement.
enum PostgresBind {
    case null, text(String), int(Int64), double(Double), bool(Bool), bytes([UInt8]), texts([String])

    /// A `RelationalValue` for a column of the given mapping (booleans are 0/1 in the table mapping's rows).
    init(_ v: RelationalValue, mapping: RelationalTable.Mapping?) {
        switch v {
        case .null: self = .null
        case .int64(let i):
            if case .bool? = mapping { self = .bool(i != 0) } else if case .double? = mapping { self = .double(Double(i)) } else { self = .int(i) }
        case .double(let d): self = .double(d)
        case .string(let s): self = .text(s)
        case .blob(let d): self = .bytes(Array(d))
        }
    }

    func append(to b: inout PostgresBindings) {
        switch self {
        case .null: b.appendNull()
        case .text(let s): b.append(s)
        case .int(let i): b.append(i)
        case .double(let d): b.append(d)
        case .bool(let x): b.append(x)
        case .bytes(let a): b.append(ByteBuffer(bytes: a))
        case .texts(let a): b.append(a)
        }
    }
}
