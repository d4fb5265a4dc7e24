/// A live evaluation: the engine knows what it read and marks it stale when any of that changes.
///
/// Re-evaluation is lazy: reading `value` re-evaluates once if stale. `onStale` is called after the
/// transaction that made it stale, once per transaction, never in the middle of one.
public final class Subscription {
    /// True when something it read changed since it was last evaluated.
    public internal(set) var isStale = true
    /// How many times it was evaluated (for tests and benchmarks).
    public internal(set) var evaluationCount = 0
    /// Called (after the transaction) when the subscription went stale.
    public var onStale: ((Subscription) -> Void)?
    /// The error of the last evaluation, if it failed (the value is then nil).
    public private(set) var lastError: Error?

    let evaluate: () throws -> Value
    var reads: [DependencyKey] = []
    /// The engine's graph (unowned: a subscription is used while its engine lives).
    unowned var graph: DependencyGraph?
    var cached: Value = .null
    var cancelled = false
    var notifyPending = false

    init(graph: DependencyGraph, evaluate: @escaping () throws -> Value, onStale: ((Subscription) -> Void)?) {
        self.graph = graph
        self.evaluate = evaluate
        self.onStale = onStale
    }

    /// The current value, re-evaluated first if stale.
    public var value: Value {
        if isStale, !cancelled, let g = graph { g.reevaluate(self) }
        return cached
    }

    /// What the last evaluation read.
    public var dependencies: [DependencyKey] { reads }

    /// Stops tracking: the subscription never goes stale again.
    public func cancel() {
        guard !cancelled else { return }
        cancelled = true
        graph?.detach(self)
    }

    func store(_ v: Value, error: Error?) {
        cached = v
        lastError = error
    }
}
