import Foundation

/// A text with the NUL character (U+0000, `%00` in a URL or a form) written to a model (storage.md "Texts"). It is
/// refused at the write in every storage kind alike: PostgreSQL refuses such a text, and SQLite cuts it at the
/// NUL, so no model holds one and no kind takes what another refuses. Nothing was written.
public struct TextWithNUL: Error, CustomStringConvertible, Equatable {
    /// The model of the entity written to (nil while the entity is in no model yet).
    public let model: String?
    /// The entity's type and, when it has one, its id.
    public let type: String
    public let id: String?
    /// The field written (for a reference, the field that holds it; for a map, `field[key]`).
    public let field: String

    public var description: String {
        "\(place): a text cannot hold the NUL character (U+0000, %00 in a form or URL), which PostgreSQL refuses and "
            + "no model keeps; remove it (nothing was written)"
    }

    /// `model "default", Book dune, field name`, as the conflict messages name a field.
    public var place: String {
        (model.map { "model \"\($0)\", " } ?? "") + type + (id.map { " " + $0 } ?? "") + ", field " + field
    }
}

extension String {
    /// True when the text holds a NUL character (U+0000): one pass over its bytes, without copying them.
    @inline(__always)
    package var hasNUL: Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ $0.contains(0) }) { return found }
        return utf8.contains(0)
    }
}

extension Engine {
    /// Refuses a text with a NUL for field `field` of `e` (a reference's key is named by the field that holds it).
    @inline(__always)
    func checkText(_ v: Value, of e: Entity?, field: String) throws {
        guard case .string(let s) = v, s.hasNUL else { return }
        throw textWithNUL(e, field: field)
    }

    /// Refuses a map key with a NUL (`field[key]` is named).
    func checkKey(_ key: String, of e: Entity?, field: String) throws {
        guard key.hasNUL else { return }
        throw textWithNUL(e, field: field + " (a key of the map)")
    }

    func textWithNUL(_ e: Entity?, field: String) -> TextWithNUL {
        guard var e else { return TextWithNUL(model: nil, type: "an entity", id: nil, field: field) }
        var name = field
        // A reference entity's key: the owner's field that holds the reference.
        if e.type.isRef, let (owner, spec) = ruleField(e, "refKey") {
            e = owner
            name = spec.name
        }
        return TextWithNUL(model: e.model?.name, type: e.type.name, id: e.type.hasId ? e.id : nil, field: name)
    }
}
