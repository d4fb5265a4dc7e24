import Foundation

/// A value as the engine sees it: what a field holds, what a binding evaluates to, what an extension receives.
///
/// Scalars are stored inline; entities and live collections are references, so a value that names an
/// entity always names *that* entity (identity, not a copy).
public enum Value {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case date(Date)
    case data([UInt8])
    case entity(Entity)
    /// A live collection field of an entity (array, set or map).
    case collection(EntityCollection)
    /// A computed list, e.g. the result of mapping a key over a collection (`books/name`).
    case list([Value])

    public var isNull: Bool { if case .null = self { return true }; return false }

    public var entity: Entity? { if case .entity(let e) = self { return e }; return nil }

    /// The entity held, not retained: for a walk over values in place (the value keeps it alive while it is
    /// not changed).
    @inline(__always) var unretainedEntity: Unmanaged<Entity>? {
        if case .entity(let e) = self { return .passUnretained(e) }
        return nil
    }

    /// The collection held, not retained (as `unretainedEntity`).
    @inline(__always) var unretainedCollection: Unmanaged<EntityCollection>? {
        if case .collection(let c) = self { return .passUnretained(c) }
        return nil
    }

    /// The elements of a collection or list value; nil for anything else.
    public var elements: [Value]? {
        switch self {
        case .collection(let c): return Array(c.items)
        case .list(let l): return l
        default: return nil
        }
    }

    /// The name of this value's type as extension lookup sees it: `string`, `number`, `bool`, `date`,
    /// `data`, `collection`, an entity type name, or `nil`.
    public var typeName: String {
        switch self {
        case .null: return "nil"
        case .bool: return "bool"
        case .int, .double: return "number"
        case .string: return "string"
        case .date: return "date"
        case .data: return "data"
        case .entity(let e): return e.type.name
        case .collection, .list: return "collection"
        }
    }
}

extension Value: CustomStringConvertible {
    /// The display string of bindings.md ("Values and coercion").
    public var description: String { displayString ?? "" }
}

extension Value {
    /// Identity-aware equality: scalars by value (ints and doubles numerically), entities and collections by identity.
    public func isSame(as other: Value) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)): return Double(a) == b
        case (.double(let a), .int(let b)): return a == Double(b)
        case (.string(let a), .string(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.entity(let a), .entity(let b)): return a === b
        case (.collection(let a), .collection(let b)): return a === b
        case (.list(let a), .list(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isSame(as: $1) }
        default: return false
        }
    }
}

/// The kind of a scalar value, as extension lookup distinguishes it.
enum ValueKind: Equatable {
    case null, bool, number, string, date, data, other

    init(_ v: Value) {
        switch v {
        case .null: self = .null
        case .bool: self = .bool
        case .int, .double: self = .number
        case .string: self = .string
        case .date: self = .date
        case .data: self = .data
        default: self = .other
        }
    }
}
