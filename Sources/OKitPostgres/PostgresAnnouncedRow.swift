import Foundation
import OKitEngine

/// A row a store updated in place, as an announcement carries it (storage.md "Shared models on PostgreSQL"): its
/// table and key, the version the store read it at (the row's version before: a follower that has exactly that
/// version applies this row as the row's next state), a fingerprint of the table's written columns (a process
/// of an app with other fields reads the row instead), and the written columns' values as the `UPDATE … RETURNING`
/// gave them back — what was committed, decoded as a `SELECT` of the row decodes it. The row's new version is the
/// announcement's.
///
/// Values in JSON: `null`; a text as a string; an integer as a number (beyond ±2^53 as `{"int":"…"}`); a double
/// as `{"double":"…"}` (Swift's shortest round-trip form: `-0.0`, `nan`, `inf` included); bytes as
/// `{"bytes":"<base64>"}`.
struct PostgresAnnouncedRow: Sendable, Equatable {
    let table: String
    let key: String
    let read: Int64
    let columns: String
    let values: [RelationalValue]

    /// The row as a JSON object, in ASCII.
    func json() -> String {
        var out = "{\"table\":" + Self.quoted(table) + ",\"key\":" + Self.quoted(key) + ",\"read\":" + String(read)
            + ",\"columns\":" + Self.quoted(columns) + ",\"values\":["
        for (i, v) in values.enumerated() {
            if i > 0 { out += "," }
            out += Self.encode(v)
        }
        return out + "]}"
    }

    /// A row as `json()` wrote it; nil when any part of it does not read.
    static func parse(_ o: [String: Any]) -> PostgresAnnouncedRow? {
        guard let table = o["table"] as? String, let key = o["key"] as? String, let read = o["read"].flatMap(integer),
              let columns = o["columns"] as? String, let raw = o["values"] as? [Any] else { return nil }
        var values: [RelationalValue] = []
        values.reserveCapacity(raw.count)
        for r in raw {
            guard let v = decode(r) else { return nil }
            values.append(v)
        }
        return PostgresAnnouncedRow(table: table, key: key, read: read, columns: columns, values: values)
    }

    static let exactIntegers: Int64 = 1 << 53

    static func encode(_ v: RelationalValue) -> String {
        switch v {
        case .null: return "null"
        case .int64(let i): return i.magnitude <= exactIntegers.magnitude ? String(i) : "{\"int\":\"\(i)\"}"
        case .double(let d): return "{\"double\":\"\(d.description)\"}"
        case .string(let s): return quoted(s)
        case .blob(let b): return "{\"bytes\":\"\(b.base64EncodedString())\"}"
        }
    }

    /// A value as `encode` wrote it; nil for anything else.
    static func decode(_ any: Any) -> RelationalValue? {
        if any is NSNull { return .null }
        if let s = any as? String { return .string(s) }
        if let i = integer(any) { return .int64(i) }
        guard let o = any as? [String: Any], o.count == 1, let text = o.values.first as? String else { return nil }
        if o["int"] != nil, let i = Int64(text) { return .int64(i) }
        if o["double"] != nil, let d = Double(text) { return .double(d) }
        if o["bytes"] != nil, let b = Data(base64Encoded: text) { return .blob(b) }
        return nil
    }

    /// A JSON number that is an integer within ±2^53 (where every integer is exact); nil for anything else.
    static func integer(_ any: Any) -> Int64? {
        guard let n = any as? NSNumber else { return nil }
        let i = n.int64Value
        guard i.magnitude <= exactIntegers.magnitude, Double(i) == n.doubleValue else { return nil }
        return i
    }

    /// `s` as a JSON string in ASCII: JSON's escapes, and every other character as `\uXXXX` (a surrogate pair
    /// beyond the first plane).
    static func quoted(_ s: String) -> String {
        let json = JSONText.quoted(s)
        if json.utf8.allSatisfy({ $0 < 0x80 }) { return json }
        var out = ""
        out.reserveCapacity(json.utf8.count + 16)
        for scalar in json.unicodeScalars {
            if scalar.value < 0x80 { out.unicodeScalars.append(scalar); continue }
            for unit in String(scalar).utf16 { out += "\\u" + String(repeating: "0", count: 4 - String(unit, radix: 16).count) + String(unit, radix: 16) }
        }
        return out
    }

    /// A fingerprint of a table's written columns (FNV-1a, 64 bits, of their names): a follower applies a row
    /// only when its own table writes the same columns.
    static func fingerprint(_ written: [String]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for name in written {
            for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
            h = (h ^ 0xFF) &* 0x0000_0100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
