/// The index of ids across every loaded model (what `$x`, `ref` and `byId` resolve through).
///
/// Each id maps to its entity; when two managed entities share an id (a code like "FANTASY" in two
/// models, or copies inside one file), all are kept and lookups prefer the caller's own model, then
/// the models in registration order.
public final class IdIndex {
    private var first: [String: Entity] = [:]
    private var others: [String: [Entity]] = [:]
    /// Ids found more than once (reported once each).
    public private(set) var duplicateIds: Set<String> = []

    public init() {}

    public var count: Int { first.count }

    func reserve(_ n: Int) { first.reserveCapacity(first.count + n) }

    func add(_ e: Entity, id: String) {
        if let existing = first[id] {
            if existing === e { return }
            others[id, default: []].append(e)
            duplicateIds.insert(id)
        } else {
            first[id] = e
        }
    }

    func remove(_ e: Entity, id: String) {
        if let existing = first[id], existing === e {
            if var rest = others[id], !rest.isEmpty {
                first[id] = rest.removeFirst()
                others[id] = rest.isEmpty ? nil : rest
            } else {
                first[id] = nil
            }
        } else if var rest = others[id] {
            rest.removeAll { $0 === e }
            others[id] = rest.isEmpty ? nil : rest
        }
    }

    /// The entity with `id`, preferring one in `model`, then models in the engine's registration order.
    public func lookup(_ id: String, from model: Model?) -> Entity? {
        guard let f = first[id] else { return nil }
        guard let rest = others[id] else { return f }
        let all = [f] + rest
        if let model, let own = all.first(where: { $0.model === model }) { return own }
        guard let engine = model?.engine ?? f.model?.engine else { return f }
        for m in engine.models { if let e = all.first(where: { $0.model === m }) { return e } }
        return f
    }

    /// Every entity registered under `id`.
    public func all(_ id: String) -> [Entity] {
        guard let f = first[id] else { return [] }
        return [f] + (others[id] ?? [])
    }

    func removeAll(in model: Model) {
        for (id, e) in first where e.model === model || e.model == nil { remove(e, id: id) }
    }
}
