/// The index of ids across every loaded model (what `$x`, `ref` and `byId` resolve through).
///
/// Upper-case UUID ids (what okit and OKit create) are keyed by their 128 bits, so a lookup hashes and compares
/// two integers instead of chasing a heap string (the index is built for every entity at load). Other ids
/// (codes like "FANTASY") are keyed by their text. When two managed entities share an id (a code in two
/// models, or copies inside one file), all are kept and lookups prefer the caller's own model, then the
/// models in registration order.
public final class IdIndex {
    enum Key: Hashable {
        case uuid(UInt64, UInt64)
        case text(String)

        init(_ id: String) {
            var id = id
            self = id.withUTF8 { PackedId.parse($0) }.map { .uuid($0.0, $0.1) } ?? .text(id)
        }
    }

    /// Roots of loaded models whose entities are not indexed yet: loading leaves the index to the first
    /// lookup by id (most screens never resolve an id; the first `$x` or `ref` pays once).
    private var pending: [Entity] = []
    /// How many entities the pending trees hold (as their readers counted them): the table is sized once.
    private var pendingCount = 0
    private var first: [Key: Entity] = [:]
    private var others: [Key: [Entity]] = [:]
    private var duplicates: Set<Key> = []

    public init() {}

    public var count: Int { flush(); return first.count }

    /// Whether more than one loaded entity has this id.
    public func isDuplicate(_ id: String) -> Bool { flush(); return duplicates.contains(Key(id)) }

    /// How many ids are shared by more than one entity.
    public var duplicateCount: Int { flush(); return duplicates.count }

    /// Whether loaded entities still wait to be indexed.
    public var hasPending: Bool { !pending.isEmpty }

    /// Indexes a loaded tree of about `count` entities on the first lookup.
    func addLater(_ root: Entity, count: Int) {
        pending.append(root)
        pendingCount += count
    }

    /// Forgets a loaded tree that was never indexed (its model was reloaded).
    func discardPending(_ root: Entity) { pending.removeAll { $0 === root } }

    /// Indexes every pending tree now.
    public func flush() {
        guard !pending.isEmpty else { return }
        let roots = pending
        // Sized here, not at load: a table that no lookup ever needs takes no memory.
        first.reserveCapacity(first.count + pendingCount)
        pending = []
        pendingCount = 0
        for r in roots { addTree(r) }
    }

    private func addTree(_ e: Entity) {
        if e.type.hasId, !e.type.isRef {
            if let bits = e.packedId {
                insert(e, .uuid(bits.0, bits.1))
            } else if case .string(let id) = e.values[0], !id.isEmpty {
                insert(e, Key(id))
            }
        }
        e.forEachChild { addTree($0) }
    }

    func add(_ e: Entity, id: String) {
        flush()
        insert(e, Key(id))
    }

    private func insert(_ e: Entity, _ key: Key) {
        if let existing = first[key] {
            if existing === e { return }
            others[key, default: []].append(e)
            duplicates.insert(key)
        } else {
            first[key] = e
        }
    }

    func remove(_ e: Entity, id: String) {
        flush()
        let key = Key(id)
        if let existing = first[key], existing === e {
            if var rest = others[key], !rest.isEmpty {
                first[key] = rest.removeFirst()
                others[key] = rest.isEmpty ? nil : rest
            } else {
                first[key] = nil
            }
        } else if var rest = others[key] {
            rest.removeAll { $0 === e }
            others[key] = rest.isEmpty ? nil : rest
        }
    }

    /// The entity with `id`, preferring one in `model`, then models in the engine's registration order.
    public func lookup(_ id: String, from model: Model?) -> Entity? {
        flush()
        let key = Key(id)
        guard let f = first[key] else { return nil }
        guard let rest = others[key] else { return f }
        let all = [f] + rest
        if let model, let own = all.first(where: { $0.model === model }) { return own }
        guard let engine = model?.engine ?? f.model?.engine else { return f }
        for m in engine.models { if let e = all.first(where: { $0.model === m }) { return e } }
        return f
    }

    /// Every entity registered under `id`.
    public func all(_ id: String) -> [Entity] {
        flush()
        let key = Key(id)
        guard let f = first[key] else { return [] }
        return [f] + (others[key] ?? [])
    }
}
