/// A member whose stored value is not of its field's declared type (lua-api.md "Schema versions").
extension JSONReader {
    /// A member's value that failed to read. A well-formed value of the wrong type in a model stored by an older
    /// version than the app's (`keepsMistyped`) is kept whole for the migrations (`Entity.keepMistyped`); any
    /// other failure is rethrown, a wrong type naming the field (`Failure.field`).
    @inline(never)
    mutating func keepMistyped(_ f: Failure, in e: Entity, slot: Int, from start: Int, made: Int, done: Int) throws(Failure) {
        guard f.wrongType, f.field == nil else { throw f }
        let field = e.type.fields[slot]
        // Only when no entity of the value was read to its end: those are listed for the id index and the journal.
        if keepsMistyped, completedEntities == done, let stored = version, host.keepsMistyped(storedBy: stored) {
            i = start
            let r = try skipValue()
            entityCount = made
            e.keepMistyped(slot: slot, json: Array(b[r]))
            return
        }
        var named = f
        named.field = MistypedField(type: e.type.name, field: field.name, declared: field.type.declaration,
                                    found: f.storedReference ? "a reference to another entity" : kind(at: start),
                                    stored: version, app: host.schemaVersion)
        throw named
    }

    /// What the JSON value at `at` (after spaces) is, in words (`kind(first:)`).
    func kind(at: Int) -> String {
        var j = at
        while j < b.count, b[j] == 0x20 || b[j] == 0x0A || b[j] == 0x0D || b[j] == 0x09 { j += 1 }
        return JSONReader.kind(first: j < b.count ? b[j] : nil)
    }

    /// What a JSON value is, by its first byte, in words: "a string", "a number", "true or false", "null", "an
    /// object", "an array".
    static func kind(first: UInt8?) -> String {
        switch first {
        case nil: return "nothing"
        case 0x22: return "a string"
        case 0x7B: return "an object"
        case 0x5B: return "an array"
        case 0x74, 0x66: return "true or false"
        case 0x6E: return "null"
        default: return "a number"
        }
    }
}

extension Entity {
    /// Keeps a stored value of another type than the field's: among the unknown fields, under the field's name,
    /// the slot marked (its default stands in until the migrations, `Engine.takeMistyped`).
    func keepMistyped(slot: Int, json: [UInt8]) {
        if unknownFields == nil { unknownFields = [] }
        unknownFields?.append((type.fields[slot].name, json))
        mistypedSlots = (mistypedSlots ?? []) + [slot]
    }

    /// A field written (by a migration): a value kept for it is converted, whatever was written — nil too, a
    /// collection emptied too. Its stored value goes (the migrations read it in `raw`, made before they ran).
    @inline(__always)
    func noteAssigned(_ slot: Int) {
        guard let kept = mistypedSlots, kept.contains(slot) else { return }
        let name = type.fields[slot].name
        unknownFields?.removeAll { $0.key == name }
        if unknownFields?.isEmpty == true { unknownFields = nil }
        let left = kept.filter { $0 != slot }
        mistypedSlots = left.isEmpty ? nil : left
    }
}
