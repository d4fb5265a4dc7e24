/// The entities of the rows a load read, each held once until the entity that owns it claims that hold
/// (`claim`): attaching a child moves the reference into its parent's collection instead of retaining the
/// child and releasing it again when the rows go. A retain is an atomic instruction that waits for the child's
/// line, long out of the cache when a load of 300,000 rows attaches it, and the release met it again at the end
/// (the retain alone was a sixth of attaching). Entities nobody claimed (rows without a parent read) are released with the rows.
package final class RelationalReadEntities {
    // Unchecked: written for every row read; each access was checked for exclusivity at run time (a tenth of
    // reading a row). Only the reader that owns the rows touches them, and no access outlives a method.
    @exclusivity(unchecked) private var items: [Unmanaged<Entity>] = []
    @exclusivity(unchecked) private var claimed: [Bool] = []

    package var count: Int { items.count }

    package func reserveCapacity(_ n: Int) {
        items.reserveCapacity(n)
        claimed.reserveCapacity(n)
    }

    package func append(_ e: Entity) {
        items.append(.passRetained(e))
        claimed.append(false)
    }

    /// Row `i`'s entity, the hold staying here.
    package subscript(i: Int) -> Entity { items[i].takeUnretainedValue() }

    /// Row `i`'s entity with the hold this kept: the caller's reference replaces it. A row is claimed once.
    package func claim(_ i: Int) -> Entity {
        precondition(!claimed[i], "a read row's entity was claimed twice")
        claimed[i] = true
        return items[i].takeRetainedValue()
    }

    deinit {
        for i in items.indices where !claimed[i] { items[i].release() }
    }
}
