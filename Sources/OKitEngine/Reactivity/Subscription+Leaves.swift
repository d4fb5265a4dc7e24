/// What a subscription depends on through the evaluations it read (`DependencyKey.derived`), down to the keys
/// they read themselves: a watcher that outlives those evaluations (a screen's parts go when the screen closes)
/// subscribes to these and is still told of the writes that would have reached it.
extension Subscription {
    /// The keys under this subscription: each `.derived` evaluation it read is followed to what it read, until
    /// about `budget` keys are gathered; an evaluation that would take more than what is left of the budget is kept
    /// as itself (`.derived`, told while it lives). Each key once.
    public func leafReads(budget: Int) -> [DependencyKey] {
        var out: [DependencyKey] = []
        var seen = Set<DependencyKey>()
        var followed = Set<ObjectIdentifier>([ObjectIdentifier(self)])
        var todo: [Subscription] = [self]
        while let s = todo.popLast() {
            s.forEachRead { key in
                if case .derived(let d) = key, !d.cancelled {
                    let reads = d.read0 == nil ? d.manyReads.count : (d.read1 == nil ? 1 : 2)
                    if out.count + reads <= budget {
                        if followed.insert(ObjectIdentifier(d)).inserted { todo.append(d) }
                        return
                    }
                } else if case .derived = key {
                    return                                  // cancelled: it tells no one any more
                }
                if seen.insert(key).inserted { out.append(key) }
            }
        }
        return out
    }
}
