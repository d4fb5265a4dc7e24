import Crypto
import Foundation
import OKitEngine

/// The database's key for announcements that carry rows (storage.md "Shared models on PostgreSQL"): any role that
/// can connect to a database can `NOTIFY okit_changes`, so a follower applies announced values only when they are
/// signed (HMAC-SHA256) with this key, which only roles that may read `okit_keys` know — the roles okit runs as
/// (the table is its own; grant it to nobody else). Made by the first process that finds none: 32 random bytes.
/// A process that cannot read it sends no rows and applies none: it reads the rows an announcement names, as before.
struct PostgresAnnouncementKey: Sendable {
    let bytes: [UInt8]

    static let table = "okit_keys"
    static let name = "announcements"

    /// The key, made when the database has none; nil when this role may not read or make it.
    static func read(_ link: PostgresLink) -> PostgresAnnouncementKey? {
        do {
            return try link.savepoint {
                try link.execute("CREATE TABLE IF NOT EXISTS \(table) (name TEXT PRIMARY KEY, key TEXT NOT NULL)")
                var made = [UInt8](repeating: 0, count: 32)
                var random = SystemRandomNumberGenerator()
                for i in made.indices { made[i] = random.next() }
                let r = try link.query("""
                    WITH made AS (INSERT INTO \(table) (name, key) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING key)
                    SELECT key FROM made UNION ALL SELECT key FROM \(table) WHERE name = $1
                    """, [.text(name), .text(Data(made).base64EncodedString())])
                guard let text = r.rows.first.flatMap({ String.fromRelationalValue(PostgresLink.values($0)[0]) }),
                      let data = Data(base64Encoded: text), data.count >= 16 else { return nil }
                return PostgresAnnouncementKey(bytes: Array(data))
            }
        } catch {
            return nil
        }
    }

    /// The signature of a payload's text, as 64 hex digits.
    func sign(_ text: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Array(text.utf8), using: SymmetricKey(data: bytes))
        return Hex.encode(code)
    }

    /// True when `a` was signed with this key (its rows may be applied as announced).
    func signed(_ a: PostgresAnnouncement) -> Bool {
        guard let text = a.signedText, let signature = a.signature, signature.utf8.count == 64 else { return false }
        var code: [UInt8] = []
        var digits = Array(signature.utf8)[...]
        while digits.count >= 2 {
            guard let b = UInt8(String(decoding: digits.prefix(2), as: UTF8.self), radix: 16) else { return false }
            code.append(b)
            digits = digits.dropFirst(2)
        }
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Array(text.utf8), using: SymmetricKey(data: bytes))
    }
}
