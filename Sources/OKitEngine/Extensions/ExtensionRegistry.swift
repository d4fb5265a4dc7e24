/// An extension function callable from bindings: `receiver` is the value the segment applies to
/// (or the entity), `args` the evaluated arguments.
public typealias ExtensionFunction = (_ receiver: Value, _ args: [Value], _ engine: Engine) throws -> Value

/// The inverse of a format extension (`currency`, `number`, `percent`): the value a formatted text stands for,
/// given the extension's arguments; nil when the text is not in the format.
public typealias ExtensionParser = (_ text: String, _ args: [Value], _ engine: Engine) throws -> Value?

/// Extension functions by receiver type and name (bindings.md, "Built-in extension functions").
///
/// Receiver types: `string`, `number`, `bool`, `date`, `data`, `collection`, `entity`, `any`, or an entity
/// type name. Lookup goes from the exact type to `entity` (for entities) to `any`. Registering a name again
/// at the same type replaces the earlier function (a Lua extension replaces a built-in).
public final class ExtensionRegistry {
    /// A function kept in a class field: a closure stored directly as a dictionary value is kept at the generic
    /// abstraction level, and every call through it goes through reabstraction thunks (retains and releases of
    /// each argument on the hot path of bindings that call extensions).
    private final class Entry {
        let fn: ExtensionFunction
        init(_ fn: @escaping ExtensionFunction) { self.fn = fn }
    }

    private var functions: [String: [String: Entry]] = [:]
    /// The entries registered by `BuiltinExtensions` (a Lua extension of the same name replaces its entry).
    private var builtins: Set<ObjectIdentifier> = []
    /// Inverses of format extensions, by receiver type and name.
    private var parsers: [String: [String: ExtensionParser]] = [:]
    /// Changes with every registration (bindings cache what they resolved per generation).
    public private(set) var generation = 0

    public init() {}

    /// Registers `fn` as `name` for receivers of `type`.
    public func register(_ type: String, _ name: String, _ fn: @escaping ExtensionFunction) {
        functions[type, default: [:]][name] = Entry(fn)
        // A new function (a Lua extension replacing a built-in) has no inverse unless one is registered after it.
        parsers[type]?[name] = nil
        generation += 1
    }

    /// Registers the inverse of the format extension `name` at `type` (register the extension first).
    public func registerParser(_ type: String, _ name: String, _ parse: @escaping ExtensionParser) {
        parsers[type, default: [:]][name] = parse
    }

    /// The inverse of the format extension `name` registered exactly at `type`, if it has one.
    public func parser(type: String, name: String) -> ExtensionParser? {
        parsers[type]?[name]
    }

    /// Marks every function registered so far as built in (the engine calls it once its built-ins are in).
    func markBuiltins() {
        for byName in functions.values { for entry in byName.values { builtins.insert(ObjectIdentifier(entry)) } }
    }

    /// True when a receiver of scalar type `type` resolves `name` to the built-in function of that name: the
    /// function registered exactly at `type` (which resolution tries before `any`) is the built-in one.
    func resolvesToBuiltin(_ name: String, forType type: String) -> Bool {
        guard let entry = functions[type]?[name] else { return false }
        return builtins.contains(ObjectIdentifier(entry))
    }

    /// True when a call `name` on a value that is no entity would run a built-in function or none: such a call
    /// computes a value and takes none (a Lua extension may take one: a write through it calls it).
    func callTakesNoValue(_ name: String, on receiver: Value) -> Bool {
        guard let entry = functions[receiver.typeName]?[name] ?? functions["any"]?[name] else { return true }
        return builtins.contains(ObjectIdentifier(entry))
    }

    /// The function registered exactly at `type`.
    public func function(type: String, name: String) -> ExtensionFunction? {
        functions[type]?[name]?.fn
    }

    /// The function for a receiver value: its exact type, then `entity` (entities), then `any`.
    public func resolve(for receiver: Value, name: String) -> ExtensionFunction? {
        if case .entity(let e) = receiver {
            return (functions[e.type.name]?[name] ?? functions["entity"]?[name] ?? functions["any"]?[name])?.fn
        }
        return (functions[receiver.typeName]?[name] ?? functions["any"]?[name])?.fn
    }

    /// The names registered exactly at `type`.
    func namesRegistered(at type: String) -> [String] { functions[type].map { Array($0.keys) } ?? [] }

    /// True when some type has a function of this name (for schema checks of paths whose type is unknown).
    public func exists(_ name: String) -> Bool {
        functions.values.contains { $0[name] != nil }
    }

    /// True when a receiver of `type` (a type key as in `register`) would find `name`.
    public func exists(_ name: String, forType type: String, isEntity: Bool) -> Bool {
        functions[type]?[name] != nil || (isEntity && functions["entity"]?[name] != nil) || functions["any"]?[name] != nil
    }
}

extension ExtensionRegistry {
    /// The names a receiver of `type` finds (for "did you mean" in the check).
    public func names(forType type: String, isEntity: Bool) -> [String] {
        Array(Set(namesRegistered(at: type) + (isEntity ? namesRegistered(at: "entity") : []) + namesRegistered(at: "any")))
    }
}
