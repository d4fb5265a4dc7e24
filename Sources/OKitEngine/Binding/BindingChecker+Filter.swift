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
            checkComparisons(f.predicate, element, f, &issues)
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
    func checkComparisons(_ e: Expression, _ element: EntityType?, _ f: Filter, _ issues: inout [Issue]) {
        switch e {
        case .binary(let op, let a, let b):
            guard [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual].contains(op) else { return }
            mismatch(op, a, b, element, f, fieldFirst: true, &issues)
            mismatch(op, b, a, element, f, fieldFirst: false, &issues)
        case .and(let a, let b), .or(let a, let b):
            checkComparisons(a, element, f, &issues)
            checkComparisons(b, element, f, &issues)
        case .not(let x):
            checkComparisons(x, element, f, &issues)
        case .ternary(let c, let a, let b):
            checkComparisons(c, element, f, &issues)
            checkComparisons(a, element, f, &issues)
            checkComparisons(b, element, f, &issues)
        default:
            break
        }
    }

    private func mismatch(_ op: BinaryOperator, _ field: Expression, _ literal: Expression, _ element: EntityType?,
                          _ f: Filter, fieldFirst: Bool, _ issues: inout [Issue]) {
        guard case .path(let p) = field, !p.negate, case .literal(let v) = literal, let other = literalKind(v) else { return }
        var ignored: [Issue] = []
        guard case .scalar(let kind) = walk(p, element, &ignored), kind != other,
              ["string", "number", "bool", "date"].contains(kind) else { return }
        let always = op == .notEqual ? "true" : "false"
        issues.append(Issue(column: p.column, message: "\"\(p.text)\" is a \(kind) and \(Coercion.describe(v)) a \(other): the comparison \(spelling(op, of: p, in: f, fieldFirst: fieldFirst)) is always \(always)"))
    }

    /// The operator as written next to the field `p` (`~=` and `!=` are the same operator).
    private func spelling(_ op: BinaryOperator, of p: PathExpression, in f: Filter, fieldFirst: Bool) -> String {
        guard op == .notEqual else { return op.rawValue }
        let chars = Array(f.text)
        var k = p.column - f.textColumn
        if fieldFirst {
            k += p.text.count
            while k < chars.count, chars[k].isWhitespace { k += 1 }
        } else {
            k -= 1
            while k >= 0, chars[k].isWhitespace { k -= 1 }
            k -= 1
        }
        guard k >= 0, k + 1 < chars.count, chars[k] == "~" || chars[k] == "!", chars[k + 1] == "=" else { return op.rawValue }
        return String(chars[k...(k + 1)])
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
