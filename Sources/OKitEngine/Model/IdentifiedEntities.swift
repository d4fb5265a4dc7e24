import Foundation

/// The entities of a loaded tree that have an id, listed by the reader as it finishes each one, each held
/// retained: those with a canonical id (`packedId`) in one list, the few with another id in another.
///
/// The id index's first lookup after a load reads these lists (`IdIndex.flush`) instead of walking the tree:
/// the entities come in about the order they were allocated, so the reads stream through memory where a walk
/// chases pointers, and each retain passes to the index's table as it is (no retain or release per entity).
/// Whatever is not handed over is released when the list goes (a read that failed, a model reloaded before any
/// lookup).
///
/// The lists stay right until the first lookup: every change that takes an entity with an id out of a tree, or
/// changes an id, indexes the pending trees first (`IdIndex.add` and `remove` flush).
public final class IdentifiedEntities {
    // Not checked for exclusive access at run time: `add` runs once per entity read, and three dynamic checks
    // cost more than the rest of it. Every access is inside this class, in methods that call nothing outside
    // it, so no two accesses can overlap.
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<Unmanaged<Entity>>
    @exclusivity(unchecked) private var capacity: Int
    /// How many entities with a canonical id are listed.
    @exclusivity(unchecked) public private(set) var count = 0
    private var handedOver = false
    /// The entities with another id (codes like "FANTASY", lower-case UUIDs).
    private(set) var others: [Entity] = []
    /// Set when a journal's records replaced content after the read (`FileStorage.apply`): the entities that left
    /// the tree with it are marked `.removed` and still listed, and the index keeps only those still in it.
    var holdsReplaced = false

    init() {
        capacity = 256
        base = Self.resized(nil, to: capacity)
    }

    deinit {
        if !handedOver { for i in 0..<count { base[i].release() } }
        free(base)
    }

    /// The list's memory, grown or shrunk with `realloc` (which remaps a large block instead of copying it).
    private static func resized(_ p: UnsafeMutablePointer<Unmanaged<Entity>>?, to capacity: Int) -> UnsafeMutablePointer<Unmanaged<Entity>> {
        let bytes = capacity * MemoryLayout<Unmanaged<Entity>>.stride
        guard let raw = realloc(p.map { UnsafeMutableRawPointer($0) }, bytes) else {
            // Out of memory: stop as any Swift allocation does (the list would otherwise be incomplete).
            preconditionFailure("out of memory for the list of \(capacity) entities with ids")
        }
        return raw.bindMemory(to: Unmanaged<Entity>.self, capacity: capacity)
    }

    /// Lists an entity whose id is canonical (`e.packedId` is not nil).
    @inline(__always)
    func add(_ e: Entity) {
        if count == capacity { grow() }
        base[count] = .passRetained(e)
        count &+= 1
    }

    /// Lists an entity with another id.
    func addOther(_ e: Entity) { others.append(e) }

    /// Takes over what another reader listed (a journal record's content), with its retains, except `except`:
    /// the record's own entity, whose values its target took.
    func take(_ other: IdentifiedEntities, except: Entity) {
        let skipped = Unmanaged.passUnretained(except).toOpaque()
        other.handOver { list in
            for item in list {
                if item.toOpaque() == skipped {
                    item.release()
                    continue
                }
                if count == capacity { grow() }
                base[count] = item
                count &+= 1
            }
        }
        for e in other.others where e !== except { others.append(e) }
    }

    @inline(never)
    private func grow() {
        capacity *= 2
        base = Self.resized(base, to: capacity)
    }

    /// Gives back the room the list did not use (called when the read is done: the list lives until the first
    /// lookup, and `rss_loaded` counts it).
    func finish() {
        guard capacity > count + 256 else { return }
        capacity = count + 256
        base = Self.resized(base, to: capacity)
    }

    /// Hands the entities with a canonical id over with their retains, once: `body` keeps or releases each one.
    func handOver(_ body: (UnsafeBufferPointer<Unmanaged<Entity>>) -> Void) {
        guard !handedOver else { return }
        handedOver = true
        body(UnsafeBufferPointer(start: base, count: count))
    }
}
