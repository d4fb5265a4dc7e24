/// The collection behind a filtered data path (bindings.md "Filters"): a list over `expenses[paid == false]`
/// adds to, deletes from and reorders `expenses`.
extension Engine {
    /// The collection a data path's rows come from: the collection it reaches, or the one its trailing filters
    /// apply to. Nil when it is neither.
    public func collectionBehind(_ context: Entity?, _ text: String, mode: EvaluationMode = .query) throws -> EntityCollection? {
        if case .collection(let c) = try get(context, text, mode: mode) { return c }
        return try filteredCollection(context, text, mode: mode)
    }

    /// For a path that ends in filters (`expenses[paid == false]`, `/a/b[x][y]`): the collection they filter;
    /// nil for any other binding.
    public func filteredCollection(_ context: Entity?, _ text: String, mode: EvaluationMode = .query) throws -> EntityCollection? {
        let b = try compile(text)
        guard b.parts.count == 1, case .path(let p) = b.parts[0], !p.negate,
              case .property(let keys, nil, let column)? = p.segments.last, case .filter? = keys.last else { return nil }
        var unfiltered = keys
        while case .filter? = unfiltered.last { unfiltered.removeLast() }
        guard !unfiltered.isEmpty else { return nil }
        let path = PathExpression(negate: false, model: p.model, absolute: p.absolute,
                                  segments: p.segments.dropLast() + [.property(keys: unfiltered, index: nil, column: column)],
                                  text: p.text, column: p.column)
        guard case .collection(let c) = try evaluate(Binding(text: text, parts: [.path(path)]), context, mode: mode) else { return nil }
        return c
    }
}
