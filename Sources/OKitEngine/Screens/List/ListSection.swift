/// The context of a list's `groupHeader` and `groupFooter` (one section) and of its `footerPath` (every row shown):
/// an entity of type `section` with two fields, `rows` — the section's rows in display order, after search and
/// scope, as a collection (`rows.@sum.amount`, `rows.@count`, `rows/name`) — and `key`, the section's group key
/// (the first row's `group` value; nil for the footer and for a list without `group`).
///
/// A section entity belongs to no model: nothing can write it, and it is made again whenever the rows change.
enum ListSection {
    /// The type name bindings and check findings see (`section has no field "totl"`).
    static let typeName = "section"

    /// The runtime type (one per list screen): `rows` and `key` (their declared types are not used at run time).
    static func makeType() -> EntityType {
        let t = EntityType(name: typeName, hasId: false)
        try? t.addField(FieldSpec("rows", .array(.entity(typeName))))
        try? t.addField(FieldSpec("key", .string, optional: true))
        return t
    }

    /// A section of these rows (entities) with this group key.
    static func entity(_ type: EntityType, rows: [Entity], key: Value) -> Entity {
        Entity(type: type, values: [.list(rows.map { .entity($0) }), key])
    }

    /// Gives a section new rows and key (nothing reads a section's fields for tracking: its owner compares the rows).
    static func update(_ section: Entity, rows: [Entity], key: Value) {
        section.values[0] = .list(rows.map { .entity($0) })
        section.values[1] = key
    }

    /// The type `okit-run check` checks the bindings on: `rows` a collection of the row type (unknown when the
    /// row type is), `key` typed as the `group` binding's value when the check can tell (else a computed field,
    /// which the check does not look into).
    static func checkedType(row: EntityType?, key: CheckedValue?) -> EntityType {
        let t = EntityType(name: typeName, hasId: false)
        // A map's elements are not checked: the stand-in for "a collection of an unknown type".
        try? t.addField(FieldSpec("rows", row.map { .array(.entity($0.name)) } ?? .map(.string)))
        if let fieldType = key.flatMap(fieldType(of:)) {
            try? t.addField(FieldSpec("key", fieldType, optional: true))
        } else {
            try? t.addComputed(ComputedField("key", get: { _ in .null }))
        }
        return t
    }

    static func fieldType(of v: CheckedValue) -> FieldType? {
        switch v {
        case .string: return .string
        case .number: return .double
        case .bool: return .bool
        case .date: return .date
        case .ref(let t): return t.isRef ? .ref(target: t.refTarget) : .entity(t.name)
        case .entity(let t): return .entity(t.name)
        case .collection, .other: return nil
        }
    }
}
