import Foundation

/// The typed half of the reader: entities, fields and collections by the schema.
extension JSONReader {
    /// Reads the whole document as a root entity of `type`.
    mutating func root(_ type: EntityType) throws(Failure) -> Entity {
        let e = try entity(type, parent: nil, isRoot: true)
        skipSpace()
        if i < b.count { throw fail("unexpected text after the end of the document") }
        return e
    }

    /// Reads one entity object. Missing fields get their defaults; unknown fields are kept verbatim.
    mutating func entity(_ type: EntityType, parent: Entity?, isRoot: Bool = false) throws(Failure) -> Entity {
        try enter()
        defer { depth -= 1 }
        try expect(0x7B, "an object for a \(type.name)")
        let n = type.fields.count
        let e = Entity(type: type, values: ContiguousArray(repeating: .null, count: n), state: .managed)
        e.parent = parent
        e.isContained = parent != nil
        entityCount += 1
        var seenMask: UInt64 = 0
        var seenMore: [Bool]? = n > 64 ? [Bool](repeating: false, count: n) : nil
        if peek() == 0x7D {
            i += 1
        } else {
            while true {
                skipSpace()
                let keyStart = i
                guard i < b.count, b[i] == 0x22 else { throw fail("expected a field name") }
                // Fast path: a key without escapes is compared as bytes.
                var j = i + 1
                while j < b.count, b[j] != 0x22, b[j] != 0x5C { j += 1 }
                var slot: Int?
                var keyText: String?
                if j < b.count, b[j] == 0x22 {
                    slot = type.slot(utf8: UnsafeBufferPointer(rebasing: b[(i + 1)..<j]))
                    i = j + 1
                } else {
                    let k = try string()
                    keyText = k
                    slot = type.slot(of: k)
                }
                try expect(0x3A, "\":\" after a field name")
                if let slot {
                    e.values[slot] = try isNull() ? .null : try value(type.fieldTypes[slot], owner: e, slot: slot)
                    if slot < 64 { seenMask |= 1 << UInt64(slot) } else { seenMore?[slot] = true }
                } else {
                    let key = keyText ?? String(decoding: UnsafeBufferPointer(rebasing: b[(keyStart + 1)..<(i - 1)]).prefix { $0 != 0x22 }, as: UTF8.self)
                    let r = try skipValue()
                    let raw = Array(UnsafeBufferPointer(rebasing: b[r]))
                    if isRoot, key == "okit" { header(raw) } else {
                        if e.unknownFields == nil { e.unknownFields = [] }
                        e.unknownFields?.append((key, raw))
                    }
                }
                guard let c = peek() else { throw fail("unexpected end of file, expected \",\" or \"}\"") }
                i += 1
                if c == 0x7D { break }
                guard c == 0x2C else { throw fail("expected \",\" or \"}\"", at: i - 1) }
            }
        }
        let allSeen: UInt64 = n >= 64 ? ~0 : (1 << UInt64(n)) - 1
        if seenMask & allSeen == allSeen, seenMore == nil, !e.values.contains(where: { $0.isNull }) { return e }
        for slot in 0..<n {
            let seen = slot < 64 ? seenMask & (1 << UInt64(slot)) != 0 : (seenMore?[slot] ?? false)
            guard !seen || (e.values[slot].isNull && !type.optionals[slot] && needsDefault(type.fieldTypes[slot])) else { continue }
            if slot == 0, type.hasId, !seen || e.values[0].isNull { e.values[0] = .string(engine.ids.next()); continue }
            var creating: Set<ObjectIdentifier> = []
            if let v = try? engine.defaultValue(for: type.fields[slot], slot: slot, owner: e, creating: &creating) {
                e.values[slot] = v
            }
        }
        return e
    }

    func needsDefault(_ t: FieldType) -> Bool {
        switch t {
        case .data, .image, .inlineData, .inlineImage, .entity: return false
        default: return true
        }
    }

    /// The `okit` header: version, generation, other members kept.
    mutating func header(_ raw: [UInt8]) {
        raw.withUnsafeBufferPointer { buf in
            var r = JSONReader(bytes: buf, engine: engine)
            guard (try? r.expect(0x7B, "{")) != nil else { return }
            if r.peek() == 0x7D { return }
            while true {
                guard let key = try? r.string(), (try? r.expect(0x3A, ":")) != nil else { return }
                let start = r.i
                switch key {
                case "version": if case .int(let v)? = try? r.number() { version = v }
                case "gen": if case .int(let v)? = try? r.number() { generation = v }
                case "type": _ = try? r.string()
                default:
                    guard let range = try? r.skipValue() else { return }
                    headerExtras.append((key, Array(UnsafeBufferPointer(rebasing: buf[range]))))
                }
                if r.i == start { return }
                guard let c = r.peek() else { return }
                r.i += 1
                if c != 0x2C { return }
            }
        }
    }

    /// A field value of the declared type.
    mutating func field(_ f: FieldSpec, slot: Int, owner: Entity) throws(Failure) -> Value {
        if try isNull() { return .null }
        return try value(f.type, owner: owner, slot: slot)
    }

    mutating func value(_ t: FieldType, owner: Entity, slot: Int) throws(Failure) -> Value {
        let start = i
        switch t {
        case .string:
            guard peek() == 0x22 else { throw typeError("a string", start) }
            return .string(try string())
        case .int:
            if peek() == 0x22 {
                let s = try string()
                guard let v = Int(s) else { throw typeError("an int", start) }
                return .int(v)
            }
            guard let c = peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw typeError("an int", start) }
            switch try number() {
            case .int(let v): return .int(v)
            case .double(let d) where d == d.rounded() && abs(d) < 9.2e18: return .int(Int(d))
            default: throw typeError("an int", start)
            }
        case .double:
            if peek() == 0x22 {
                let s = try string()
                guard let v = Double(s), v.isFinite else { throw typeError("a number", start) }
                return .double(v)
            }
            guard let c = peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw typeError("a number", start) }
            switch try number() {
            case .int(let v): return .double(Double(v))
            case let v: return v
            }
        case .bool:
            switch peek() {
            case 0x74: try literal("true"); return .bool(true)
            case 0x66: try literal("false"); return .bool(false)
            default: throw typeError("true or false", start)
            }
        case .date:
            if peek() == 0x22 {
                skipSpace()
                let s0 = i + 1
                let text = try string()
                let parsed: Double? = text.utf8.count == i - s0 - 1
                    ? ISODate.parse(bytes: UnsafeBufferPointer(rebasing: b[s0..<(i - 1)]))
                    : ISODate.parse(text)?.timeIntervalSince1970
                guard let secs = parsed else { throw typeError("an ISO 8601 date", start) }
                return .date(Date(timeIntervalSince1970: secs))
            }
            guard let c = peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw typeError("a date", start) }
            switch try number() {
            case .int(let v): return .date(Date(timeIntervalSince1970: Double(v) + ISODate.referenceOffset))
            case .double(let d): return .date(Date(timeIntervalSince1970: d + ISODate.referenceOffset))
            default: throw typeError("a date", start)
            }
        case .ref(let target):
            let rt = engine.schema.refType(target: target)
            if peek() == 0x22 {
                let key = try string()
                let r = Entity(type: rt, values: [.string(engine.ids.next()), key.isEmpty ? .null : .string(key)], state: .managed)
                r.parent = owner
                r.isContained = true
                return .entity(r)
            }
            guard peek() == 0x7B else { throw typeError("a reference object {\"id\", \"refKey\"}", start) }
            return .entity(try entity(rt, parent: owner))
        case .entity(let name):
            guard let et = engine.schema.type(named: name) else { throw fail("unknown entity type \(name)") }
            guard peek() == 0x7B else { throw typeError("an object for a \(name)", start) }
            return .entity(try entity(et, parent: owner))
        case .data, .image, .inlineData, .inlineImage:
            guard let et = engine.schema.entityType(for: t) else { throw fail("unknown binary type") }
            guard peek() == 0x7B else { throw typeError("an object with the \(t.declaration) metadata", start) }
            return .entity(try entity(et, parent: owner))
        case .array(let el), .set(let el):
            guard peek() == 0x5B else { throw typeError("an array", start) }
            try enter(); defer { depth -= 1 }
            i += 1
            let c = EntityCollection(kind: t.isSetType ? .set : .array, elementType: el, owner: owner, slot: slot)
            if peek() == 0x5D { i += 1; return .collection(c) }
            while true {
                if try isNull() { c.items.append(.null) } else { c.items.append(try value(el, owner: owner, slot: slot)) }
                guard let ch = peek() else { throw fail("unexpected end of file, expected \",\" or \"]\"") }
                i += 1
                if ch == 0x5D { break }
                guard ch == 0x2C else { throw fail("expected \",\" or \"]\"", at: i - 1) }
            }
            return .collection(c)
        case .map(let el):
            guard peek() == 0x7B else { throw typeError("an object (a map)", start) }
            try enter(); defer { depth -= 1 }
            i += 1
            let c = EntityCollection(kind: .map, elementType: el, owner: owner, slot: slot)
            if peek() == 0x7D { i += 1; return .collection(c) }
            while true {
                let key = try string()
                try expect(0x3A, "\":\"")
                c.keys.append(key)
                if try isNull() { c.items.append(.null) } else { c.items.append(try value(el, owner: owner, slot: slot)) }
                guard let ch = peek() else { throw fail("unexpected end of file, expected \",\" or \"}\"") }
                i += 1
                if ch == 0x7D { break }
                guard ch == 0x2C else { throw fail("expected \",\" or \"}\"", at: i - 1) }
            }
            return .collection(c)
        }
    }

    func typeError(_ expected: String, _ at: Int) -> Failure {
        var j = at
        while j < b.count, b[j] == 0x20 || b[j] == 0x0A || b[j] == 0x0D || b[j] == 0x09 { j += 1 }
        return Failure(offset: j, message: "expected \(expected)")
    }
}

extension FieldType {
    var isSetType: Bool { if case .set = self { return true }; return false }
}
