/// A partial (storage.md "Partials"): a stub entity type whose payload, an entity of another type, lives in its
/// own file `<model>/<stub id>.json` and loads on the first read of the stub's payload field.
///
/// The fields named in `sync` exist on both types and stay equal in both directions.
public struct PartialSpec: Sendable, Equatable {
    /// The payload's entity type.
    public let payloadType: String
    /// The stub's member that reads the payload (default: the payload type's name, lower-cased).
    public let field: String
    /// Fields kept equal between the stub and its payload.
    public let sync: [String]

    public init(payloadType: String, field: String? = nil, sync: [String] = []) {
        self.payloadType = payloadType
        self.field = field ?? (payloadType.prefix(1).lowercased() + payloadType.dropFirst())
        self.sync = sync
    }
}

extension Schema {
    /// Declares a partial's stub type: an entity type with its own fields (stored in the model) whose payload of
    /// type `spec.payloadType` is stored in a file of its own. Stubs always have ids (the payload's file name).
    @discardableResult
    public func partial(_ name: String, fields: [FieldSpec], spec: PartialSpec,
                        computed: [ComputedField] = [], methods: [EntityMethod] = [],
                        hooks: EntityHooks = EntityHooks()) throws(SchemaError) -> EntityType {
        if fields.contains(where: { $0.name == spec.field }) || computed.contains(where: { $0.name == spec.field }) {
            throw .duplicateField(type: name, field: spec.field)
        }
        let t = try entity(name, hasId: true, fields: fields, computed: computed, methods: methods, hooks: hooks)
        t.partial = spec
        hasPartials = true
        return t
    }

    /// Checks a partial's payload type and its synced fields (run by `validate()`, when every type is declared).
    func validatePartial(_ t: EntityType, _ spec: PartialSpec) throws(SchemaError) {
        guard let payload = type(named: spec.payloadType) else {
            throw .badPartial(type: t.name, reason: "payload type \"\(spec.payloadType)\" is not declared (declare it with okit.entity)")
        }
        for name in spec.sync {
            guard let a = t.field(named: name) else {
                throw .badPartial(type: t.name, reason: "sync field \"\(name)\" is not a field of \(t.name)")
            }
            guard let b = payload.field(named: name) else {
                throw .badPartial(type: t.name, reason: "sync field \"\(name)\" is not a field of \(payload.name)")
            }
            guard a.type == b.type, a.type.isScalar else {
                throw .badPartial(type: t.name, reason: "sync field \"\(name)\" must be a scalar of the same type on \(t.name) and \(payload.name)")
            }
        }
    }
}
