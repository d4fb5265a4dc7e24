import Foundation

/// Where a `postgres` model's database is (storage.md "Shared models on PostgreSQL"): `OKIT_DATABASE_URL`, else the
/// model's `database`, else the app's; the password from `OKIT_DATABASE_PASSWORD` or the URL.
public struct PostgresSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    /// `sslmode=disable` in the URL: never TLS. Otherwise TLS is used when the server offers it.
    public var tlsDisabled = false

    /// The URL as messages show it: without the password.
    public var shown: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    /// Reads a `postgres://user[:password]@host[:port]/database[?sslmode=…]` URL.
    public static func parse(_ text: String, password: String? = nil) throws -> PostgresSettings {
        guard let c = URLComponents(string: text), let scheme = c.scheme, scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresSettingsError(text: Self.redacted(text), problem: "is not a postgres:// URL")
        }
        guard let host = c.host, !host.isEmpty else {
            throw PostgresSettingsError(text: Self.redacted(text), problem: "has no host")
        }
        let db = c.path.hasPrefix("/") ? String(c.path.dropFirst()) : c.path
        guard !db.isEmpty else { throw PostgresSettingsError(text: Self.redacted(text), problem: "names no database (postgres://user@host:port/database)") }
        let user = c.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        var s = PostgresSettings(host: host, port: c.port ?? 5432, user: user,
                                 password: password ?? c.password.flatMap { $0.removingPercentEncoding },
                                 database: db.removingPercentEncoding ?? db)
        if let mode = c.queryItems?.first(where: { $0.name == "sslmode" })?.value, mode == "disable" { s.tlsDisabled = true }
        return s
    }

    /// A URL with any password replaced (for messages about a URL that could not be read).
    static func redacted(_ text: String) -> String {
        guard var c = URLComponents(string: text), c.password != nil else { return text }
        c.password = nil
        return c.string ?? "(the URL)"
    }
}

/// A database URL that cannot be used.
public struct PostgresSettingsError: Error, CustomStringConvertible {
    let text: String
    let problem: String
    public var description: String { "the database URL \"\(text)\" \(problem)" }
}
