import Foundation

/// The typed half of the reader: entities and their fields by the schema.
///
/// Nesting recurses (entity → field value → entity), so the functions on that path are kept small: each level
/// costs two short frames even in debug builds, and 512 levels fit any thread's stack.
extension JSONReader {
    /// Reads the whole document as a root entity of `type`. A leading UTF-8 byte order mark (some Windows
    /// editors write one) is skipped; offsets stay those of the file.
    mutating func root(_ type: EntityType) throws(Failure) -> Entity {
        if i == 0, JSONReader.hasBOM(b) { i = JSONReader.bom.count }
        let e = try entity(type, parent: nil, isRoot: true)
        skipSpace()
        if i < b.count { throw fail("unexpected text after the end of the document") }
        return e
    }

    /// Reads one entity object. Missing fields get their defaults; unknown fields are kept verbatim.
    mutating func entity(_ type: EntityType, parent: Entity?, isRoot: Bool = false) throws(Failure) -> Entity {
        try enter()
        defer { depth -= 1 }
        try openObject(type)
        // The type's tables, fetched once per entity (not once per key).
        let names = type.fieldNameBytes
        let types = type.fieldTypes
        let e = Entity(type: type, state: .managed)
        e.parent = parent
        e.isContained = parent != nil
        if let parent { e.level = parent.level &+ 1 }
        entityCount += 1
        var seen = SeenFields(count: types.count)
        var packed = false
        if peek() == 0x7D {
            i += 1
        } else {
            repeat {
                if let slot = try knownKey(names) {
                    if seen.contains(slot) { throw duplicate(type, slot) }
                    if slot == 0, type.hasId, packedId(into: e) {
                        packed = true
                    } else {
                        let start = i, made = entityCount, done = completedEntities
                        do throws(Failure) {
                            e.values[slot] = try isNull() ? .null : try value(types[slot], owner: e, slot: slot)
                        } catch {
                            try keepMistyped(error, in: e, slot: slot, from: start, made: made, done: done)
                        }
                    }
                    seen.insert(slot)
                } else if let slot = try otherMember(of: e, type: type, isRoot: isRoot, seen: seen) {
                    seen.insert(slot)
                }
            } while try nextMember()
        }
        if !seen.all || (0..<Int(e.slotCount)).contains(where: { e.slotIsNull($0) }) { fillDefaults(e, seen: seen) }
        if !packed, type.hasId, !type.isRef { noteOtherId(e) }
        if let list = identifiedList, type.hasId, !type.isRef, !isRoot {
            list._withUnsafeGuaranteedRef { list in
                if packed || e.packedId != nil {
                    list.add(e)
                } else if case .string(let id) = e.values[0], !id.isEmpty {
                    list.addOther(e)
                }
            }
        }
        if let targets = journalTargets { targets.note(e) }
        completedEntities &+= 1
        return e
    }

    /// An id read that is not a canonical UUID: a whole number raises the schema's serial, so that an autoincrement
    /// id made later never takes it (storage.md "SQLite models": the plain file kind keeps them too).
    @inline(never)
    func noteOtherId(_ e: Entity) {
        guard e.packedId == nil, case .string(let id) = e.values[0] else { return }
        host.schema.noteId(id)
    }

    /// An id that is a canonical UUID, read as its bits (no string is made); false, reading nothing, for
    /// anything else.
    @inline(__always)
    mutating func packedId(into e: Entity) -> Bool {
        skipSpace()
        guard i + 37 < b.count, b[i] == 0x22, b[i + 37] == 0x22,
              let bits = PackedId.parse(UnsafeBufferPointer(rebasing: b[(i + 1)..<(i + 37)])) else { return false }
        e.setId(bits)
        i += 38
        return true
    }

    /// Which fields an entity's object named.
    struct SeenFields {
        var mask: UInt64 = 0
        var more: [Bool]?
        let count: Int

        init(count: Int) {
            self.count = count
            if count > 64 { more = [Bool](repeating: false, count: count) }
        }

        @inline(__always) mutating func insert(_ slot: Int) {
            if slot < 64 { mask |= 1 << UInt64(slot) } else { more?[slot] = true }
        }

        @inline(__always) func contains(_ slot: Int) -> Bool {
            slot < 64 ? mask & (1 << UInt64(slot)) != 0 : (more?[slot] ?? false)
        }

        var all: Bool {
            guard count <= 64 else { return false }
            let full: UInt64 = count == 64 ? ~0 : (1 << UInt64(count)) - 1
            return mask & full == full
        }
    }

    /// `{` of an entity's object.
    @inline(never)
    mutating func openObject(_ type: EntityType) throws(Failure) {
        skipSpace()
        guard i < b.count, b[i] == 0x7B else {
            throw i < b.count ? typeError("an object for a \(type.name)", i)
                : fail("unexpected end of file, expected an object for a \(type.name)")
        }
        i += 1
    }

    /// After a member: true at `,` (another follows), false at `}`.
    @inline(__always)
    mutating func nextMember() throws(Failure) -> Bool {
        guard let c = peek() else { throw fail("unexpected end of file, expected \",\" or \"}\"") }
        i += 1
        if c == 0x2C { return true }
        if c == 0x7D { return false }
        throw fail("expected \",\" or \"}\"", at: i - 1)
    }

    /// A key naming a field, and its `:`; the cursor stays on the key when it names none (or has escapes).
    @inline(__always)
    mutating func knownKey(_ names: [[UInt8]]) throws(Failure) -> Int? {
        skipSpace()
        guard i < b.count, b[i] == 0x22 else { throw fail("expected a field name") }
        var j = i + 1
        while j < b.count, b[j] != 0x22, b[j] != 0x5C { j += 1 }
        guard j < b.count, b[j] == 0x22,
              let slot = JSONReader.slot(names, UnsafeBufferPointer(rebasing: b[(i + 1)..<j])) else { return nil }
        i = j + 1
        try expect(0x3A, "\":\" after a field name")
        return slot
    }

    /// A member whose key `knownKey` did not match: a field name written with escapes (its slot is returned),
    /// the root's `okit` header, or a field the schema does not know (kept as raw bytes, in file order).
    @inline(never)
    mutating func otherMember(of e: Entity, type: EntityType, isRoot: Bool, seen: SeenFields) throws(Failure) -> Int? {
        let key = try string()
        try expect(0x3A, "\":\" after a field name")
        if let slot = type.slot(of: key) {
            if seen.contains(slot) { throw duplicate(type, slot) }
            e.values[slot] = try isNull() ? .null : try value(type.fieldTypes[slot], owner: e, slot: slot)
            return slot
        }
        if key == "refKey", !type.isRef, !isRoot {
            // A reference stored where an embedded entity is now declared: refused (or kept for the migrations)
            // where the field's member is read (`keepMistyped`), at the object's start.
            throw Failure(offset: i, message: "expected an object for a \(type.name), found a reference to another entity", wrongType: true,
                          storedReference: true)
        }
        let r = try skipValue()
        let raw = Array(UnsafeBufferPointer(rebasing: b[r]))
        if isRoot, key == "okit" {
            header(raw)
        } else {
            if e.unknownFields == nil { e.unknownFields = [] }
            e.unknownFields?.append((key, raw))
        }
        return nil
    }

    /// A field named twice in one object: which value is meant cannot be known, so neither is taken.
    /// (At its second value, so the error's path names it.)
    mutating func duplicate(_ type: EntityType, _ slot: Int) -> Failure {
        skipSpace()
        return Failure(offset: i, message: "field \"\(type.fields[slot].name)\" of a \(type.name) appears twice")
    }

    /// Defaults for the fields the object did not name (and nulls in fields that are not optional).
    @inline(never)
    mutating func fillDefaults(_ e: Entity, seen: SeenFields) {
        let type = e.type
        for slot in 0..<type.fields.count {
            let named = seen.contains(slot)
            guard !named || (e.slotIsNull(slot) && !type.optionals[slot] && needsDefault(type.fieldTypes[slot])) else { continue }
            if slot == 0, type.hasId {
                e.values[0] = .string(host.ids.next())
                if e.parent != nil { madeIdentities = true }   // the root is never a record's target: it is written whole
                continue
            }
            if let v = try? host.defaultValue(for: type.fields[slot], slot: slot, owner: e) {
                switch v {
                case .entity(let d):
                    // Part of the model like every entity read: a change to it is stored (journal records skip
                    // entities that are not managed, and the change was lost).
                    Self.adoptDefault(d, under: e)
                    if !d.type.isRef { identifiedComplete = false; madeIdentities = true }
                case .collection(let c) where !c.items.isEmpty:
                    for case .entity(let d) in c.items { Self.adoptDefault(d, under: e) }
                    identifiedComplete = false
                    madeIdentities = true
                default: break
                }
                e.values[slot] = v
            }
        }
    }

    /// A default entity under `owner` made managed with everything under it, as the entities read are.
    static func adoptDefault(_ d: Entity, under owner: Entity) {
        d.parent = owner
        d.isContained = true
        d.state = .managed
        d.level = owner.level &+ 1
        d.forEachChild { c in adoptDefault(c, under: d) }
    }

    /// The slot whose name is `key` (bytes compared, no String made).
    @inline(__always)
    static func slot(_ names: [[UInt8]], _ key: UnsafeBufferPointer<UInt8>) -> Int? {
        for k in 0..<names.count {
            let found = names[k].withUnsafeBufferPointer { name -> Bool in
                guard name.count == key.count else { return false }
                guard let p = name.baseAddress, let q = key.baseAddress else { return true }   // both empty
                return memcmp(p, q, name.count) == 0
            }
            if found { return k }
        }
        return nil
    }

    /// Whether a null in a field that is not optional takes the default (entities and binaries may stay nil).
    func needsDefault(_ t: FieldType) -> Bool {
        switch t {
        case .data, .image, .inlineData, .inlineImage, .entity: return false
        default: return true
        }
    }

    /// The `okit` header: version, generation, other members kept.
    mutating func header(_ raw: [UInt8]) {
        raw.withUnsafeBufferPointer { buf in
            var r = JSONReader(bytes: buf, engine: host)
            guard (try? r.expect(0x7B, "{")) != nil else { return }
            if r.peek() == 0x7D { return }
            while true {
                guard let key = try? r.string(), (try? r.expect(0x3A, ":")) != nil else { return }
                let start = r.i
                switch key {
                case "version": if case .int(let v)? = try? r.number() { version = v }
                case "gen": if case .int(let v)? = try? r.number() { generation = v }
                case "type": storedType = try? r.string()
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
}
