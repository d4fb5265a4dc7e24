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
            self = id.withUTF8 { Key.parseUUID($0) } ?? .text(id)
        }

        /// `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` with upper-case hex digits only (so two ids that differ in case
        /// stay distinct).
        static func parseUUID(_ u: UnsafeBufferPointer<UInt8>) -> Key? {
            guard u.count == 36, u[8] == 0x2D, u[13] == 0x2D, u[18] == 0x2D, u[23] == 0x2D else { return nil }
            var hi: UInt64 = 0, lo: UInt64 = 0
            var n = 0
            for k in 0..<36 where k != 8 && k != 13 && k != 18 && k != 23 {
                let c = u[k]
                let d: UInt64
                if c >= 0x30, c <= 0x39 { d = UInt64(c - 0x30) } else if c >= 0x41, c <= 0x46 { d = UInt64(c - 0x37) } else { return nil }
                if n < 16 { hi = hi << 4 | d } else { lo = lo << 4 | d }
                n += 1
            }
            return .uuid(hi, lo)
        }
    }

    /// Roots of loaded models whose entities are not indexed yet: loading leaves the index to the first
    /// lookup by id (most screens never resolve an id; the first `$x` or `ref` pays once).
    private var pending: [Entity] = []
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

    /// Indexes a loaded tree on the first lookup.
    func addLater(_ root: Entity) { pending.append(root) }

    /// Forgets a loaded tree that was never indexed (its model was reloaded).
    func discardPending(_ root: Entity) { pending.removeAll { $0 === root } }

    /// Indexes every pending tree now.
    public func flush() {
        guard !pending.isEmpty else { return }
        let roots = pending
        pending = []
        for r in roots { addTree(r) }
    }

    private func addTree(_ e: Entity) {
        if e.type.hasId, !e.type.isRef, case .string(let id) = e.values[0], !id.isEmpty { insert(e, Key(id)) }
        e.forEachChild { addTree($0) }
    }

    func reserve(_ n: Int) { first.reserveCapacity(first.count + n) }

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
