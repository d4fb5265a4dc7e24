/// The type of an entity field, as written in a declaration (`"string?"`, `"[ref Author]"`, `"{string: Book}"`).
public indirect enum FieldType: Equatable, Sendable {
    case string, int, double, bool, date
    /// Binary data stored beside the model; the model holds its metadata.
    case data
    /// An image stored beside the model; the model holds its metadata.
    case image
    /// Binary data stored inline (base64) in the model.
    case inlineData
    /// An image stored inline (base64) in the model.
    case inlineImage
    /// A reference to an entity by id; `target` is the referenced type, when declared.
    case ref(target: String?)
    /// An owned entity of the named type.
    case entity(String)
    case array(FieldType)
    /// A set of entities, unique by id, kept in insertion order.
    case set(FieldType)
    /// A map from string keys to values of the element type.
    case map(FieldType)

    /// string, int, double, bool or date.
    public var isScalar: Bool {
        switch self { case .string, .int, .double, .bool, .date: return true; default: return false }
    }

    /// True for array, set and map.
    public var isCollection: Bool {
        switch self { case .array, .set, .map: return true; default: return false }
    }

    /// The element type of a collection; nil for anything else.
    public var elementType: FieldType? {
        switch self { case .array(let t), .set(let t), .map(let t): return t; default: return nil }
    }

    /// True for the types whose values are entities (owned entities, refs, data/image metadata).
    public var holdsEntity: Bool {
        switch self {
        case .entity, .ref, .data, .image, .inlineData, .inlineImage: return true
        default: return false
        }
    }

    /// The type as written in a declaration.
    public var declaration: String {
        switch self {
        case .string: return "string"
        case .int: return "int"
        case .double: return "double"
        case .bool: return "bool"
        case .date: return "date"
        case .data: return "data"
        case .image: return "image"
        case .inlineData: return "inlineData"
        case .inlineImage: return "inlineImage"
        case .ref(let t): return t.map { "ref \($0)" } ?? "ref"
        case .entity(let n): return n
        case .array(let t): return "[\(t.declaration)]"
        case .set(let t): return "{\(t.declaration)}"
        case .map(let t): return "{string: \(t.declaration)}"
        }
    }

    /// Parses a declaration. Returns the type and whether it was marked optional with a trailing `?`.
    /// Entity type names are not checked here (the schema resolves them when the app starts).
    public static func parse(_ text: String) throws(SchemaError) -> (FieldType, optional: Bool) {
        var s = Substring(text).trimmingCharacters(in: .whitespaces)[...]
        var optional = false
        if s.hasSuffix("?") { optional = true; s = s.dropLast(); s = Substring(s.trimmingCharacters(in: .whitespaces)) }
        guard let t = parseType(s) else { throw SchemaError.unknownFieldType(text) }
        return (t, optional)
    }

    private static func parseType(_ s: Substring) -> FieldType? {
        let s = Substring(s.trimmingCharacters(in: .whitespaces))
        if s.isEmpty { return nil }
        if s.hasPrefix("["), s.hasSuffix("]") {
            return parseType(s.dropFirst().dropLast()).map { .array($0) }
        }
        if s.hasPrefix("{"), s.hasSuffix("}") {
            let inner = s.dropFirst().dropLast()
            if let colon = inner.firstIndex(of: ":") {
                let key = inner[..<colon].trimmingCharacters(in: .whitespaces)
                guard key == "string" else { return nil }
                return parseType(inner[inner.index(after: colon)...]).map { .map($0) }
            }
            return parseType(inner).map { .set($0) }
        }
        switch s {
        case "string": return .string
        case "int", "integer": return .int
        case "double", "number", "float": return .double
        case "bool", "boolean": return .bool
        case "date": return .date
        case "data": return .data
        case "image": return .image
        case "inlineData": return .inlineData
        case "inlineImage": return .inlineImage
        case "ref": return .ref(target: nil)
        default: break
        }
        if s.hasPrefix("ref ") {
            let target = s.dropFirst(4).trimmingCharacters(in: .whitespaces)
            return isName(target) ? .ref(target: target) : nil
        }
        return isName(s) ? .entity(String(s)) : nil
    }

    static func isName<S: StringProtocol>(_ s: S) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return s.unicodeScalars.allSatisfy { $0 == "_" || $0 == "." || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}
