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
    static func parse(_ o: JSONTree) -> PostgresAnnouncedRow? {
        guard case .object = o, let table = o["table"]?.string, let key = o["key"]?.string, let read = o["read"].flatMap(integer),
              let columns = o["columns"]?.string, let raw = o["values"]?.array else { return nil }
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
    static func decode(_ v: JSONTree) -> RelationalValue? {
        switch v {
        case .null: return .null
        case .string(let s): return .string(s)
        case .object(let members):
            guard members.count == 1, let text = members[0].value.string else { return nil }
            switch members[0].key {
            case "int": return Int64(text).map { .int64($0) }
            case "double": return Double(text).map { .double($0) }
            case "bytes": return Data(base64Encoded: text).map { .blob($0) }
            default: return nil
            }
        default: return integer(v).map { .int64($0) }
        }
    }

    /// A JSON number that is an integer within ±2^53 (where every integer is exact); nil for anything else.
    static func integer(_ v: JSONTree) -> Int64? {
        let i: Int64
        switch v {
        case .int(let n): i = Int64(n)
        case .double(let d):
            guard d.isFinite, d.rounded(.towardZero) == d, d.magnitude <= Double(exactIntegers) else { return nil }
            i = Int64(d)
        default: return nil
        }
        return i.magnitude <= exactIntegers.magnitude ? i : nil
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
