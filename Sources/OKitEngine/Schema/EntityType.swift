/// An entity type: its stored fields (each with a slot), computed fields, methods and hooks.
///
/// Field lookup by name is a dictionary lookup done once per binding segment; evaluation then uses the slot.
public final class EntityType {
    public let name: String
    /// Whether entities of this type have an `id` (slot 0). `{ id = false }` types cannot be referenced.
    public let hasId: Bool
    public private(set) var fields: [FieldSpec] = []
    public private(set) var computed: [String: ComputedField] = [:]
    public private(set) var methods: [String: EntityMethod] = [:]
    public var hooks = EntityHooks()
    /// How the `sqlite` kind keeps this type as a table (`table`, `primaryKey`, `key = "autoincrement"`).
    public var tableMapping = TableMapping()
    /// For the built-in reference type: the referenced type, when declared.
    public let refTarget: String?
    /// For a partial's stub type: its payload type, payload field and synced fields.
    public internal(set) var partial: PartialSpec?
    let kind: Kind

    enum Kind { case user, ref, binary, inlineBinary }

    private var slots: [String: Int] = [:]
    // The tables below are read once per entity a load makes or a store writes, and written only by `addField`
    // while the schema is declared (one statement each, calling nothing while the access lasts): not checked for
    // exclusive access at run time (two checks an entity were 3 % of a load; issue 16).
    /// Field names as UTF-8, by slot, for the JSON reader.
    @exclusivity(unchecked) private(set) var fieldNameBytes: [[UInt8]] = []
    /// Field types and optionality by slot (the reader's and writer's hot paths avoid copying `FieldSpec`s).
    @exclusivity(unchecked) private(set) var fieldTypes: [FieldType] = []
    @exclusivity(unchecked) private(set) var optionals: [Bool] = []
    /// The slots that can hold entities or collections (every field that is not a scalar), in order: what a walk
    /// over an entity's children visits (`Entity.forEachChild`), so that it never touches a name or a number.
    @exclusivity(unchecked) private(set) var childSlots: [Int] = []
    /// `"name":` as UTF-8, by slot, for the writer.
    let keyPrefixes = FieldKeyBytes()

    init(name: String, hasId: Bool, kind: Kind = .user, refTarget: String? = nil) {
        self.name = name
        self.hasId = hasId
        self.kind = kind
        self.refTarget = refTarget
        if hasId { try? addField(FieldSpec("id", .string)) }
    }

    public var isRef: Bool { kind == .ref }

    /// The slot of a stored field, or nil.
    @inline(__always)
    public func slot(of field: String) -> Int? { slots[field] }

    public func field(named name: String) -> FieldSpec? { slots[name].map { fields[$0] } }

    /// True when `name` is a stored field, a computed field or a method.
    public func hasMember(_ name: String) -> Bool {
        slots[name] != nil || computed[name] != nil || methods[name] != nil
    }

    /// The most stored fields a type may have (an entity keeps its slot count in 16 bits).
    public static let maxFields = 4096

    func addField(_ spec: FieldSpec) throws(SchemaError) {
        if fields.count >= EntityType.maxFields { throw .tooManyFields(type: name) }
        if slots[spec.name] != nil || computed[spec.name] != nil || methods[spec.name] != nil {
            throw .duplicateField(type: name, field: spec.name)
        }
        slots[spec.name] = fields.count
        fields.append(spec)
        fieldNameBytes.append(Array(spec.name.utf8))
        fieldTypes.append(spec.type)
        keyPrefixes.append([0x22] + Array(spec.name.utf8) + [0x22, 0x3A])
        optionals.append(spec.optional)
        if !spec.type.isScalar { childSlots.append(fields.count - 1) }
    }

    func addComputed(_ c: ComputedField) throws(SchemaError) {
        if hasMember(c.name) { throw .duplicateField(type: name, field: c.name) }
        computed[c.name] = c
    }

    func addMethod(_ m: EntityMethod) throws(SchemaError) {
        if hasMember(m.name) { throw .duplicateField(type: name, field: m.name) }
        methods[m.name] = m
    }

    /// The slot whose name equals the given UTF-8 bytes (the JSON reader's hot path: no String is made).
    @inline(__always)
    func slot(utf8 key: UnsafeBufferPointer<UInt8>) -> Int? {
        for (i, name) in fieldNameBytes.enumerated() where name.count == key.count {
            if name.withUnsafeBufferPointer({ $0.elementsEqual(key) }) { return i }
        }
        return nil
    }
}

extension EntityType: CustomStringConvertible {
    public var description: String { name }
}
