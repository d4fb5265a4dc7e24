import NIOCore
import NIOPosix
import NIOSSL
import OKitEngine
import PostgresNIO

/// What a database error means to a `postgres` model (storage.md "Shared models on PostgreSQL"), told apart by
/// postgres-nio's `PSQLError.Code` and the server's SQLSTATE — never by searching the error's text.
enum PostgresFailure: Equatable {
    /// The database is out of reach: the connection failed, timed out or was lost, or the server is shutting down.
    /// Changes stay pending (in memory and on disk) and are stored when it is back.
    case unreachable
    /// The TLS the URL's `sslmode` asks for could not be had: no TLS context, a server without TLS, a certificate
    /// that does not check. Never answered by connecting without TLS.
    case tls
    /// The server refused the login (SQLSTATE class 28: a wrong password or user; 3D000: no such database). At
    /// start the app stops naming it (waiting does not help); while running it counts as out of reach (a password
    /// rotated on the server: changes stay pending until the process is let in again).
    case login
    /// The server refused a value of a row (SQLSTATE class 22 data exception, 23 integrity constraint, 54 a value
    /// beyond a limit, P0 raised by a trigger): that row is set aside, the other rows are stored.
    case value
    /// Anything else the server refused (rights, a missing table, a full disk, a deadlock): every change stays
    /// pending and is stored by a later store or start.
    case refused

    init(_ error: Error) {
        if error is PostgresTLSSetupError { self = .tls; return }
        guard let e = error as? PSQLError else {
            // Errors of the connection's channel that postgres-nio passes through as they are.
            if error is ChannelError || error is IOError || error is NIOConnectionError || error is EventLoopError {
                self = .unreachable
            } else {
                self = .refused
            }
            return
        }
        switch e.code {
        case .server, .listenFailed:
            self = Self.server(e.serverInfo?[.sqlState] ?? "")
        case .sslUnsupported, .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
            self = .tls
        case .connectionError:
            self = Self.isTLS(e.underlying) ? .tls : .unreachable
        case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection, .poolClosed:
            self = .unreachable
        default:
            self = .refused
        }
    }

    /// A server's refusal by its SQLSTATE (PostgreSQL's appendix A).
    static func server(_ state: String) -> PostgresFailure {
        // 08 connection exception; 57P01-57P03 the server shutting down or starting; 53300 too many connections.
        if state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state) { return .unreachable }
        if state.hasPrefix("28") || state == "3D000" { return .login }
        if ["22", "23", "54", "P0"].contains(String(state.prefix(2))) { return .value }
        return .refused
    }

    static func isTLS(_ underlying: Error?) -> Bool {
        guard let underlying else { return false }
        return underlying is NIOSSLError || underlying is NIOSSLExtraError || underlying is BoringSSLError
            || underlying is PostgresTLSSetupError
    }

    /// True for the failures that leave the changes pending because the database is away (or cannot be reached
    /// safely).
    var isConnection: Bool { self == .unreachable || self == .tls || self == .login }
}

/// The TLS context the URL's `sslmode` (`require`, `verify-ca`, `verify-full`) needs could not be made — no
/// certificate authorities to check against, an `sslrootcert` that does not read. Nothing was sent to the server.
struct PostgresTLSSetupError: Error, CustomStringConvertible {
    let mode: String
    let rootCert: String?
    let reason: String

    var description: String {
        let roots = rootCert.map { "the certificates in sslrootcert=\($0)" } ?? "the system's certificate authorities"
        return "sslmode=\(mode) needs TLS, but no TLS context could be made with \(roots) (\(reason)), so nothing was "
            + "sent to the server; fix the certificate file or the URL's sslrootcert"
    }
}

extension PostgresStorage {
    /// An error in a message's words: the server's own (its message, and its hint), or what happened to the
    /// connection. The error's description is a dump of the whole PSQLError (its message not even quoted).
    static func text(_ error: Error, sslMode: String = "prefer") -> String {
        if let e = error as? PostgresTLSSetupError { return e.description }
        guard let e = error as? PSQLError else {
            let s = String(describing: error)
            return s.count > 300 ? String(s.prefix(300)) + "…" : s
        }
        if let info = e.serverInfo, let message = info[.message] {
            return info[.hint].map { message + " (" + $0 + ")" } ?? message
        }
        switch e.code {
        case .sslUnsupported:
            return "the server does not offer TLS, which sslmode=\(sslMode) demands; turn ssl on in the server, or use "
                + "?sslmode=prefer (TLS when offered) or ?sslmode=disable in the URL"
        case .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
            return "TLS could not be started with the server (\(Self.underlying(e)))"
        case .connectionError where PostgresFailure.isTLS(e.underlying):
            if let setup = e.underlying as? PostgresTLSSetupError { return setup.description }
            return "the TLS handshake failed (\(Self.tlsReason(e.underlying))); with sslmode=verify-full or verify-ca the server's "
                + "certificate must check against the system's certificate authorities or the URL's sslrootcert=FILE; "
                + "?sslmode=require uses TLS without checking it"
        case .connectionError:
            if let c = e.underlying as? NIOConnectionError, c.connectionErrors.isEmpty, c.dnsAError != nil || c.dnsAAAAError != nil {
                return "the host name \(c.host) does not resolve (no such host is known here); check the URL's host"
            }
            return "connection refused or timed out"
        case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
            return "the connection was lost"
        default:
            return "\(e.code) (\(Self.underlying(e)))"
        }
    }

    /// Why a TLS handshake failed, in BoringSSL's words (`certificate verify failed`), without the source file
    /// and line its error carries.
    static func tlsReason(_ u: Error?) -> String {
        if case .handshakeFailed(let b)? = u as? NIOSSLError, case .sslError(let errors) = b, let first = errors.first {
            let text = String(describing: first)
            let head = text.range(of: " at ").map { String(text[..<$0.lowerBound]) } ?? text
            if let reason = head.split(separator: ":").last, !reason.isEmpty {
                return reason.lowercased().replacingOccurrences(of: "_", with: " ")
            }
        }
        guard let u else { return "no detail" }
        let s = String(describing: u)
        return s.count > 160 ? String(s.prefix(160)) + "…" : s
    }

    /// The error under a PSQLError, shortened for a message.
    static func underlying(_ e: PSQLError) -> String {
        guard let u = e.underlying else { return "no detail" }
        let s = String(describing: u)
        return s.count > 160 ? String(s.prefix(160)) + "…" : s
    }

    /// True for errors that mean the database is out of reach (not a refused statement).
    static func isConnectionError(_ error: Error) -> Bool { PostgresFailure(error).isConnection }
}
