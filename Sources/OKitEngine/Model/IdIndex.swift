/// The index of ids across every loaded model (what `$x`, `ref` and `byId` resolve through).
///
/// Upper-case UUID ids (what okit and OKit create) are keyed by their 128 bits in a flat table (`UUIDTable`),
/// so a lookup hashes and compares two integers in one cache line instead of chasing a heap string. Other ids
/// (codes like "FANTASY") are keyed by their text. When two managed entities share an id (a code in two
/// models, or copies inside one file), all are kept and lookups prefer the caller's own model, then the
/// models in registration order; a `ref T`'s lookup takes only the entities of type T among them.
public final class IdIndex {
    enum Key: Hashable {
        case uuid(UInt64, UInt64)
        case text(String)

        init(_ id: String) {
            var id = id
            self = id.withUTF8 { PackedId.parse($0) }.map { .uuid($0.0, $0.1) } ?? .text(id)
        }
    }

    /// Loaded models whose entities are not indexed yet: loading leaves the index to the first lookup by id
    /// (most screens never resolve an id; the first `$x` or `ref` pays once). With each root, the entities
    /// below it that have an id, when the reader listed them (else the tree is walked).
    private var pending: [(root: Entity, identified: IdentifiedEntities?, count: Int)] = []
    /// How many loaded trees were walked for their ids because their reader's list was not right (for tests).
    private(set) var walkedTrees = 0
    /// The first entity of each id: canonical UUIDs by their bits, other ids by their text.
    private let uuids = UUIDTable()
    private var texts: [String: Entity] = [:]
    /// The other entities of ids that more than one entity has (rare).
    private var others: [Key: [Entity]] = [:]
    private var duplicates: Set<Key> = []

    public init() {}

    public var count: Int { flush(); return uuids.count + texts.count }

    private func first(_ key: Key) -> Entity? {
        switch key {
        case .uuid(let hi, let lo): return uuids.find(hi, lo)
        case .text(let s): return texts[s]
        }
    }

    private func setFirst(_ key: Key, _ e: Entity?) {
        switch key {
        case .uuid(let hi, let lo): if let e { uuids.replace(hi, lo, with: e) } else { uuids.remove(hi, lo) }
        case .text(let s): texts[s] = e
        }
    }

    /// Whether more than one loaded entity has this id.
    public func isDuplicate(_ id: String) -> Bool { flush(); return duplicates.contains(Key(id)) }

    /// How many ids are shared by more than one entity.
    public var duplicateCount: Int { flush(); return duplicates.count }

    /// Whether loaded entities still wait to be indexed.
    public var hasPending: Bool { !pending.isEmpty }

    /// Indexes a loaded tree of about `count` entities on the first lookup.
    ///
    /// `identified` lists the entities below `root` that have an id, as read (nil: the tree is walked). The
    /// list stays right until the first lookup because every change that takes an entity with an id out of a
    /// tree, or changes an id (`add`, `remove`), indexes the pending trees first.
    func addLater(_ root: Entity, count: Int, identified: IdentifiedEntities? = nil) {
        pending.append((root, identified, count))
    }

    /// Forgets a loaded tree that was never indexed (its model was reloaded).
    func discardPending(_ root: Entity) { pending.removeAll { $0.root === root } }

    /// Indexes every pending tree now.
    public func flush() {
        guard !pending.isEmpty else { return }
        let trees = pending
        pending = []
        // A tree its reader did not list is walked for its canonical ids (each entity retained while it is hot
        // in the cache); other ids are indexed as they are met.
        var walked: [UUIDTable.Entry] = []
        for tree in trees where tree.identified == nil {
            walkedTrees += 1
            walked.reserveCapacity(walked.count + tree.count)
            collect(tree.root, &walked)
        }
        // The table is sized here, once, not at load: a table no lookup needs takes no memory.
        let listed = trees.reduce(0) { $0 + 1 + ($1.identified.map { $0.count + $0.others.count } ?? 0) }
        uuids.reserve(uuids.count + walked.count + listed)
        for tree in trees {
            guard let identified = tree.identified else { continue }
            index(tree.root)
            identified.handOver { identified.holdsReplaced ? placeManaged($0) : place($0) }
            for e in identified.others where e.state == .managed { index(e) }
        }
        for x in walked { place(x.hi, x.lo, x.entity) }
    }

    /// Places the reader's list of entities with canonical ids, each with the reader's retain (the table keeps
    /// it). Every one is still in its tree with the id it was read with (see `IdentifiedEntities`), so its bits
    /// are read as they are: nothing here checks an access or retains, which would each wait for the reads
    /// before them (a cache miss for the entity, one for its values and one for the table's slot, per id).
    ///
    /// Those three misses came one after another for each id. They are prefetched (`CacheLines`) in a pipeline
    /// instead: the entity 16 ids ahead, its values 8 ahead (the entity arrived), the table's slot 4 ahead (the
    /// values arrived), so the misses of many ids overlap (`index_build` 18 → 13 ms; issue 16).
    private func place(_ list: UnsafeBufferPointer<Unmanaged<Entity>>) {
        let n = list.count
        for k in 0 ..< n {
            if k &+ 16 < n { CacheLines.prefetch(UnsafeRawPointer(list[k &+ 16].toOpaque()) + 16, byteCount: 16) }
            if k &+ 8 < n { CacheLines.prefetch(UnsafeRawPointer(list[k &+ 8]._withUnsafeGuaranteedRef { $0.slots }), byteCount: 16) }
            if k &+ 4 < n {
                let ahead = PackedId.bits(at: list[k &+ 4]._withUnsafeGuaranteedRef { $0.slots })
                uuids.prefetch(ahead.0, ahead.1)
            }
            let item = list[k]
            let bits = PackedId.bits(at: item._withUnsafeGuaranteedRef { $0.slots })
            place(bits.0, bits.1, item)
        }
    }

    /// Places the listed entities still in their tree (a journal's records replaced the content of some after the
    /// read: `IdentifiedEntities.holdsReplaced`) and releases the others.
    private func placeManaged(_ list: UnsafeBufferPointer<Unmanaged<Entity>>) {
        for item in list {
            guard item._withUnsafeGuaranteedRef({ $0.state == .managed }) else {
                item.release()
                continue
            }
            let bits = PackedId.bits(at: item._withUnsafeGuaranteedRef { $0.slots })
            place(bits.0, bits.1, item)
        }
    }

    @inline(__always)
    private func place(_ hi: UInt64, _ lo: UInt64, _ entity: Unmanaged<Entity>) {
        if let other = uuids.insertReserved(hi, lo, entity) { addDuplicate(other, .uuid(hi, lo)) }
    }

    /// Indexes one entity (the table has room for a canonical id).
    private func index(_ e: Entity) {
        if let c = canonical(e) { place(c.hi, c.lo, c.entity) }
    }

    /// One entity's canonical id, retained; its other id, if it has one, is indexed now.
    private func canonical(_ e: Entity) -> UUIDTable.Entry? {
        guard e.type.hasId, !e.type.isRef else { return nil }
        if let bits = e.packedId { return UUIDTable.Entry(hi: bits.0, lo: bits.1, entity: .passRetained(e)) }
        if case .string(let id) = e.values[0], !id.isEmpty { insert(e, Key(id)) }
        return nil
    }

    /// A tree's canonical ids, walking it.
    private func collect(_ e: Entity, _ ids: inout [UUIDTable.Entry]) {
        if let c = canonical(e) { ids.append(c) }
        e.forEachChild { collect($0, &ids) }
    }

    func add(_ e: Entity, id: String) {
        flush()
        insert(e, Key(id))
    }

    private func insert(_ e: Entity, _ key: Key) {
        switch key {
        case .uuid(let hi, let lo):
            if let existing = uuids.insertIfAbsent(hi, lo, e), existing !== e { addDuplicate(e, key) }
        case .text(let s):
            if let existing = texts[s] {
                if existing !== e { addDuplicate(e, key) }
            } else {
                texts[s] = e
            }
        }
    }

    private func addDuplicate(_ e: Entity, _ key: Key) {
        if others[key]?.contains(where: { $0 === e }) == true { return }
        others[key, default: []].append(e)
        duplicates.insert(key)
    }

    func remove(_ e: Entity, id: String) {
        flush()
        let key = Key(id)
        if let existing = first(key), existing === e {
            if var rest = others[key], !rest.isEmpty {
                setFirst(key, rest.removeFirst())
                others[key] = rest.isEmpty ? nil : rest
            } else {
                setFirst(key, nil)
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
        guard let f = first(key) else { return nil }
        guard !others.isEmpty, let rest = others[key] else { return f }
        return Self.preferred([f] + rest, from: model)
    }

    /// The entity with `id` of the type named `target` (a `ref T`'s target; nil: any type), preferring one in
    /// `model` as `lookup` does; `ambiguous` when more than one loaded entity of that type has the id. An entity of
    /// another type that has the id is never the answer (storage.md "SQLite models": ids are unique within a
    /// model, not across models or codes given by hand).
    public func lookup(_ id: String, from model: Model?, type target: String?) -> (entity: Entity?, ambiguous: Bool) {
        guard let target else {
            let e = lookup(id, from: model)
            return (e, e != nil && isDuplicate(id))
        }
        flush()
        let key = Key(id)
        guard let f = first(key) else { return (nil, false) }
        guard !others.isEmpty, let rest = others[key] else { return (f.type.name == target ? f : nil, false) }
        let typed = ([f] + rest).filter { $0.type.name == target }
        guard typed.count > 1 else { return (typed.first, false) }
        return (Self.preferred(typed, from: model), true)
    }

    /// Of the entities of one id (at least one), the one in `model`, else the first in the engine's registration
    /// order of models, else the first.
    private static func preferred(_ all: [Entity], from model: Model?) -> Entity {
        if let model, let own = all.first(where: { $0.model === model }) { return own }
        guard let engine = model?.engine ?? all[0].model?.engine else { return all[0] }
        for m in engine.models { if let e = all.first(where: { $0.model === m }) { return e } }
        return all[0]
    }

    /// Every entity registered under `id`.
    public func all(_ id: String) -> [Entity] {
        flush()
        let key = Key(id)
        guard let f = first(key) else { return [] }
        return [f] + (others[key] ?? [])
    }
}
