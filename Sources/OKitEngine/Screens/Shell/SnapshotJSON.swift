/// Snapshots as JSON, with the key order of screens.md (stable, so snapshots compare byte for byte): the fields
/// of Snapshot+Fields.swift, written out by a `SnapshotEncoder` that knows none of them.
extension Snapshot {
    public var json: String { SnapshotJSONWriter.json(self) }
}

extension ScreenSnapshot {
    public var json: String { SnapshotJSONWriter.json(self) }
}

struct SnapshotJSONWriter: SnapshotEncoder {
    var out: [UInt8] = []
    private var needsComma = [false]

    /// A part as a JSON object.
    static func json<Part: SnapshotEncodable>(_ part: Part) -> String {
        var w = SnapshotJSONWriter()
        w.object { w in part.encode(to: &w) }
        return String(decoding: w.out, as: UTF8.self)
    }

    mutating func comma() {
        if needsComma[needsComma.count - 1] { out.append(0x2C) }
        needsComma[needsComma.count - 1] = true
    }

    mutating func object(_ body: (inout SnapshotJSONWriter) -> Void) {
        comma(); out.append(0x7B); needsComma.append(false)
        body(&self)
        needsComma.removeLast(); out.append(0x7D)
    }

    mutating func array(_ body: (inout SnapshotJSONWriter) -> Void) {
        comma(); out.append(0x5B); needsComma.append(false)
        body(&self)
        needsComma.removeLast(); out.append(0x5D)
    }

    mutating func key(_ k: String) {
        comma(); JSONText.appendQuoted(k, to: &out); out.append(0x3A)
        needsComma[needsComma.count - 1] = false
    }

    mutating func null() { comma(); out.append(contentsOf: "null".utf8) }

    mutating func string(_ s: String) {
        comma()
        JSONText.appendQuoted(s, to: &out)
    }

    // SnapshotEncoder

    mutating func field(_ k: String, _ s: String?) {
        key(k)
        if let s { string(s) } else { null() }
    }

    mutating func field(_ k: String, _ b: Bool?) {
        key(k)
        if let b { comma(); out.append(contentsOf: (b ? "true" : "false").utf8) } else { null() }
    }

    mutating func field(_ k: String, _ i: Int?) {
        key(k)
        if let i { comma(); out.append(contentsOf: String(i).utf8) } else { null() }
    }

    mutating func field(_ k: String, _ v: SnapshotValue?) {
        key(k)
        switch v {
        case nil, .null?: null()
        case .bool(let b)?: comma(); out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i)?: comma(); out.append(contentsOf: String(i).utf8)
        case .double(let d)?: comma(); out.append(contentsOf: (d.isFinite ? Value.displayDouble(d) : "null").utf8)
        case .string(let s)?: string(s)
        }
    }

    mutating func field(_ k: String, _ list: [String]) {
        key(k)
        array { w in for s in list { w.string(s) } }
    }

    mutating func field(_ k: String, pairs: [(key: String, value: String)]) {
        key(k)
        object { w in for (k, v) in pairs { w.field(k, v) } }
    }

    mutating func object<Part: SnapshotEncodable>(_ k: String, _ part: Part) {
        key(k)
        object { w in part.encode(to: &w) }
    }

    mutating func objects<Part: SnapshotEncodable>(_ k: String, _ parts: [Part]) {
        key(k)
        array { w in for p in parts { w.object { w in p.encode(to: &w) } } }
    }

    mutating func null(_ k: String) { key(k); null() }
}
