/// A collection field's `didSet` (OKit's array property observer: an element added, removed or moved, or the whole
/// collection assigned, is a change of the field — OKit's lists write the whole array back, `setData`, and its
/// `add`/`remove` change it in place, both of which call the property's observer). It ran for no collection change.
extension Engine {
    /// Runs `change` (one operation on `c`'s members) and then, once for the outermost operation (a `clear` or a
    /// whole assignment is one, however many elements it moves), the owning field's `didSet` with the members as
    /// they were before (a list). Nothing is copied for a field without a `didSet`. `silent`: the operation runs no
    /// observer, and neither do the operations inside it (an entity made with its members, as a Swift initializer
    /// runs no property observer).
    func observingMembers(of c: EntityCollection, silent: Bool = false, _ change: () throws -> Void) throws {
        let key = ObjectIdentifier(c)
        guard !membersObserved.contains(key) else { return try change() }
        let didSet = silent ? nil : c.owner.flatMap { o in c.slot >= 0 && c.slot < o.type.fields.count ? o.type.fields[c.slot].didSet : nil }
        guard silent || didSet != nil else { return try change() }
        membersObserved.insert(key)
        defer { membersObserved.remove(key) }
        guard let didSet, let owner = c.owner else { return try change() }
        let before = Value.list(Array(c.items))
        try transaction {
            try change()
            try observe(owner, c.slot) { try didSet(owner, before) }
        }
    }
}
