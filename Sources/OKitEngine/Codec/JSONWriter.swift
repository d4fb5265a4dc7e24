import Foundation

/// Writes entities as compact JSON straight into a byte buffer (no intermediate dictionaries).
///
/// Fields go in slot order, unknown fields verbatim after them; nils are omitted (written as `null` only for
/// an optional field whose declared default is not nil, so that it reads back as nil); dates are ISO 8601
/// UTC with the fewest fraction digits that round-trip; doubles in their shortest round-trip form (a
/// non-finite double, which JSON cannot hold, is written as null and reads back as the field's default).
package struct JSONWriter {
    /// The bytes written and not yet sent to the sink. (A `var` only so that it can be passed `inout` to the
    /// escaper and the date formatter without a retain; it is never replaced.)
    package private(set) var out: JSONOutput
    /// The nesting of objects and arrays at the cursor, and the deepest reached: a store checks it against
    /// what a load reads (`JSONReader.maxDepth`) before it replaces a file.
    package var depth = 0
    package var deepest = 0
    /// Where a streaming writer sends `out` each time it passes `chunk` bytes (at an entity's end); nil keeps the
    /// whole document in `out`. A model of 1,000,000 books is about 290 MB: streamed, the writer touches the same
    /// 1 MiB again instead of faulting in (and copying, at each doubling) a buffer of the whole size.
    package var sink: ((UnsafeRawBufferPointer) throws -> Void)?
    /// The bytes already sent to the sink, and the first error it threw (writing stops sending after it).
    package private(set) var sent = 0
    package private(set) var sinkError: (any Error)?
    package static let chunk = 1 << 20

    package init(capacity: Int = 1 << 16) { out = JSONOutput(capacity: capacity) }

    /// A writer appending to `output` (emptied first): a buffer kept from an earlier write.
    package init(output: JSONOutput) {
        out = output
        out.removeAll()
    }

    /// All bytes written so far: sent and in `out`.
    package var total: Int { sent + out.count }

    /// What is in `out`, copied.
    package var bytes: [UInt8] { out.bytes }

    /// Sends what is in `out` to the sink and empties it (nothing without a sink).
    package mutating func flush() {
        guard let sink else { return }
        if sinkError == nil {
            do { try out.withUnsafeBytes { try sink($0) } } catch { sinkError = error }
        }
        sent += out.count
        out.removeAll()
    }

    /// The whole model document with its `okit` header.
    package mutating func document(_ root: Entity, type: String, version: Int, generation: Int,
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
    package static func entityJSON(_ e: Entity) -> [UInt8] {
        var w = JSONWriter(capacity: 512)
        w.entity(e)
        return w.bytes
    }

    /// One entity as a JSON object.
    package mutating func entity(_ e: Entity) {
        enter()
        out.append(0x7B)
        fields(e, first: true)
        out.append(0x7D)
        depth -= 1
        if out.count >= JSONWriter.chunk, sink != nil { flush() }
    }

    @inline(__always) mutating package func enter() {
        depth += 1
        if depth > deepest { deepest = depth }
    }

    /// How deep a verbatim JSON value nests (0 for a scalar): brackets outside strings.
    package static func nesting(_ raw: [UInt8]) -> Int {
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
    package mutating func packedId(_ bits: (UInt64, UInt64)) {
        let p = out.room(38)
        p[0] = 0x22
        PackedId.write(bits, into: p + 1)
        p[37] = 0x22
        out.advance(by: 38)
    }

    package mutating func fields(_ e: Entity, first: Bool) {
        var first = first
        // Not retained: the type holds its keys (a `let`) and the entity its type, for as long as `e` is written.
        // A retain and a release per entity were atomic instructions, each waiting for the writes before it.
        let keys = Unmanaged.passUnretained(e.type.keyPrefixes)
        // An inline binary's `size` is written as its `data` decodes (whatever set `data`).
        let inlineSize = e.type.kind == .inlineBinary ? InlineBytes.size(of: e) : nil
        var start = 0
        if let bits = e.packedId {
            // A packed id is written from its bits (no string is made).
            if !first { out.append(0x2C) }
            first = false
            out.append(contentsOf: keys._withUnsafeGuaranteedRef { $0.key(0) })
            packedId(bits)
            start = 1
        }
        // A value kept for the migrations that none converted (a model whose migration failed and was caught) is
        // written as it was stored, among the unknown fields, and its field not: a key is never written twice.
        let kept = e.mistypedSlots
        for slot in start..<Int(e.slotCount) {
            if let kept, kept.contains(slot) { continue }
            let v = UnsafePointer(e.slots + slot)
            // A nil is omitted (it reads back as the field's default) unless the default is not nil.
            if v.pointee.isNull, !JSONWriter.nullNeedsWriting(e.type, slot) { continue }
            if !first { out.append(0x2C) }
            first = false
            out.append(contentsOf: keys._withUnsafeGuaranteedRef { $0.key(slot) })
            if let inlineSize, inlineSize.slot == slot { int(inlineSize.size) } else { value(at: v) }
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
    package static func nullNeedsWriting(_ type: EntityType, _ slot: Int) -> Bool {
        guard type.optionals[slot], let d = type.fields[slot].defaultValue else { return false }
        return !d.isNull
    }

    package mutating func value(_ v: Value) {
        withUnsafePointer(to: v) { value(at: $0) }
    }

    /// The value at `v`, read in place (a copy would retain what it holds: an atomic write for each string,
    /// entity and collection of a model file).
    package mutating func value(at v: UnsafePointer<Value>) {
        switch v.pointee {
        case .null: out.append(ascii: "null")
        case .bool(let b): out.append(ascii: b ? "true" : "false")
        case .int(let i): int(i)
        case .double(let d): double(d)
        case .string: JSONText.appendQuoted(at: v, to: &out)
        case .date(let d):
            if ISODate.isExactlyWritable(d) {
                out.append(0x22)
                ISODate.appendExact(d, to: &out)
                out.append(0x22)
            } else {
                // Out of ISO range: OKit's form, seconds since 2001 (null when not finite, like a double).
                double(d.timeIntervalSinceReferenceDate)
            }
        case .data(let bytes): string(Data(bytes).base64EncodedString())
        case .entity:
            if let e = v.pointee.unretainedEntity { e._withUnsafeGuaranteedRef { entity($0) } }
        case .collection:
            if let c = v.pointee.unretainedCollection { c._withUnsafeGuaranteedRef { collection($0) } }
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

    /// A collection as a JSON array, or an object for a map.
    package mutating func collection(_ c: EntityCollection) {
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
            var first = true
            c.items.forEachRun { items in
                guard let base = items.baseAddress else { return }
                for k in 0..<items.count {
                    if !first { out.append(0x2C) }
                    first = false
                    value(at: base + k)
                }
            }
            out.append(0x5D)
        }
    }

    /// A double in its shortest round-trip form; `12.0` for a whole number (so it reads back as a double), `null`
    /// when not finite.
    package mutating func double(_ d: Double) {
        if !d.isFinite {
            out.append(ascii: "null")
        } else if d == 0, d.sign == .minus {
            out.append(ascii: "-0.0")
        } else if d == d.rounded(), abs(d) < 1e15 {
            int(Int(d))
            out.append(ascii: ".0")
        } else if !JSONWriter.appendFewDecimals(d, to: out) {
            var text = d.description
            text.withUTF8 { out.append(contentsOf: $0) }
        }
    }

    /// Powers of ten for `appendFewDecimals`, all exact.
    private static let decimalScales: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// A double that is exactly the nearest to a decimal with at most six fraction digits and a magnitude in
    /// [0.001, 1e9) (prices, ratings, most measures), written as that decimal: what `description` writes, without
    /// making a String. False, writing nothing, for any other.
    @inline(__always)
    package static func appendFewDecimals(_ d: Double, to out: JSONOutput) -> Bool {
        let a = abs(d)
        guard a >= 0.001, a < 1e9 else { return false }
        for k in 1...6 {
            let scale = decimalScales[k]
            let n = (a * scale).rounded()
            guard n / scale == a else { continue }
            // `n` has at most 15 digits; the fraction's trailing zeros are never there (k is the smallest).
            var digits = Int(n)
            let whole = digits / Int(scale)
            var frac = digits - whole * Int(scale)
            var wholeDigits = 1
            var w = whole
            while w >= 10 { w /= 10; wholeDigits += 1 }
            let sign = d < 0 ? 1 : 0
            let length = sign + wholeDigits + 1 + k
            let p = out.room(length)
            if sign == 1 { p[0] = 0x2D }
            var at = length
            for _ in 0..<k {
                at -= 1
                p[at] = 0x30 &+ UInt8(truncatingIfNeeded: frac % 10)
                frac /= 10
            }
            at -= 1
            p[at] = 0x2E
            digits = whole
            repeat {
                at -= 1
                p[at] = 0x30 &+ UInt8(truncatingIfNeeded: digits % 10)
                digits /= 10
            } while digits > 0
            out.advance(by: length)
            return true
        }
        return false
    }

    package mutating func int(_ v: Int) {
        if v >= 0, v < 10 { out.append(0x30 + UInt8(v)); return }
        var n = v.magnitude
        var digits = 0
        var m = n
        repeat { digits += 1; m /= 10 } while m > 0
        let sign = v < 0 ? 1 : 0
        let p = out.room(digits + sign)
        if sign == 1 { p[0] = 0x2D }
        var k = digits + sign
        repeat {
            k -= 1
            p[k] = 0x30 + UInt8(truncatingIfNeeded: n % 10)
            n /= 10
        } while n > 0
        out.advance(by: digits + sign)
    }

    @inline(__always) mutating package func string(_ s: String) { JSONText.appendQuoted(s, to: &out) }
}
