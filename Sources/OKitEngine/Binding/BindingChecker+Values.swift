/// What a binding's value is, as far as the schema tells (for the check's cell/field type matches).
public enum CheckedValue {
    case string, number, bool, date
    /// A reference (the built-in ref type, or a declared type with a string `refKey`).
    case ref(EntityType)
    /// An owned entity (not a reference).
    case entity(EntityType)
    /// An array or set; `refs` tells whether its elements are references.
    case collection(refs: Bool)
    /// Binary data, an image, a map.
    case other

    /// A name for messages ("a string", "a ref", …).
    public var described: String {
        switch self {
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a bool"
        case .date: return "a date"
        case .ref(let t): return "a ref" + (t.refTarget.map { " to \($0)" } ?? "")
        case .entity(let t): return "a \(t.name)"
        case .collection(let refs): return refs ? "a list of refs" : "a list"
        case .other: return "data"
        }
    }
}

extension BindingChecker {
    /// True for references: the built-in ref type, or a declared type with a string `refKey` (a selection's `refType`).
    static func isRefLike(_ t: EntityType) -> Bool {
        t.isRef || t.field(named: "refKey")?.type == .string
    }

    /// The value a one-part path binding reaches from `context`; nil when it cannot be known (several parts,
    /// constants, expressions, `!`, a computed field, an extension's result, an unknown context).
    public func value(of text: String, on context: EntityType?) -> CheckedValue? {
        guard !text.isEmpty, let b = try? engine.compile(text), b.parts.count == 1, case .path(let p) = b.parts[0],
              !p.negate else { return nil }
        var ignored: [Issue] = []
        return checkedValue(walk(p, context, &ignored))
    }

    func checkedValue(_ s: Shape) -> CheckedValue? {
        switch s {
        case .scalar("string"): return .string
        case .scalar("number"): return .number
        case .scalar("bool"): return .bool
        case .scalar("date"): return .date
        case .scalar: return nil
        case .entity(let t):
            if BindingChecker.isRefLike(t) { return .ref(t) }
            return t.kind == .user ? .entity(t) : .other
        case .collection(let el):
            if case .entity(let t) = el { return .collection(refs: BindingChecker.isRefLike(t)) }
            if case .unknown = el { return nil }
            return .collection(refs: false)
        case .unknown: return nil
        }
    }
}
