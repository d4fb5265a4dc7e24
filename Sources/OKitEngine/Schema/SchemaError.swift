/// A mistake in a schema declaration, found when it is declared or when the app starts.
public enum SchemaError: Error, Equatable, CustomStringConvertible {
    case unknownFieldType(String)
    case duplicateEntityType(String)
    case duplicateField(type: String, field: String)
    case reservedField(type: String, field: String)
    case unknownEntityType(String, usedBy: String)
    case badDefault(type: String, field: String, reason: String)
    case unknownType(String)
    case badPartial(type: String, reason: String)
    case tooManyFields(type: String)

    public var description: String {
        switch self {
        case .unknownFieldType(let t):
            return "unknown field type \"\(t)\" (use string, int, double, bool, date, data, image, inlineData, inlineImage, ref T, an entity type, [T], {T} or {string: T}, with ? for optional)"
        case .duplicateEntityType(let n): return "entity type \"\(n)\" is declared twice"
        case .duplicateField(let t, let f): return "entity type \"\(t)\" declares field \"\(f)\" twice"
        case .reservedField(let t, let f): return "entity type \"\(t)\": \"\(f)\" is a reserved name"
        case .unknownEntityType(let n, let user): return "\(user) uses entity type \"\(n)\", which is not declared"
        case .badDefault(let t, let f, let r): return "entity type \"\(t)\", field \"\(f)\": bad default: \(r)"
        case .unknownType(let n): return "unknown entity type \"\(n)\""
        case .badPartial(let t, let r): return "okit.partial(\"\(t)\"): \(r)"
        case .tooManyFields(let t):
            return "entity type \"\(t)\" has more than \(EntityType.maxFields) stored fields; split it into entity fields"
        }
    }
}
