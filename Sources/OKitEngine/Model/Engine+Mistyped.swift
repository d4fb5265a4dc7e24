/// Values a model stored with another type than their field now declares (lua-api.md "Schema versions"): a
/// model stored by an older version than the app's is read with them kept (`Entity.keepMistyped`, by every
/// storage's reader); the migrations convert them, and what they leave is refused.
public struct MistypedValues {
    struct Item {
        let entity: Entity
        let slot: Int
        let json: [UInt8]
    }

    var items: [Item] = []
    public var isEmpty: Bool { items.isEmpty }

    /// `null`, `[]`, `{}`, `""`: a stored value that loses nothing when its collection starts empty.
    static func isEmptyJSON(_ json: [UInt8]) -> Bool {
        let t = json.filter { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        return t == Array("null".utf8) || t == [0x5B, 0x5D] || t == [0x7B, 0x7D] || t == [0x22, 0x22]
    }

    static func isEmptyCollection(_ v: Value) -> Bool {
        if case .collection(let c) = v { return c.isEmpty }
        return v.isNull
    }

    /// What to do about a stored value of another type than its field declares, in a model stored by version
    /// `stored` (nil: unknown) and read by version `app`: a migration converts it.
    public static func advice(stored: Int?, app: Int) -> String {
        let from = stored ?? app
        let bump = from < app ? "" : "give the app the next version (okit.app { version = \(from + 1) }) and "
        return "if the field's type changed, \(bump)convert the stored values in okit.migrate(\(from), function(model, raw) … end) "
            + "(lua-api.md \"Schema versions\"); if the data was edited by hand, fix the value"
    }
}

/// Stored values that no migration converted: the model is not taken (nothing was changed).
public struct MistypedValuesError: Error, CustomStringConvertible {
    public let description: String
}

extension Engine {
    /// The values `model` kept because their field's type changed, each field emptied (nil) so that whatever a
    /// migration assigns to it is seen; a collection keeps its (empty) default, for the migration to fill.
    public func takeMistyped(of model: Model) -> MistypedValues {
        var found = MistypedValues()
        collectMistyped(model.root, into: &found)
        for item in found.items where !item.entity.type.fieldTypes[item.slot].isCollection {
            item.entity.values[item.slot] = .null
        }
        return found
    }

    private func collectMistyped(_ e: Entity, into found: inout MistypedValues) {
        if let slots = e.mistypedSlots, let unknown = e.unknownFields {
            for slot in slots {
                let name = e.type.fields[slot].name
                if let json = unknown.last(where: { $0.key == name })?.json {
                    found.items.append(MistypedValues.Item(entity: e, slot: slot, json: json))
                }
            }
        }
        e.forEachChild { collectMistyped($0, into: &found) }
    }

    /// After the migrations (`migrated`: at least one ran, from `stored` up to `schemaVersion`): a value whose
    /// field no migration assigned is refused, naming the field; else the stored values are let go (the fields
    /// hold what the migrations made of them). Assigned means written (nil too: `Entity.noteAssigned`), or for a
    /// collection filled (appended to) or stored empty — never emptied silently because some migration ran. An
    /// entity the migrations removed needs nothing.
    public func finishMistyped(_ found: MistypedValues, model: Model, stored: Int, migrated: Bool) throws {
        var left: [MistypedValues.Item] = []
        for item in found.items where item.entity.model === model {
            let e = item.entity
            let assigned = !(e.mistypedSlots?.contains(item.slot) ?? false)
            let converted = assigned || (e.type.fieldTypes[item.slot].isCollection
                ? MistypedValues.isEmptyJSON(item.json) || !MistypedValues.isEmptyCollection(e.values[item.slot])
                : !e.values[item.slot].isNull)
            if !converted { left.append(item) }
        }
        if let first = left.first {
            let f = first.entity.type.fields[first.slot]
            var text = String(decoding: first.json.prefix(40), as: UTF8.self)
            if first.json.count > 40 { text += "…" }
            let kind = JSONReader.kind(first: first.json.first)
            let more = left.count > 1 ? " (and \(left.count - 1) more value\(left.count > 2 ? "s" : "") like it)" : ""
            let why = migrated ? "the migrations did not assign it" : "no migration runs for version \(stored)"
            // The app is still the version that stored it: a migration needs the next version first.
            let bump = stored < schemaVersion ? "" : "give the app the next version (okit.app { version = \(stored + 1) }) and "
            throw MistypedValuesError(description: """
                model "\(model.name)": field "\(f.name)" of \(first.entity.type.name) holds \(kind) (\(text)) stored by version \(stored), \
                but version \(schemaVersion) declares it \(f.type.declaration), and \(why)\(more)
                  \(bump)convert it in okit.migrate(\(stored), function(model, raw) … end): assign the field from the stored value in raw \
                (lua-api.md "Schema versions"); nothing was changed
                """)
        }
        for item in found.items { item.entity.dropMistyped() }
    }
}

extension Entity {
    /// Lets go of the stored values kept for the migrations (`keepMistyped`): the fields hold the converted ones.
    func dropMistyped() {
        for slot in mistypedSlots ?? [] { noteAssigned(slot) }
    }
}
