/// Checking filter steps (bindings.md "Filters"): the predicate is checked against the element type, and a
/// filter on something that is not a collection is reported.
extension BindingChecker {
    /// The shape after a filter on `s`: the same collection. The predicate's paths are checked on the element
    /// type (an unknown field is an issue with its column and a did-you-mean).
    func filter(_ s: Shape, _ f: Filter, _ issues: inout [Issue]) -> Shape {
        switch s {
        case .collection(let el):
            let element: EntityType?
            if case .entity(let t) = el { element = t } else { element = nil }
            check(f.predicate, element, &issues)
            checkComparisons(f.predicate, element, &issues)
            checkConstant(f, &issues)
            return s
        case .entity(let t):
            issues.append(Issue(column: f.column, message: "a filter [\(f.text)] needs a collection; this is a \(t.name)"))
            return .unknown
        case .scalar(let kind):
            issues.append(Issue(column: f.column, message: "a filter [\(f.text)] needs a collection; this is a \(kind)"))
            return .unknown
        case .unknown:
            check(f.predicate, nil, &issues)
            return .unknown
        }
    }
}

extension BindingChecker {
    /// A predicate that reads nothing (`[- 1]`, `[(0)]`, `[1 + 1]`, `['x']`) keeps every element or none: most
    /// likely an index written as an expression. Reported at the `[`.
    func checkConstant(_ f: Filter, _ issues: inout [Issue]) {
        guard isConstant(f.predicate) else { return }
        issues.append(Issue(column: f.column, message: "the filter [\(f.text)] reads nothing from the element, so it keeps every element or none; an index is an integer literal such as [0] or [-1]"))
    }

    private func isConstant(_ e: Expression) -> Bool {
        switch e {
        case .literal, .localized: return true
        case .path, .call: return false
        case .negate(let x), .not(let x): return isConstant(x)
        case .binary(_, let a, let b), .and(let a, let b), .or(let a, let b): return isConstant(a) && isConstant(b)
        case .ternary(let a, let b, let c), .between(let a, let b, let c): return isConstant(a) && isConstant(b) && isConstant(c)
        case .inList(let x, let list): return isConstant(x) && list.allSatisfy(isConstant)
        }
    }

    /// Comparisons in a predicate between a field and a literal of another type (`paid == 'no'`, a bool with a
    /// string), which are always false (always true for `!=`): reported at the field's column.
    func checkComparisons(_ e: Expression, _ element: EntityType?, _ issues: inout [Issue]) {
        switch e {
        case .binary(let op, let a, let b):
            guard [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual].contains(op) else { return }
            mismatch(op, a, b, element, &issues)
            mismatch(op, b, a, element, &issues)
        case .and(let a, let b), .or(let a, let b):
            checkComparisons(a, element, &issues)
            checkComparisons(b, element, &issues)
        case .not(let x):
            checkComparisons(x, element, &issues)
        case .ternary(let c, let a, let b):
            checkComparisons(c, element, &issues)
            checkComparisons(a, element, &issues)
            checkComparisons(b, element, &issues)
        default:
            break
        }
    }

    private func mismatch(_ op: BinaryOperator, _ field: Expression, _ literal: Expression, _ element: EntityType?,
                          _ issues: inout [Issue]) {
        guard case .path(let p) = field, !p.negate, case .literal(let v) = literal, let other = literalKind(v) else { return }
        var ignored: [Issue] = []
        guard case .scalar(let kind) = walk(p, element, &ignored), kind != other,
              ["string", "number", "bool", "date"].contains(kind) else { return }
        let always = op == .notEqual ? "true" : "false"
        issues.append(Issue(column: p.column, message: "\"\(p.text)\" is a \(kind) and \(Coercion.describe(v)) a \(other): the comparison \(op.rawValue) is always \(always)"))
    }

    private func literalKind(_ v: Value) -> String? {
        switch v {
        case .int, .double: return "number"
        case .string: return "string"
        case .bool: return "bool"
        default: return nil
        }
    }
}
