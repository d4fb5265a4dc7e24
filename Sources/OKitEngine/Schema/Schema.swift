/// The registry of entity types of one app: declared types plus the built-in ones
/// (references, data/image metadata, inline data/images).
public final class Schema {
    public private(set) var types: [String: EntityType] = [:]
    /// Declaration order, for stable output.
    public private(set) var order: [String] = []
    private var refTypes: [String: EntityType] = [:]
    /// Whether any type is a partial's stub (models then route changes inside payloads to the payload's file).
    public internal(set) var hasPartials = false
    /// The last id given to an entity of a type declared with `key = "autoincrement"` (storage.md "SQLite models"):
    /// one serial for every such type of the app, so that two of them never share an id (ids are unique within a
    /// model). Every whole-number id read or given to an entity, of any type, raises it (`noteId`): a new one is
    /// never an id an entity holds.
    public internal(set) var lastSerial = 0

    /// The built-in type of a `ref` field without a declared target.
    public let anyRef: EntityType
    /// Metadata of a `data` field (bytes in a side file).
    public let dataType: EntityType
    /// Metadata of an `image` field (bytes in a side file).
    public let imageType: EntityType
    /// A `inlineData` value (bytes as base64 in the model).
    public let inlineDataType: EntityType
    /// A `inlineImage` value (bytes as base64 in the model).
    public let inlineImageType: EntityType

    public init() {
        anyRef = Schema.makeRef(target: nil)
        dataType = Schema.makeBinary("okit.Data", inline: false)
        imageType = Schema.makeBinary("okit.Image", inline: false)
        inlineDataType = Schema.makeBinary("okit.InlineData", inline: true)
        inlineImageType = Schema.makeBinary("okit.InlineImage", inline: true)
        refTypes[""] = anyRef
    }

    private static func makeRef(target: String?) -> EntityType {
        let t = EntityType(name: "Ref", hasId: true, kind: .ref, refTarget: target)
        try? t.addField(FieldSpec("refKey", .string, optional: true))
        return t
    }

    private static func makeBinary(_ name: String, inline: Bool) -> EntityType {
        let t = EntityType(name: name, hasId: true, kind: inline ? .inlineBinary : .binary)
        try? t.addField(FieldSpec("format", .string))
        try? t.addField(FieldSpec("label", .string))
        try? t.addField(FieldSpec("size", .int))
        if inline {
            try? t.addField(FieldSpec("data", .string))
        } else {
            try? t.addField(FieldSpec("sha256", .string))
        }
        return t
    }

    /// The reference type for a `ref T` field (one per target).
    public func refType(target: String?) -> EntityType {
        let key = target ?? ""
        if let t = refTypes[key] { return t }
        let t = Schema.makeRef(target: target)
        refTypes[key] = t
        return t
    }

    /// Declares an entity type. Field names `id` and `parent` are reserved; `id` exists unless `hasId` is false.
    @discardableResult
    public func entity(_ name: String, hasId: Bool = true, fields: [FieldSpec],
                       computed: [ComputedField] = [], methods: [EntityMethod] = [],
                       hooks: EntityHooks = EntityHooks()) throws(SchemaError) -> EntityType {
        guard FieldType.isName(name) else { throw .unknownType(name) }
        if types[name] != nil || name == "Ref" { throw .duplicateEntityType(name) }
        let t = EntityType(name: name, hasId: hasId)
        for f in fields {
            if f.name == "id" || f.name == "parent" { throw .reservedField(type: name, field: f.name) }
            try t.addField(f)
            if let d = f.defaultValue { try checkDefault(d, for: f, in: name) }
        }
        for c in computed { try t.addComputed(c) }
        for m in methods { try t.addMethod(m) }
        t.hooks = hooks
        types[name] = t
        order.append(name)
        return t
    }

    /// Adds a computed field to a declared type (used by bridges that declare members one by one).
    public func addComputed(_ c: ComputedField, to type: EntityType) throws(SchemaError) { try type.addComputed(c) }

    /// Adds a method to a declared type.
    public func addMethod(_ m: EntityMethod, to type: EntityType) throws(SchemaError) { try type.addMethod(m) }

    public func type(named name: String) -> EntityType? { types[name] }

    /// Whether any type has a `loaded` hook (loading skips the walk when none has).
    public var hasLoadedHooks: Bool { types.values.contains { $0.hooks.loaded != nil } }

    /// The entity type that holds values of a field type (owned entity, ref, binary metadata), or nil for scalars.
    public func entityType(for fieldType: FieldType) -> EntityType? {
        switch fieldType {
        case .entity(let n): return types[n]
        case .ref(let target): return refType(target: target)
        case .data: return dataType
        case .image: return imageType
        case .inlineData: return inlineDataType
        case .inlineImage: return inlineImageType
        case .array(let e), .set(let e), .map(let e): return entityType(for: e)
        default: return nil
        }
    }

    /// Checks that every entity type named by a field (or a ref target) is declared. Run when the app starts.
    public func validate() throws(SchemaError) {
        for name in order {
            guard let t = types[name] else { continue }
            for f in t.fields { try check(f.type, usedBy: "\(name).\(f.name)") }
            if let p = t.partial { try validatePartial(t, p) }
        }
    }

    private func check(_ ft: FieldType, usedBy: String) throws(SchemaError) {
        switch ft {
        case .entity(let n): if types[n] == nil { throw .unknownEntityType(n, usedBy: usedBy) }
        case .ref(let target?): if types[target] == nil { throw .unknownEntityType(target, usedBy: usedBy) }
        case .array(let e), .set(let e), .map(let e): try check(e, usedBy: usedBy)
        default: break
        }
    }

    private func checkDefault(_ v: Value, for f: FieldSpec, in type: String) throws(SchemaError) {
        if v.isNull {
            if f.optional { return }
            throw .badDefault(type: type, field: f.name, reason: "nil for a field that is not optional")
        }
        let coerced: Value
        do { coerced = try Coercion.coerce(v, to: f.type, field: f.name) } catch {
            // With how Lua writes the value the text meant (`default = "4,5"` → `default = 4.5`).
            throw .badDefault(type: type, field: f.name, reason: error.description + LuaWrittenValue.advice(for: v, type: f.type, name: "default"))
        }
        // Every entity made gets it without a write: refused here as a write refuses it (storage.md "Texts").
        if case .string(let s) = coerced, s.hasNUL {
            throw .badDefault(type: type, field: f.name, reason: "a text cannot hold the NUL character (U+0000)")
        }
    }
}

extension Schema {
    /// Raises the serial to `id` when it is a whole number above it (an id read from storage or given at creation).
    @inline(__always)
    func noteId(_ id: String) {
        guard let first = id.utf8.first, first &- 0x30 < 10, let n = Int(id), n > lastSerial else { return }
        lastSerial = n
    }

    /// The id of a new entity of a type declared with `key = "autoincrement"`: the next of the app's serial.
    func nextSerial(for type: EntityType) throws(EngineError) -> String {
        guard lastSerial < Int.max else { throw .serialExhausted(type: type.name) }
        lastSerial += 1
        return String(lastSerial)
    }
}
