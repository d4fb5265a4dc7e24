/// How a list reads one of its rows' keys (`rowSort`, `group`) in a full pass over every row.
///
/// The common keys are a plain field (`name`) and its first letter (`name/initial`, the built-in `initial`):
/// those are read straight from the row's slot, with the same dependency recorded, instead of going through
/// the evaluator twice per row (half of a list's first pass over 100,000 books; performance.md, issue 16).
/// Anything else — another path, a computed field, a row of another type, an `initial` an app replaced —
/// goes through the evaluator as before, with the same result.
struct ListKeyReader {
    private enum Plan {
        /// The binding as it is, through the evaluator.
        case general
        /// A stored field of the row, through the path's slot cache.
        case field(SlotCache)
        /// The first letter of a stored text field of the row, through the path's slot cache.
        case initialOfField(SlotCache)
    }

    let binding: Binding
    private let plan: Plan

    init(_ binding: Binding, engine: Engine) {
        self.binding = binding
        plan = Self.plan(binding, engine: engine)
    }

    private static func plan(_ b: Binding, engine: Engine) -> Plan {
        guard b.parts.count == 1, case .path(let p) = b.parts[0], !p.negate, !p.absolute, p.model == nil,
              let first = p.segments.first, case .property(let keys, nil, _) = first,
              let firstKey = keys.first, case .name(_, let cache) = firstKey else { return .general }
        // `name`, and `name/initial`, `name/initial()` or `name.initial`.
        let then: Segment?
        switch (p.segments.count, keys.count) {
        case (1, 1): return .field(cache)
        case (1, 2): then = .property(keys: [keys[1]], index: nil, column: 0)
        case (2, 1): then = p.segments[1]
        default: then = nil
        }
        let initial: Bool
        switch then {
        case .property(let k, nil, _)?:
            if k.count == 1, case .name("initial", _) = k[0] { initial = true } else { initial = false }
        case .call("initial", let args, nil, _)?:
            initial = args.isEmpty
        default:
            initial = false
        }
        guard initial, engine.extensions.resolvesToBuiltin("initial", forType: "string") else { return .general }
        return .initialOfField(cache)
    }

    /// The slot a row's key is read from once the first row was read (-1: none, or read through the evaluator).
    var slot: Int {
        switch plan {
        case .general: return -1
        case .field(let cache), .initialOfField(let cache): return cache.slot
        }
    }

    /// The key of row `e`, as `engine.evaluate(binding, e, mode: .display)` gives it.
    @inline(__always)
    func read(_ e: Entity, engine: Engine) throws -> Value {
        switch plan {
        case .general:
            return binding.isEmpty ? .null : try engine.evaluate(binding, e, mode: .display)
        case .field(let cache):
            // The cache is warm once the evaluator read the field of a row of this type (the first row).
            guard cache.slot >= 0, cache.type == ObjectIdentifier(e.type) else {
                return try engine.evaluate(binding, e, mode: .display)
            }
            engine.graph.recordField(e, cache.slot)
            return e.slot(cache.slot)
        case .initialOfField(let cache):
            guard cache.slot >= 0, cache.type == ObjectIdentifier(e.type), case .string(let s) = e.slot(cache.slot) else {
                return try engine.evaluate(binding, e, mode: .display)
            }
            engine.graph.recordField(e, cache.slot)
            // A kana's or Hangul letter's initial follows the language, which the list's order already reads.
            return .string(StringExtensions.initial(s, language: engine.locale.language))
        }
    }
}

/// A list's two row keys (`rowSort`, `group`).
struct ListKeyReaders {
    let sort: ListKeyReader
    let group: ListKeyReader

    init(sort: Binding, group: Binding, engine: Engine) {
        self.sort = ListKeyReader(sort, engine: engine)
        self.group = ListKeyReader(group, engine: engine)
    }
}
