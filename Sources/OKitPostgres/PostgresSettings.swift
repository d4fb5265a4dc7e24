import Foundation
import OKitEngine

/// Where a `postgres` model's database is (storage.md "Shared models on PostgreSQL"): `OKIT_DATABASE_URL`, else the
/// model's `database`, else the app's; the password from `OKIT_DATABASE_PASSWORD` or the URL.
public struct PostgresSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    /// The URL's `sslmode`, as libpq reads it: `disable` (never TLS), `prefer` (the default: TLS when the server
    /// offers it, the certificate not checked), `require` (TLS, not checked), `verify-ca` (TLS, the certificate
    /// checked against the system's CAs), `verify-full` (and the host name too).
    public var sslMode = "prefer"
    /// The URL's `sslrootcert`: a PEM file of the certificate authorities a server's certificate is checked
    /// against (`verify-ca`, `verify-full`, and `require` as libpq reads it); nil: the system's.
    public var sslRootCert: String?
    static let sslModes = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

    /// The URL as messages show it: without the password.
    public var shown: String { "postgres://\(user)@\(host.contains(":") ? "[" + host + "]" : host):\(port)/\(database)" }

    /// Reads a `postgres://user[:password]@host[:port]/database[?sslmode=…]` URL.
    public static func parse(_ text: String, password: String? = nil) throws -> PostgresSettings {
        guard let c = URLComponents(string: text), let scheme = c.scheme, scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresSettingsError(text: Self.redacted(text), problem: "is not a postgres:// URL")
        }
        // An IPv6 address without its brackets (URLComponents keeps them; the resolver does not know "[::1]").
        guard let host = c.host.map({ $0.hasPrefix("[") && $0.hasSuffix("]") ? String($0.dropFirst().dropLast()) : $0 }), !host.isEmpty else {
            throw PostgresSettingsError(text: Self.redacted(text), problem: "has no host")
        }
        // Each part is percent-decoded once (`user`, `password` and `path` are decoded already: decoding them again
        // made a password written "50%25off" nil, and "a%2541" "aA").
        let path = c.percentEncodedPath
        let encodedDB = path.hasPrefix("/") ? String(path.dropFirst()) : path
        let db = encodedDB.removingPercentEncoding ?? encodedDB
        guard !db.isEmpty else { throw PostgresSettingsError(text: Self.redacted(text), problem: "names no database (postgres://user@host:port/database)") }
        let user = c.percentEncodedUser.map { $0.removingPercentEncoding ?? $0 } ?? "postgres"
        var s = PostgresSettings(host: host, port: c.port ?? 5432, user: user,
                                 password: password ?? c.percentEncodedPassword.map { $0.removingPercentEncoding ?? $0 },
                                 database: db)
        if let mode = c.queryItems?.first(where: { $0.name == "sslmode" })?.value {
            guard sslModes.contains(mode) else {
                throw PostgresSettingsError(text: Self.redacted(text), problem: "has sslmode=\(mode); use one of \(sslModes.joined(separator: ", "))")
            }
            s.sslMode = mode
        }
        if let root = c.queryItems?.first(where: { $0.name == "sslrootcert" })?.value, !root.isEmpty {
            s.sslRootCert = root
        }
        return s
    }

    /// A URL with any password replaced (for messages about a URL that could not be read).
    static func redacted(_ text: String) -> String {
        if var c = URLComponents(string: text) {
            guard c.password != nil else { return text }
            c.password = nil
            return c.string ?? "(the URL)"
        }
        // A URL that does not parse (a space or a bare % in the password): whatever stands between the user's
        // name and the last @ of the authority is left out.
        guard let scheme = text.range(of: "://") else { return text.contains("@") ? "(the URL)" : text }
        let rest = text[scheme.upperBound...]
        guard let at = rest.lastIndex(of: "@") else { return text }
        let userInfo = rest[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return text }
        return String(text[..<scheme.upperBound]) + userInfo[..<colon] + rest[at...]
    }
}

/// A database URL that cannot be used.
public struct PostgresSettingsError: Error, CustomStringConvertible {
    let text: String
    let problem: String
    public var description: String { "the database URL \"\(text)\" \(problem)" }
}

extension StorageKind {
    public static let postgres = StorageKind(rawValue: "postgres")
}
