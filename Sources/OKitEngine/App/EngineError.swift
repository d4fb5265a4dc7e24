/// Errors of the engine's model operations. Each message names what failed and what to do.
public enum EngineError: Error, CustomStringConvertible {
    case unknownType(String)
    case unknownField(type: String, field: String)
    case unknownModel(String)
    case duplicateModel(String)
    case coercion(CoercionError)
    case nilForRequired(type: String, field: String)
    case notAnEntity(field: String, expected: String, got: String)
    case wrongEntityType(field: String, expected: String, got: String)
    case alreadyOwned(entity: String, owner: String)
    case notInCollection(entity: String, field: String)
    case indexOutOfRange(index: Int, count: Int, field: String)
    case readOnlyField(type: String, field: String)
    case payloadField(type: String, field: String)
    case writeFromDisplay(binding: String)
    case removedEntity(String)
    case notACollection(type: String, field: String)
    case cycle(String)
    case hook(name: String, entity: String, error: Error)
    case invalidName(String, reason: String)
    case reentrancy(limit: Int)
    case serialExhausted(type: String)

    public var description: String {
        switch self {
        case .unknownType(let t): return "unknown entity type \"\(t)\""
        case .unknownField(let t, let f): return "\(t) has no field \"\(f)\""
        case .unknownModel(let m): return "unknown model \"\(m)\" (register it with okit.model before using it)"
        case .duplicateModel(let m): return "a model named \"\(m)\" is already registered"
        case .coercion(let e): return e.description
        case .nilForRequired(let t, let f): return "cannot write nil to \(t).\(f): the field is not optional (declare it \"type?\")"
        case .notAnEntity(let f, let exp, let got): return "field \"\(f)\" holds \(exp), not \(got)"
        case .wrongEntityType(let f, let exp, let got): return "field \"\(f)\" holds \(exp) entities, not \(got)"
        case .alreadyOwned(let e, let o): return "\(e) already belongs to \(o): remove it there first"
        case .notInCollection(let e, let f): return "\(e) is not in \(f)"
        case .indexOutOfRange(let i, let n, let f): return "index \(i) is out of range for \(f) (\(n) elements)"
        case .readOnlyField(let t, let f): return "\(t).\(f) is computed and has no setter"
        case .payloadField(let t, let f): return "\(t).\(f) is read-only: it is the partial's payload (change its fields instead)"
        case .writeFromDisplay(let b): return "binding \"\(b)\" is a display binding and may not change the model (use it from an action property such as tap)"
        case .removedEntity(let e): return "\(e) was removed from its model and can no longer be used"
        case .notACollection(let t, let f): return "\(t).\(f) is not a collection"
        case .cycle(let e): return "\(e) cannot be added inside itself"
        case .hook(let n, let e, let err): return "\(n) hook of \(e) failed: \(err)"
        case .invalidName(let n, let r): return "invalid name \"\(n)\": \(r)"
        case .reentrancy(let l): return "too many nested calls (limit \(l))"
        case .serialExhausted(let t): return "a new \(t) has no autoincrement id left: an entity holds id \(Int.max), the highest there is; give that entity another id"
        }
    }
}
