import Foundation

/// Field values by their declared type. `value` only dispatches; each kind reads in its own function, so the
/// frames on the nesting path (`value` → `ownedEntity`/`array`/`map` → `entity`) stay small.
extension JSONReader {
    mutating func value(_ t: FieldType, owner: Entity, slot: Int) throws(Failure) -> Value {
        switch t {
        case .string: return try stringValue()
        case .int: return try intValue()
        case .double: return try doubleValue()
        case .bool: return try boolValue()
        case .date: return try dateValue()
        case .ref(let target): return try refValue(target, owner: owner)
        case .entity(let name): return try ownedEntity(name, owner: owner)
        case .data, .image, .inlineData, .inlineImage: return try binaryValue(t, owner: owner)
        case .array(let el): return try array(el, kind: .array, owner: owner, slot: slot)
        case .set(let el): return try array(el, kind: .set, owner: owner, slot: slot)
        case .map(let el): return try map(el, owner: owner, slot: slot)
        }
    }

    @inline(__always)
    mutating func stringValue() throws(Failure) -> Value {
        guard peek() == 0x22 else { throw typeError("a string", i) }
        return .string(try string())
    }

    /// A JSON integer, a number without a fraction, or a numeric string that converts losslessly.
    mutating func intValue() throws(Failure) -> Value {
        let start = i
        if peek() == 0x22 {
            guard let v = Int(try string()) else { throw typeError("an int", start) }
            return .int(v)
        }
        guard let c = peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw typeError("an int", start) }
        switch try number() {
        case .int(let v): return .int(v)
        case .double(let d) where d == d.rounded() && abs(d) < 9.2e18: return .int(Int(d))
        default: throw typeError("an int", start)
        }
    }

    /// Any finite JSON number, or a numeric string.
    mutating func doubleValue() throws(Failure) -> Value {
        let start = i
        if peek() == 0x22 {
            guard let v = Double(try string()), v.isFinite else { throw typeError("a number", start) }
            return .double(v)
        }
        guard let c = peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw typeError("a number", start) }
        switch try number() {
        case .int(let v): return .double(Double(v))
        case .double(let d) where d.isFinite: return .double(d)
        default: throw typeError("a number within the range of a double", start)
        }
    }

    mutating func boolValue() throws(Failure) -> Value {
        switch peek() {
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        default: throw typeError("true or false", i)
        }
    }

    /// An ISO 8601 string, or OKit's number of seconds since 2001.
    mutating func dateValue() throws(Failure) -> Value {
        let start = i
        if peek() == 0x22 {
            // Fast path: the bytes between the quotes parsed in place (an ISO date has no escapes).
            var j = i + 1
            while j < b.count, b[j] != 0x22, b[j] != 0x5C { j += 1 }
            let parsed: Date?
            if j < b.count, b[j] == 0x22 {
                parsed = ISODate.parseExact(UnsafeBufferPointer(rebasing: b[(i + 1)..<j]))
                if parsed != nil { i = j + 1 }
            } else {
                var text = try string()
                parsed = text.withUTF8 { ISODate.parseExact($0) }
            }
            guard let date = parsed else { throw typeError("an ISO 8601 date", start) }
            return .date(date)
        }
        guard let c = peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw typeError("a date", start) }
        switch try number() {
        // Seconds since 2001 are what a Date holds: exact.
        case .int(let v): return .date(Date(timeIntervalSinceReferenceDate: Double(v)))
        case .double(let d) where d.isFinite: return .date(Date(timeIntervalSinceReferenceDate: d))
        default: throw typeError("a date", start)
        }
    }

    /// `{"id": …, "refKey": …}`, or a bare string: the reference key.
    @inline(never)
    mutating func refValue(_ target: String?, owner: Entity) throws(Failure) -> Value {
        let rt = refType(target: target)
        if peek() == 0x22 {
            let key = try string()
            let r = Entity(type: rt, values: [.string(host.ids.next()), key.isEmpty ? .null : .string(key)], state: .managed)
            r.parent = owner
            r.isContained = true
            entityCount += 1
            return .entity(r)
        }
        guard peek() == 0x7B else { throw typeError(#"a reference object {"id", "refKey"}"#, i) }
        return .entity(try entity(rt, parent: owner))
    }

    @inline(never)
    mutating func ownedEntity(_ name: String, owner: Entity) throws(Failure) -> Value {
        guard let et = entityType(named: name) else { throw fail("unknown entity type \(name)") }
        guard peek() == 0x7B else { throw typeError("an object for a \(name)", i) }
        return .entity(try entity(et, parent: owner))
    }

    /// The metadata object of a data or image field (inline kinds carry base64 in `data`).
    @inline(never)
    mutating func binaryValue(_ t: FieldType, owner: Entity) throws(Failure) -> Value {
        guard let et = host.schema.entityType(for: t) else { throw fail("unknown binary type") }
        guard peek() == 0x7B else { throw typeError("an object with the \(t.declaration) metadata", i) }
        let meta = try entity(et, parent: owner)
        if et.kind == .inlineBinary { InlineBytes.syncSize(meta) }
        return .entity(meta)
    }

    /// An array or a set.
    @inline(never)
    mutating func array(_ el: FieldType, kind: EntityCollection.Kind, owner: Entity, slot: Int) throws(Failure) -> Value {
        guard peek() == 0x5B else { throw typeError("an array", i) }
        try enter()
        defer { depth -= 1 }
        i += 1
        let c = EntityCollection(kind: kind, elementType: el, owner: owner, slot: slot)
        if peek() == 0x5D { i += 1; return .collection(c) }
        while true {
            c.items.append(try isNull() ? .null : try value(el, owner: owner, slot: slot))
            if i &- releasedTo >= JSONReader.releaseStep, let release = releaseBehind {
                release(i)
                releasedTo = i
            }
            guard let ch = peek() else { throw fail("unexpected end of file, expected \",\" or \"]\"") }
            i += 1
            if ch == 0x5D { break }
            guard ch == 0x2C else { throw fail("expected \",\" or \"]\"", at: i - 1) }
        }
        c.noteFirstEntity()
        return .collection(c)
    }

    /// A map: an object whose members are the keys, in file order.
    @inline(never)
    mutating func map(_ el: FieldType, owner: Entity, slot: Int) throws(Failure) -> Value {
        guard peek() == 0x7B else { throw typeError("an object (a map)", i) }
        try enter()
        defer { depth -= 1 }
        i += 1
        let c = EntityCollection(kind: .map, elementType: el, owner: owner, slot: slot)
        if peek() == 0x7D { i += 1; return .collection(c) }
        while true {
            let key = try string()
            try expect(0x3A, "\":\"")
            c.keys.append(key)
            c.items.append(try isNull() ? .null : try value(el, owner: owner, slot: slot))
            guard let ch = peek() else { throw fail("unexpected end of file, expected \",\" or \"}\"") }
            i += 1
            if ch == 0x7D { break }
            guard ch == 0x2C else { throw fail("expected \",\" or \"}\"", at: i - 1) }
        }
        return .collection(c)
    }

    /// Entity types by name, through a small cache (a model has few types; small strings compare fast,
    /// hashing them for the schema's dictionary on every owned entity does not).
    mutating func entityType(named name: String) -> EntityType? {
        for (k, t) in typeCache where k == name { return t }
        guard let t = host.schema.type(named: name) else { return nil }
        typeCache.append((name, t))
        return t
    }

    mutating func refType(target: String?) -> EntityType {
        for (k, t) in refCache where k == target { return t }
        let t = host.schema.refType(target: target)
        refCache.append((target, t))
        return t
    }

    /// A wrong-type error at the value starting at `at` (after spaces).
    func typeError(_ expected: String, _ at: Int) -> Failure {
        var j = at
        while j < b.count, b[j] == 0x20 || b[j] == 0x0A || b[j] == 0x0D || b[j] == 0x09 { j += 1 }
        return Failure(offset: j, message: "expected \(expected)", wrongType: true)
    }
}
