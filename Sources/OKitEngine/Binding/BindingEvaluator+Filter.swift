/// Filter steps (bindings.md "Filters"): `expenses[paid == false]` keeps the elements of a collection for which
/// the predicate, evaluated with the element as its context, is truthy.
///
/// Every read the predicate makes is recorded like any other read — the collection's membership, then each
/// element's fields — so a write to a field that a predicate read (on any element) makes the binding stale,
/// and a write to a field no predicate read does not.
extension BindingEvaluator {
    /// The elements of `v` (a collection or list) that pass `f`, in order, as a list; nil on nil; nil on a value
    /// that is not a collection (`okit-run check` reports that where it can see it).
    func filter(_ v: Value, _ f: Filter) throws -> Value {
        switch v {
        case .collection(let c):
            engine.graph.recordMembers(c)
            var kept: [Value] = []
            for item in c.items where try passes(item, f) { kept.append(item) }
            return .list(kept)
        case .list(let l):
            var kept: [Value] = []
            for item in l where try passes(item, f) { kept.append(item) }
            return .list(kept)
        default:
            return .null
        }
    }

    /// Whether one element passes: the predicate evaluated with the element as the starting context (paths
    /// inside are relative to it; absolute paths start at a model root as always). An element that is not an
    /// entity gives relative paths nothing to start from, so they read nil.
    @inline(__always)
    func passes(_ item: Value, _ f: Filter) throws -> Bool {
        let element = BindingEvaluator(engine: engine, binding: binding, start: item.entity, mode: mode)
        return try ExpressionEvaluator(base: element).evaluate(f.predicate).truthy
    }
}
