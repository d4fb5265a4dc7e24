import Foundation
import OKitEngine

/// What `NOTIFY okit_changes` announced (storage.md "Shared models on PostgreSQL"): a model's new version and the
/// keys of the rows its store wrote or deleted (nil: too many for a notification; read everything newer), and the
/// tables they are in (nil: unknown, every table of the model is read; announcements of earlier versions). Since
/// issue 39 it may also carry `rows`: the committed values of the rows the store updated in place, signed with the
/// database's announcement key (`PostgresAnnouncementKey`), which a follower applies without reading them. An
/// earlier okit reads the same payload as before (it ignores `rows` and `signature`) and reads the named rows.
struct PostgresAnnouncement: Sendable, Equatable {
    let model: String
    let version: Int64
    let from: String
    let keys: [String]?
    var tables: [String]? = nil
    /// The app's schema version the store wrote into `okit_models`, when it changed it (a newer app's migration):
    /// followers of an older version stop storing (storage.md "Shared models on PostgreSQL", "Versions").
    var schema: Int? = nil
    /// Rows the store updated in place, with their committed values (sent only when the payload is signed).
    var rows: [PostgresAnnouncedRow] = []
    /// As received: the text the signature covers and the signature (nil when the payload is not signed).
    var signedText: String? = nil
    var signature: String? = nil

    static let channel = "okit_changes"
    /// PostgreSQL's limit is 8000 bytes; a longer list of keys becomes "read what is newer", and rows that do not
    /// fit are left out (their keys stay: followers read those rows).
    static let maxPayload = 7000
    /// `,"signature":"<64 hex digits>"}`: how the signed payload ends.
    static let signatureStart = ",\"signature\":\""
    static let signatureSuffixLength = signatureStart.utf8.count + 64 + 2

    /// The payload: model, version, sender, keys, tables; then, when `key` is given, as many of `rows` as fit and
    /// the signature of everything before it. In ASCII (other characters as JSON's `\u` escapes): whatever the
    /// database's encoding, it arrives byte for byte as signed.
    func payload(signedWith key: PostgresAnnouncementKey? = nil) -> String {
        let quoted = PostgresAnnouncedRow.quoted
        var head = "{\"model\":" + quoted(model) + ",\"version\":" + String(version) + ",\"from\":" + quoted(from)
            + (schema.map { ",\"schema\":" + String($0) } ?? "")
        guard let keys else { return head + ",\"keys\":null}" }
        head += ",\"keys\":[" + keys.map(quoted).joined(separator: ",") + "]"
        if let tables { head += ",\"tables\":[" + tables.map(quoted).joined(separator: ",") + "]" }
        if head.utf8.count + 1 > Self.maxPayload {
            return PostgresAnnouncement(model: model, version: version, from: from, keys: nil, schema: schema).payload()
        }
        guard let key, !rows.isEmpty else { return head + "}" }
        var body = head + ",\"rows\":["
        let room = Self.maxPayload - Self.signatureSuffixLength - 1
        var count = 0
        for row in rows {
            let text = row.json()
            if body.utf8.count + text.utf8.count + 1 > room { continue }
            body += (count == 0 ? "" : ",") + text
            count += 1
        }
        if count == 0 { return head + "}" }
        body += "]"
        return body + Self.signatureStart + key.sign(body) + "\"}"
    }

    /// An announcement as `payload` wrote it (or an earlier okit's); nil when it is not one. Read with the codec's
    /// own reader: every process reads every other's announcements, and Foundation's `JSONSerialization` (its
    /// objects bridged and cast back) was 11 % of all CPU with 8 processes storing (issue 39, perf).
    static func parse(_ text: String) -> PostgresAnnouncement? {
        guard let o = JSONTree.parse(Array(text.utf8), nonFiniteWords: false), case .object = o,
              let model = o["model"]?.string, let version = o["version"].flatMap(number) else { return nil }
        var a = PostgresAnnouncement(model: model, version: version, from: o["from"]?.string ?? "",
                                     keys: o["keys"].flatMap(strings), tables: o["tables"].flatMap(strings),
                                     schema: o["schema"].flatMap(number).map { Int(clamping: $0) })
        // Rows that do not all read are not used (the follower reads the rows the keys name).
        if let rows = o["rows"]?.array, let signature = o["signature"]?.string {
            let parsed = rows.compactMap(PostgresAnnouncedRow.parse)
            let utf8 = text.utf8
            if parsed.count == rows.count, utf8.count > signatureSuffixLength,
               utf8.suffix(signatureSuffixLength).elementsEqual((signatureStart + signature + "\"}").utf8) {
                a.rows = parsed
                a.signedText = String(decoding: utf8.prefix(utf8.count - signatureSuffixLength), as: UTF8.self)
                a.signature = signature
            }
        }
        return a
    }

    /// A version: any JSON number, its integer part (as a reader of numbers takes it).
    static func number(_ v: JSONTree) -> Int64? {
        switch v {
        case .int(let i): return Int64(i)
        case .double(let d): return d.isFinite && d.magnitude < 0x1p63 ? Int64(d) : nil
        default: return nil
        }
    }

    /// An array of texts; nil for anything else (an item that is not a text included).
    static func strings(_ v: JSONTree) -> [String]? {
        guard let items = v.array else { return nil }
        var out: [String] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard let s = item.string else { return nil }
            out.append(s)
        }
        return out
    }
}
