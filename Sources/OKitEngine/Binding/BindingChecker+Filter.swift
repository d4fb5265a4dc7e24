/// Checking filter steps (bindings.md "Filters"): the predicate is checked against the element type, and a
/// filter on something that is not a collection is reported.
extension BindingChecker {
    /// The shape after a filter on `s`: the same collection. The predicate's paths are checked on the element
    /// type (an unknown field is an issue with its column and a did-you-mean).
    func filter(_ s: Shape, _ f: Filter, _ issues: inout [Issue]) -> Shape {
        switch s {
        case .collection(let el):
            if case .entity(let t) = el { check(f.predicate, t, &issues) } else { check(f.predicate, nil, &issues) }
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
