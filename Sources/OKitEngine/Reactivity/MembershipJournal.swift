/// What a collection's membership did, for a watcher that follows it edit by edit instead of reading it all again
/// (a list screen over 1,000,000 rows moves one row per added book, issue 16).
public enum MembershipEdit {
    /// `value` was put at `index`.
    case inserted(Value, index: Int)
    /// `value` was taken out (it was at `index`).
    case removed(Value, index: Int)
    /// The order changed (a move, or its undo).
    case reordered
}

/// The edits of one watched collection since its watcher last drained them, in order.
///
/// Bounded: past `limit` edits the journal only says it overflowed, and the watcher reads the collection again
/// (one full pass costs less than replaying that many edits one by one).
public final class MembershipJournal {
    public let collection: EntityCollection
    public private(set) var edits: [MembershipEdit] = []
    /// More edits happened than the journal keeps: read the collection again.
    public private(set) var overflowed = false
    let limit: Int

    init(collection: EntityCollection, limit: Int) {
        self.collection = collection
        self.limit = limit
    }

    func append(_ edit: MembershipEdit) {
        if overflowed { return }
        if edits.count >= limit {
            overflowed = true
            edits = []
            return
        }
        edits.append(edit)
    }

    /// Hands over the edits since the last call and starts again.
    public func drain() -> (edits: [MembershipEdit], overflowed: Bool) {
        defer { edits = []; overflowed = false }
        return (edits, overflowed)
    }
}

/// A weak hold on a journal: a watcher that goes away stops its journal.
struct WeakJournal {
    weak var journal: MembershipJournal?
}

extension DependencyGraph {
    /// Starts a journal of `collection`'s membership edits (kept while the caller holds it).
    public func watchMembers(_ collection: EntityCollection, limit: Int = 256) -> MembershipJournal {
        let j = MembershipJournal(collection: collection, limit: limit)
        let key = ObjectIdentifier(collection)
        var list = journals[key, default: []].filter { $0.journal != nil }
        list.append(WeakJournal(journal: j))
        journals[key] = list
        return j
    }

    /// Marks the membership readers of `c` stale and tells its journals what happened.
    public func changedMembers(_ c: EntityCollection, _ edit: MembershipEdit) {
        if !journals.isEmpty, let list = journals[ObjectIdentifier(c)] {
            var live = 0
            for w in list { if let j = w.journal { j.append(edit); live += 1 } }
            if live == 0 { journals[ObjectIdentifier(c)] = nil }
        }
        changed(.members(c))
    }
}
