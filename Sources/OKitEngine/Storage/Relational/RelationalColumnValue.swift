import Foundation

/// Field values as column values and back (storage.md "SQLite models": typed columns, dates as ISO 8601 UTC with
/// exactly three fraction digits, refs as ids, JSON TEXT for collections of scalars and refs, BLOBs for inline
/// binaries).
package enum RelationalColumnValue {
    // MARK: Writing

    /// `2019-05-01T10:00:00.000Z`: text order is time order.
    package static func dateText(_ date: Date) -> String {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        let whole = (ms / 1000).rounded(.down)
        let frac = Int(ms - whole * 1000)
        var out = [UInt8]()
        out.reserveCapacity(24)
        ISODate.append(whole, to: &out, fractional: false, zone: false)
        out.append(UInt8(ascii: "."))
        ISODate.pad(frac, 3, &out)
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The column value(s) of a field: one, or two for an inline binary (bytes, then format and label).
    package static func append(_ v: Value, _ m: RelationalTable.Mapping, to row: inout [RelationalValue]) {
        switch m {
        case .string:
            if case .string(let s) = v { row.append(s.relationalValue) } else { row.append(text(v)) }
        case .int:
            switch v {
            case .int(let i): row.append(Int64(i).relationalValue)
            case .double(let d) where d.isFinite: row.append(d.relationalValue)
            default: row.append(.null)
            }
        case .double:
            switch v {
            case .double(let d) where d.isFinite: row.append(d.relationalValue)
            case .int(let i): row.append(Double(i).relationalValue)
            default: row.append(.null)
            }
        case .bool:
            if case .bool(let b) = v { row.append((b ? 1 : 0 as Int64).relationalValue) } else { row.append(.null) }
        case .date:
            if case .date(let d) = v { row.append(dateText(d).relationalValue) } else { row.append(.null) }
        case .ref:
            row.append(refKey(v).map(\.relationalValue) ?? .null)
        case .json:
            if v.isNull { row.append(.null) } else { row.append(String(decoding: json(v), as: UTF8.self).relationalValue) }
        case .binaryMeta:
            if case .entity(let meta) = v {
                row.append(String(decoding: JSONWriter.entityJSON(meta), as: UTF8.self).relationalValue)
            } else {
                row.append(.null)
            }
        case .inlineBlob:
            guard case .entity(let meta) = v else { row.append(.null); row.append(.null); return }
            var bytes = Data()
            if case .string(let b64)? = meta["data"] { bytes = Data(base64Encoded: b64) ?? Data() }
            row.append(bytes.relationalValue)
            var w = JSONWriter(capacity: 64)
            w.out.append(0x7B)
            w.string("format"); w.out.append(0x3A); w.value(meta["format"] ?? .string(""))
            w.out.append(0x2C)
            w.string("label"); w.out.append(0x3A); w.value(meta["label"] ?? .string(""))
            w.out.append(0x7D)
            row.append(String(decoding: w.out.buffer, as: UTF8.self).relationalValue)
        case .children:
            break
        }
    }

    package static func text(_ v: Value) -> RelationalValue {
        switch v {
        case .null: return .null
        case .string(let s): return s.relationalValue
        default: return (v.displayString ?? "").relationalValue
        }
    }

    /// A ref's target id (nil for an empty ref).
    package static func refKey(_ v: Value) -> String? {
        guard case .entity(let r) = v, r.values.count > 1, case .string(let k) = r.values[1], !k.isEmpty else { return nil }
        return k
    }

    /// A collection as JSON: refs as their targets' ids, everything else as in a model file.
    package static func json(_ v: Value) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        if case .collection(let c) = v, case .ref = c.elementType {
            if c.kind == .map {
                w.out.append(0x7B)
                for (k, (key, item)) in zip(c.keys, c.items).enumerated() {
                    if k > 0 { w.out.append(0x2C) }
                    w.string(key); w.out.append(0x3A)
                    if let id = refKey(item) { w.string(id) } else { w.out.append(contentsOf: "null".utf8) }
                }
                w.out.append(0x7D)
            } else {
                w.out.append(0x5B)
                for (k, item) in c.items.enumerated() {
                    if k > 0 { w.out.append(0x2C) }
                    if let id = refKey(item) { w.string(id) } else { w.out.append(contentsOf: "null".utf8) }
                }
                w.out.append(0x5D)
            }
            return w.bytes
        }
        w.value(v)
        return w.bytes
    }

    // MARK: Reading

    /// Why a column's value could not be read: the expected type (the caller names database, table, row, column).
    package struct Mismatch: Error {
        package let expected: String
        package let found: String
    }

    package static func describe(_ d: RelationalValue) -> String {
        switch d {
        case .null: return "NULL"
        case .int64(let i): return "the INTEGER \(i)"
        case .double(let x): return "the REAL \(x)"
        case .string(let s): return "the TEXT \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case .blob(let b): return "a BLOB of \(b.count) bytes"
        }
    }

    /// A scalar column's value as a field value; NULL is `.null` (the caller applies the default). Lossless
    /// coercions are taken ("5" for an int, 12 for a double); anything else is a `Mismatch`.
    package static func scalar(_ d: RelationalValue, _ m: RelationalTable.Mapping) throws(Mismatch) -> Value {
        switch (m, d) {
        case (_, .null): return .null
        case (.string, .string(let s)), (.ref, .string(let s)): return .string(s)
        case (.string, .int64(let i)), (.ref, .int64(let i)): return .string(String(i))
        case (.string, .double(let x)): return .string(Value.double(x).displayString ?? String(x))
        case (.int, .int64(let i)): return .int(Int(i))
        case (.int, .double(let x)) where x == x.rounded() && abs(x) < 9.2e18: return .int(Int(x))
        case (.int, .string(let s)):
            if let i = Int(s.trimmingCharacters(in: .whitespaces)) { return .int(i) }
        case (.double, .double(let x)): return .double(x)
        case (.double, .int64(let i)): return .double(Double(i))
        case (.double, .string(let s)):
            if let x = Double(s.trimmingCharacters(in: .whitespaces)), x.isFinite { return .double(x) }
        case (.bool, .int64(let i)) where i == 0 || i == 1: return .bool(i == 1)
        case (.bool, .string(let s)):
            switch s.lowercased() {
            case "true", "1": return .bool(true)
            case "false", "0": return .bool(false)
            default: break
            }
        case (.date, .string(let s)):
            if let date = ISODate.parse(s, stored: true) { return .date(date) }
        case (.date, .int64(let i)): return .date(Date(timeIntervalSinceReferenceDate: Double(i)))
        case (.date, .double(let x)) where x.isFinite: return .date(Date(timeIntervalSinceReferenceDate: x))
        default: break
        }
        throw Mismatch(expected: expected(m), found: describe(d))
    }

    package static func expected(_ m: RelationalTable.Mapping) -> String {
        switch m {
        case .string: return "TEXT"
        case .int: return "an INTEGER"
        case .double: return "a REAL number"
        case .bool: return "an INTEGER 0 or 1"
        case .date: return "an ISO 8601 date as TEXT"
        case .ref: return "the TEXT id of an entity"
        case .json: return "JSON TEXT"
        case .binaryMeta: return "JSON TEXT with the data's metadata"
        case .inlineBlob: return "a BLOB"
        case .children: return "child rows"
        }
    }

    /// A JSON column's text as a field value of type `t`, read by the model files' reader (refs may be bare ids).
    package static func jsonValue(_ d: RelationalValue, _ t: FieldType, _ m: RelationalTable.Mapping, owner: Entity, slot: Int,
                          engine: any ModelHost) throws(Mismatch) -> Value {
        let bytes: [UInt8]
        switch d {
        case .null: return .null
        case .string(let s): bytes = Array(s.utf8)
        case .blob(let b) where m == .inlineBlob: return try inline(Array(b), meta: nil, t, owner: owner, slot: slot, engine: engine)
        default: throw Mismatch(expected: expected(m), found: describe(d))
        }
        return try parse(bytes, t, m, owner: owner, slot: slot, engine: engine, found: d)
    }

    /// An inline binary's bytes and its `{"format", "label"}` as the metadata entity.
    package static func inline(_ bytes: [UInt8], meta: RelationalValue?, _ t: FieldType, owner: Entity, slot: Int,
                       engine: any ModelHost) throws(Mismatch) -> Value {
        var w = JSONWriter(capacity: bytes.count * 4 / 3 + 64)
        w.out.append(0x7B)
        if case .string(let s)? = meta, s.hasPrefix("{"), s.hasSuffix("}"), s.count > 2 {
            w.out.append(contentsOf: s.utf8.dropFirst().dropLast())
            w.out.append(0x2C)
        }
        w.string("data"); w.out.append(0x3A); w.string(Data(bytes).base64EncodedString())
        w.out.append(0x7D)
        return try parse(w.bytes, t, .inlineBlob, owner: owner, slot: slot, engine: engine, found: .null)
    }

    private static func parse(_ bytes: [UInt8], _ t: FieldType, _ m: RelationalTable.Mapping, owner: Entity, slot: Int,
                              engine: any ModelHost, found: RelationalValue) throws(Mismatch) -> Value {
        do {
            return try bytes.withUnsafeBufferPointer { buf throws(JSONReader.Failure) -> Value in
                var r = JSONReader(bytes: buf, engine: engine)
                r.skipSpace()
                let v = try r.value(t, owner: owner, slot: slot)
                r.skipSpace()
                if r.i < buf.count { throw r.fail("unexpected text after the value") }
                return v
            }
        } catch {
            throw Mismatch(expected: expected(m) + " (\(t.declaration)): \(error.message) at byte \(error.offset)", found: describe(found))
        }
    }
}

extension RelationalTable.Mapping: Equatable {
    package static func == (a: Self, b: Self) -> Bool {
        switch (a, b) {
        case (.string, .string), (.int, .int), (.double, .double), (.bool, .bool), (.date, .date), (.ref, .ref),
             (.json, .json), (.binaryMeta, .binaryMeta), (.inlineBlob, .inlineBlob): return true
        case (.children(let x), .children(let y)): return x == y
        default: return false
        }
    }
}
