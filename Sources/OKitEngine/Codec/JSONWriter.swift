import Foundation

/// Writes entities as compact JSON straight into a byte buffer (no intermediate dictionaries).
///
/// Fields go in slot order, unknown fields verbatim after them; nils are omitted (written as `null` only for
/// an optional field whose declared default is not nil, so that it reads back as nil); dates are ISO 8601
/// UTC with the fewest fraction digits that round-trip; doubles in their shortest round-trip form (a
/// non-finite double, which JSON cannot hold, is written as null and reads back as the field's default).
struct JSONWriter {
    var out: [UInt8] = []
    /// The nesting of objects and arrays at the cursor, and the deepest reached: a store checks it against
    /// what a load reads (`JSONReader.maxDepth`) before it replaces a file.
    var depth = 0
    var deepest = 0
    /// Where a streaming writer sends `out` each time it passes `chunk` bytes (at an entity's end); nil keeps the
    /// whole document in `out`. A model of 1,000,000 books is about 290 MB: streamed, the writer touches the same
    /// 1 MiB again instead of faulting in (and copying, at each doubling) a buffer of the whole size.
    var sink: ((UnsafeRawBufferPointer) throws -> Void)?
    /// The bytes already sent to the sink, and the first error it threw (writing stops sending after it).
    private(set) var sent = 0
    private(set) var sinkError: (any Error)?
    static let chunk = 1 << 20

    init(capacity: Int = 1 << 16) { out.reserveCapacity(capacity) }

    /// All bytes written so far: sent and in `out`.
    var total: Int { sent + out.count }

    /// Sends what is in `out` to the sink and empties it (nothing without a sink).
    mutating func flush() {
        guard let sink else { return }
        if sinkError == nil {
            do { try out.withUnsafeBytes { try sink($0) } } catch { sinkError = error }
        }
        sent += out.count
        out.removeAll(keepingCapacity: true)
    }

    /// The whole model document with its `okit` header.
    mutating func document(_ root: Entity, type: String, version: Int, generation: Int,
                           headerExtras: [(key: String, json: [UInt8])]) {
        depth = 1
        deepest = max(deepest, 2)
        out.append(contentsOf: #"{"okit":{"version":"#.utf8)
        int(version)
        out.append(contentsOf: #","type":"#.utf8)
        string(type)
        out.append(contentsOf: #","gen":"#.utf8)
        int(generation)
        for (k, raw) in headerExtras {
            out.append(0x2C); string(k); out.append(0x3A); out.append(contentsOf: raw)
            deepest = max(deepest, 2 + JSONWriter.nesting(raw))
        }
        out.append(0x7D)
        fields(root, first: false)
        out.append(0x7D)
    }

    /// One entity as compact JSON (a journal record's content).
    static func entityJSON(_ e: Entity) -> [UInt8] {
        var w = JSONWriter(capacity: 512)
        w.entity(e)
        return w.out
    }

    /// One entity as a JSON object.
    mutating func entity(_ e: Entity) {
        enter()
        out.append(0x7B)
        fields(e, first: true)
        out.append(0x7D)
        depth -= 1
        if out.count >= JSONWriter.chunk, sink != nil { flush() }
    }

    @inline(__always) mutating func enter() {
        depth += 1
        if depth > deepest { deepest = depth }
    }

    /// How deep a verbatim JSON value nests (0 for a scalar): brackets outside strings.
    static func nesting(_ raw: [UInt8]) -> Int {
        var d = 0, most = 0, inString = false, escaped = false
        for c in raw {
            if inString {
                if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == 0x22 { inString = false }
                continue
            }
            switch c {
            case 0x22: inString = true
            case 0x7B, 0x5B: d += 1; most = max(most, d)
            case 0x7D, 0x5D: d -= 1
            default: break
            }
        }
        return most
    }

    /// A packed id as a JSON string: `"` + 36 bytes + `"`.
    mutating func packedId(_ bits: (UInt64, UInt64)) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 38) { buf in
            guard let p = buf.baseAddress else { return }
            p[0] = 0x22
            PackedId.write(bits, into: p + 1)
            p[37] = 0x22
            out.append(contentsOf: buf)
        }
    }

    mutating func fields(_ e: Entity, first: Bool) {
        var first = first
        let keys = e.type.keyPrefixes
        // An inline binary's `size` is written as its `data` decodes (whatever set `data`).
        let inlineSize = e.type.kind == .inlineBinary ? InlineBytes.size(of: e) : nil
        var start = 0
        if let bits = e.packedId {
            // A packed id is written from its bits (no string is made).
            if !first { out.append(0x2C) }
            first = false
            keys[0].withUnsafeBufferPointer { out.append(contentsOf: $0) }
            packedId(bits)
            start = 1
        }
        for slot in start..<Int(e.slotCount) {
            var v = e.slots[slot]
            if let inlineSize, inlineSize.slot == slot { v = .int(inlineSize.size) }
            // A nil is omitted (it reads back as the field's default) unless the default is not nil.
            if v.isNull, !JSONWriter.nullNeedsWriting(e.type, slot) { continue }
            if !first { out.append(0x2C) }
            first = false
            keys[slot].withUnsafeBufferPointer { out.append(contentsOf: $0) }
            value(v)
        }
        if let unknown = e.unknownFields {
            for (k, raw) in unknown {
                if !first { out.append(0x2C) }
                first = false
                string(k)
                out.append(0x3A)
                out.append(contentsOf: raw)
                if raw.first == 0x7B || raw.first == 0x5B { deepest = max(deepest, depth + JSONWriter.nesting(raw)) }
            }
        }
    }

    /// Whether a nil in `slot` must be written as `null`: an optional field with a non-nil declared default
    /// (omitted, it would read back as that default).
    static func nullNeedsWriting(_ type: EntityType, _ slot: Int) -> Bool {
        guard type.optionals[slot], let d = type.fields[slot].defaultValue else { return false }
        return !d.isNull
    }

    mutating func value(_ v: Value) {
        switch v {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b):
            if b { out.append(0x74); out.append(0x72); out.append(0x75); out.append(0x65) } else {
                out.append(0x66); out.append(0x61); out.append(0x6C); out.append(0x73); out.append(0x65)
            }
        case .int(let i): int(i)
        case .double(let d):
            if !d.isFinite {
                out.append(contentsOf: "null".utf8)
            } else if d == 0, d.sign == .minus {
                out.append(contentsOf: "-0.0".utf8)
            } else if d == d.rounded(), abs(d) < 1e15 {
                int(Int(d))
                out.append(contentsOf: [0x2E, 0x30])          // keep it a double: "12.0"
            } else {
                var text = d.description
                text.withUTF8 { out.append(contentsOf: $0) }
            }
        case .string(let s): string(s)
        case .date(let d):
            if ISODate.isExactlyWritable(d) {
                out.append(0x22)
                ISODate.appendExact(d, to: &out)
                out.append(0x22)
            } else {
                // Out of ISO range: OKit's form, seconds since 2001 (null when not finite, like a double).
                value(.double(d.timeIntervalSinceReferenceDate))
            }
        case .data(let bytes): string(Data(bytes).base64EncodedString())
        case .entity(let e): entity(e)
        case .collection(let c):
            enter()
            defer { depth -= 1 }
            if c.kind == .map {
                out.append(0x7B)
                for (k, (key, item)) in zip(c.keys, c.items).enumerated() {
                    if k > 0 { out.append(0x2C) }
                    string(key)
                    out.append(0x3A)
                    value(item)
                }
                out.append(0x7D)
            } else {
                out.append(0x5B)
                for (k, item) in c.items.enumerated() {
                    if k > 0 { out.append(0x2C) }
                    value(item)
                }
                out.append(0x5D)
            }
        case .list(let items):
            enter()
            defer { depth -= 1 }
            out.append(0x5B)
            for (k, item) in items.enumerated() {
                if k > 0 { out.append(0x2C) }
                value(item)
            }
            out.append(0x5D)
        }
    }

    mutating func int(_ v: Int) {
        if v >= 0, v < 10 { out.append(0x30 + UInt8(v)); return }
        var n = v.magnitude
        var tmp: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                  UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var k = 0
        withUnsafeMutableBytes(of: &tmp) { buf in
            repeat {
                buf[19 - k] = 0x30 + UInt8(n % 10)
                n /= 10
                k += 1
            } while n > 0
            if v < 0 { out.append(0x2D) }
            out.append(contentsOf: buf[(20 - k)...])
        }
    }

    @inline(__always) mutating func string(_ s: String) { JSONText.appendQuoted(s, to: &out) }
}
