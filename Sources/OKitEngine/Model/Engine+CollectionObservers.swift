/// A collection field's `didSet` (OKit's array property observer: an element added, removed or moved, or the whole
/// collection assigned, is a change of the field — OKit's lists write the whole array back, `setData`, and its
/// `add`/`remove` change it in place, both of which call the property's observer). It ran for no collection change.
extension Engine {
    /// Runs `change` (one operation on `c`'s members) and then, once for the outermost operation (a `clear` or a
    /// whole assignment is one, however many elements it moves), the owning field's `didSet` with the members as
    /// they were before (a list). Nothing is copied for a field without a `didSet`.
    func observingMembers(of c: EntityCollection, _ change: () throws -> Void) throws {
        guard let owner = c.owner, c.slot >= 0, c.slot < owner.type.fields.count,
              let didSet = owner.type.fields[c.slot].didSet, !membersObserved.contains(ObjectIdentifier(c)) else {
            return try change()
        }
        let before = Value.list(Array(c.items))
        let key = ObjectIdentifier(c)
        membersObserved.insert(key)
        do {
            try transaction {
                try change()
                membersObserved.remove(key)
                try observe(owner, c.slot) { try didSet(owner, before) }
            }
        } catch {
            membersObserved.remove(key)
            throw error
        }
    }
}
