/// Who read what: for each dependency key, the subscriptions whose last evaluation read it.
///
/// A write looks up its key and marks exactly those subscriptions stale: the cost of a change follows the
/// bindings it affects, not the number of bindings alive (OKit walked every controller on every write).
public final class DependencyGraph {
    private var readers: [DependencyKey: [ObjectIdentifier: Subscription]] = [:]
    /// Subscriptions marked stale in the current transaction, to notify after it.
    private var pending: [Subscription] = []
    /// The recorder of the evaluation in progress, if any.
    public internal(set) var recorder: DependencyRecorder?

    public init() {}

    /// Number of live (key → reader) edges; for tests.
    public var edgeCount: Int { readers.values.reduce(0) { $0 + $1.count } }

    /// Records a read into the evaluation in progress.
    @inline(__always)
    public func record(_ key: DependencyKey) {
        recorder?.record(key)
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

    func reevaluate(_ s: Subscription) {
        s.isStale = false
        s.evaluationCount += 1
        var value: Value = .null
        var error: Error?
        let (_, keys) = recording {
            do { value = try s.evaluate() } catch let e { error = e }
        }
        s.store(value, error: error)
        // Most re-evaluations read what they read before: then the edges stay as they are.
        if keys == s.reads, !s.reads.isEmpty || keys.isEmpty { return }
        detach(s)
        s.reads = keys
        if s.cancelled { return }
        let oid = ObjectIdentifier(s)
        for k in keys { readers[k, default: [:]][oid] = s }
    }

    func detach(_ s: Subscription) {
        let oid = ObjectIdentifier(s)
        for k in s.reads {
            if var set = readers[k] {
                set.removeValue(forKey: oid)
                readers[k] = set.isEmpty ? nil : set
            }
        }
        s.reads = []
    }

    /// Marks the readers of `key` stale; they are notified when the transaction ends.
    public func changed(_ key: DependencyKey) {
        guard let set = readers[key] else { return }
        for s in set.values where !s.isStale {
            s.isStale = true
            if !s.notifyPending { s.notifyPending = true; pending.append(s) }
        }
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
