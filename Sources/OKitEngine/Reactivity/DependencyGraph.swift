/// Who read what: for each dependency key, the subscriptions whose last evaluation read it.
///
/// Readers of a field live on the entity, readers of a collection's membership on the collection and readers of
/// a subscription's value on that subscription (as in MobX, observables know their observers), other keys in a
/// small table. A write looks its readers up in constant time and marks exactly those subscriptions stale: the
/// cost of a change follows the bindings it affects, not the number of bindings alive (OKit walked every
/// controller on every write).
public final class DependencyGraph {
    private var readers: [DependencyKey: [ObjectIdentifier: Subscription]] = [:]
    /// Subscriptions marked stale in the current transaction, to notify after it.
    private var pending: [Subscription] = []
    /// The recorder of the evaluation in progress, if any.
    @exclusivity(unchecked) public internal(set) var recorder: DependencyRecorder?
    /// Number of live (key → reader) edges; for tests.
    @exclusivity(unchecked) public private(set) var edgeCount = 0
    /// Journals of watched collections' membership edits (MembershipJournal.swift).
    var journals: [ObjectIdentifier: [WeakJournal]] = [:]

    public init() {}

    /// Records a read into the evaluation in progress.
    @inline(__always)
    public func record(_ key: DependencyKey) {
        recorder?.record(key)
    }

    /// Records a field read (without building a key when nothing records).
    @inline(__always)
    public func recordField(_ e: Entity, _ slot: Int) {
        if let r = recorder { r.recordField(e, slot) }
    }

    /// Records a read of a collection's membership.
    @inline(__always)
    public func recordMembers(_ c: EntityCollection) {
        if let r = recorder { r.record(.members(c)) }
    }

    /// Runs `body` recording what it reads; nested recordings also count for the outer one.
    public func recording<T>(_ body: () throws -> T) rethrows -> (T, [DependencyKey]) {
        let outer = recorder
        let r = DependencyRecorder()
        recorder = r
        defer {
            recorder = outer
            if let outer { for k in r.keys { outer.record(k) } }
        }
        let v = try body()
        return (v, r.keys)
    }

    /// Creates a subscription and evaluates it once.
    public func subscribe(_ evaluate: @escaping () throws -> Value,
                          onStale: ((Subscription) -> Void)? = nil) -> Subscription {
        let s = Subscription(graph: self, evaluate: evaluate, onStale: onStale)
        reevaluate(s)
        return s
    }

    /// Evaluates a subscription made elsewhere (a binding's, or one that computes its value itself) once.
    @discardableResult
    func subscribe(_ s: Subscription) -> Subscription {
        reevaluate(s)
        return s
    }

    func reevaluate(_ s: Subscription) {
        s.isStale = false
        s.evaluationCount += 1
        var value: Value = .null
        var error: Error?
        // What it reads is its own: an evaluation that reads its value records the subscription
        // (`DependencyKey.derived`), not these keys — unless it read nothing: then it never goes stale, and an
        // edge to it would only keep it alive (a detail screen's constant part was cancelled after its first
        // evaluation, and the outer snapshot's first re-evaluation then detached and freed it: misses on a
        // change that reached a screen for the first time).
        let outer = recorder
        let r = DependencyRecorder()
        recorder = r
        do { value = try s.run() } catch let e { error = e }
        recorder = outer
        let keys = r.keys
        if !keys.isEmpty { outer?.record(.derived(s)) }
        s.store(value, error: error)
        // Most re-evaluations read what they read before: then the edges stay as they are.
        if s.readsEqual(keys) { return }
        detach(s)
        if s.cancelled { return }
        s.reads = keys
        for k in keys { attach(s, k) }
    }

    /// Runs `body` and adds what it read to `s`'s dependencies, keeping those it had: a subscription that follows
    /// changes piece by piece (a list screen's rows) records the reads of a new piece without evaluating it all
    /// again. The recorder's `piece` is set to `piece` (see `DependencyRecorder.readOther`).
    public func extend<T>(_ s: Subscription, piece: Entity?, _ body: (DependencyRecorder) throws -> T) rethrows -> T {
        let outer = recorder
        let r = DependencyRecorder()
        r.piece = piece
        recorder = r
        defer {
            recorder = outer
            if !s.cancelled {
                for k in r.keys where !isAttached(s, k) {
                    s.addRead(k)
                    attach(s, k)
                }
            }
        }
        return try body(r)
    }

    /// Marks `s` up to date without evaluating it (its owner brought what it computed up to date piece by piece).
    public func markFresh(_ s: Subscription) {
        s.isStale = false
    }

    /// Whether `s` already listens to `k`.
    private func isAttached(_ s: Subscription, _ k: DependencyKey) -> Bool {
        switch k {
        case .field(let e, let slot):
            if e.reader0 === s, e.reader0Slot == slot { return true }
            return e.readers.contains { $0.slot == slot && $0.subscription === s }
        case .members(let c):
            return c.readers.contains { $0 === s }
        case .derived(let d):
            return d.derivedReader0 === s || d.moreDerivedReaders.contains { $0 === s }
        default:
            return readers[k]?[ObjectIdentifier(s)] != nil
        }
    }

    private func attach(_ s: Subscription, _ k: DependencyKey) {
        edgeCount += 1
        switch k {
        case .field(let e, let slot):
            if e.reader0 == nil {
                e.reader0 = s
                e.reader0Slot = slot
            } else {
                e.readers.append((slot, s))
            }
        case .members(let c):
            c.readers.append(s)
        case .derived(let d):
            if d.derivedReader0 == nil { d.derivedReader0 = s } else { d.moreDerivedReaders.append(s) }
        default:
            readers[k, default: [:]][ObjectIdentifier(s)] = s
        }
    }

    func detach(_ s: Subscription) {
        s.forEachRead { k in
            edgeCount -= 1
            switch k {
            case .field(let e, let slot):
                if e.reader0 === s, e.reader0Slot == slot {
                    e.reader0 = nil
                    if !e.readers.isEmpty {
                        let next = e.readers.removeFirst()
                        e.reader0 = next.subscription
                        e.reader0Slot = next.slot
                    }
                } else if let i = e.readers.firstIndex(where: { $0.slot == slot && $0.subscription === s }) {
                    e.readers.remove(at: i)
                }
            case .members(let c):
                c.readers.removeAll { $0 === s }
            case .derived(let d):
                if d.derivedReader0 === s {
                    d.derivedReader0 = d.moreDerivedReaders.isEmpty ? nil : d.moreDerivedReaders.removeFirst()
                } else if let i = d.moreDerivedReaders.firstIndex(where: { $0 === s }) {
                    d.moreDerivedReaders.remove(at: i)
                }
            default:
                // In place: a copy taken out of the table shares its storage, so removing from it copied every
                // reader of the key (the locale's are every row of every viewer: quadratic with viewers).
                readers[k]?.removeValue(forKey: ObjectIdentifier(s))
                if readers[k]?.isEmpty == true { readers[k] = nil }
            }
        }
        s.read0 = nil
        s.read1 = nil
        s.manyReads = []
    }

    /// Marks the readers of `key` stale; they are notified when the transaction ends.
    public func changed(_ key: DependencyKey) {
        switch key {
        case .field(let e, let slot):
            e.warmReaders()
            if let r0 = e.reader0, e.reader0Slot == slot { markStale(r0, key) }
            if e.readers.isEmpty { return }
            for r in e.readers where r.slot == slot { markStale(r.subscription, key) }
        case .members(let c):
            for s in c.readers { markStale(s, key) }
        case .derived(let d):
            if let r0 = d.derivedReader0 { markStale(r0, key) }
            if d.moreDerivedReaders.isEmpty { return }
            for s in d.moreDerivedReaders { markStale(s, key) }
        default:
            guard let set = readers[key] else { return }
            for s in set.values { markStale(s, key) }
        }
    }

    @inline(__always)
    private func markStale(_ s: Subscription, _ key: DependencyKey) {
        if let observe = s.keyObserver { observe(key) }
        guard !s.isStale else { return }
        s.isStale = true
        s.warm()
        if !s.notifyPending { s.notifyPending = true; pending.append(s) }
        if s.derivedReader0 != nil { changed(.derived(s)) }   // the first reader is inline: none, no others
    }

    /// Calls `onStale` of every subscription made stale since the last flush. Called by the engine
    /// when the outermost transaction ends.
    func flush() {
        while !pending.isEmpty {
            let batch = pending
            pending = []
            for s in batch {
                s.notifyPending = false
                if !s.cancelled { s.onStale?(s) }
            }
        }
    }
}
