/// A stored field of an entity type.
public struct FieldSpec {
    public let name: String
    public let type: FieldType
    public let optional: Bool
    /// The declared default; nil means the type's own default (bindings.md / lua-api.md).
    public let defaultValue: Value?
    /// Called after the field changed, with the entity and the old value (a field observer, OKit's `didSet`).
    public let didSet: ((Entity, Value) throws -> Void)?
    /// Validation rules, checked on writes from commands (FieldRules.swift); nil when the field has none.
    public var rules: FieldRules?

    public init(_ name: String, _ type: FieldType, optional: Bool = false, default defaultValue: Value? = nil,
                didSet: ((Entity, Value) throws -> Void)? = nil, rules: FieldRules? = nil) {
        self.name = name
        self.type = type
        self.optional = optional
        self.defaultValue = defaultValue
        self.didSet = didSet
        self.rules = rules.flatMap { $0.isEmpty && $0.messages.isEmpty ? nil : $0 }
    }

    /// Declares a field from its textual type (`"string?"`, `"[ref Author]"`).
    public init(_ name: String, _ declaration: String, default defaultValue: Value? = nil,
                didSet: ((Entity, Value) throws -> Void)? = nil, rules: FieldRules? = nil) throws(SchemaError) {
        let (t, opt) = try FieldType.parse(declaration)
        self.init(name, t, optional: opt, default: defaultValue, didSet: didSet, rules: rules)
    }
}

/// A computed field: read in bindings like a field, never stored. Writable when `set` is given.
public struct ComputedField {
    public let name: String
    public let get: (Entity) throws -> Value
    public let set: ((Entity, Value) throws -> Void)?

    public init(_ name: String, get: @escaping (Entity) throws -> Value, set: ((Entity, Value) throws -> Void)? = nil) {
        self.name = name
        self.get = get
        self.set = set
    }
}

/// A method of an entity type: callable from bindings as `name()` / `name(a, b)` and from the host.
public struct EntityMethod {
    public let name: String
    public let call: (Entity, [Value]) throws -> Value

    public init(_ name: String, call: @escaping (Entity, [Value]) throws -> Value) {
        self.name = name
        self.call = call
    }
}

/// Lifecycle hooks of an entity type. Each fires exactly once per event.
public struct EntityHooks {
    /// After the entity was attached to a container (it is in the container, `parent` is set).
    public var managed: ((Entity, Entity?) throws -> Void)?
    /// After the entity was detached from its container.
    public var unmanaged: ((Entity, Entity?) throws -> Void)?
    /// After the model holding the entity was loaded from storage.
    public var loaded: ((Entity) throws -> Void)?

    public init() {}
}
