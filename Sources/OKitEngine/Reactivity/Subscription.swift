/// A live evaluation: the engine knows what it read and marks it stale when any of that changes.
///
/// Re-evaluation is lazy: reading `value` re-evaluates once if stale. `onStale` is called after the
/// transaction that made it stale, once per transaction, never in the middle of one.
///
/// Not final only for the engine's own subclasses that compute their value themselves (`Evaluation.own`: a detail
/// screen's cached part is its subscription, one object where a change reaching the screen used to chase two);
/// it cannot be subclassed outside the engine.
public class Subscription {
    // The fields a write touches when it marks the subscription stale come first, in one cache line (a change
    // reaches subscriptions that are cold in memory: each line more is a miss more). Without dynamic
    // exclusivity checks: the engine is single-threaded and no access to them overlaps another.
    /// True when something it read changed since it was last evaluated.
    @exclusivity(unchecked) public internal(set) var isStale = true
    @exclusivity(unchecked) var cancelled = false
    @exclusivity(unchecked) var notifyPending = false
    /// A subclass's state, in the byte after the flags (a detail part's screen state: `CachedDetailPart`), so
    /// that whether a part is current is read from this first line.
    @exclusivity(unchecked) var ownState: UInt8 = 0
    /// How many times it was evaluated, in the four bytes beside the flags (`evaluationCount`).
    private var evaluations: UInt32 = 0
    /// Called with each changed key this subscription read, stale or not (before `onStale`, during the
    /// transaction): an owner that updates piece by piece learns which piece changed.
    @exclusivity(unchecked) public var keyObserver: ((DependencyKey) -> Void)?
    /// The subscriptions whose last evaluation read this one's value (`DependencyKey.derived` edges), kept here
    /// as a field's readers are kept on its entity: going stale reaches them without a table lookup. The first
    /// inline (most parts are read by one snapshot), the others in `moreDerivedReaders`.
    @exclusivity(unchecked) var derivedReader0: Subscription?
    @exclusivity(unchecked) var moreDerivedReaders: [Subscription] = []
    /// Called (after the transaction) when the subscription went stale.
    public var onStale: ((Subscription) -> Void)?
    /// The engine's graph (unowned: a subscription is used while its engine lives).
    unowned var graph: DependencyGraph?

    /// How many times it was evaluated (for tests and benchmarks).
    public internal(set) var evaluationCount: Int {
        get { Int(evaluations) }
        set { evaluations = UInt32(truncatingIfNeeded: newValue) }
    }
    /// The error of the last evaluation, if it failed (the value is then nil).
    @exclusivity(unchecked) public private(set) final var lastError: Error?

    /// What it evaluates, in one field of 17 bytes (six fields side by side took 64: a change reaches
    /// subscriptions that are cold in memory, and each line of one more is a miss more).
    let evaluation: Evaluation

    enum Evaluation {
        /// A closure (`DependencyGraph.subscribe(_:onStale:)`).
        case closure(() throws -> Value)
        /// A subclass that computes the value itself (`evaluateOwn`: a screen's cached part): no closure context
        /// to allocate and chase.
        case own
        /// A binding on a context, evaluated directly (no closure to chase on the hot path).
        case binding(BindingTarget)
    }

    /// A binding subscription's binding, context and mode, in an object of their own (the case stays small).
    final class BindingTarget {
        let binding: Binding
        let context: Entity?
        let mode: EvaluationMode
        /// Unowned: a subscription is used while its engine lives.
        unowned let engine: Engine

        init(binding: Binding, context: Entity?, mode: EvaluationMode, engine: Engine) {
            self.binding = binding
            self.context = context
            self.mode = mode
            self.engine = engine
        }
    }
    /// What the last evaluation read: up to two keys inline (most bindings read one or two things), or all of
    /// them in `manyReads` (then `read0` and `read1` are nil) — kept as recorded, never copied (a list's rows read
    /// 100,000 keys).
    @exclusivity(unchecked) final var read0: DependencyKey?
    @exclusivity(unchecked) final var read1: DependencyKey?
    var manyReads: [DependencyKey] = []
    /// True when the last evaluation read nothing.
    var readsNothing: Bool { read0 == nil && manyReads.isEmpty }
    var reads: [DependencyKey] {
        get {
            guard let r0 = read0 else { return manyReads }
            return read1.map { [r0, $0] } ?? [r0]
        }
        set {
            switch newValue.count {
            case 1: read0 = newValue[0]; read1 = nil; manyReads = []
            case 2: read0 = newValue[0]; read1 = newValue[1]; manyReads = []
            default: read0 = nil; read1 = nil; manyReads = newValue
            }
        }
    }

    /// Adds one key to what was read.
    func addRead(_ k: DependencyKey) {
        if read0 == nil, manyReads.isEmpty { read0 = k; return }
        if let r0 = read0 {
            if read1 == nil { read1 = k; return }
            manyReads = [r0]
            if let r1 = read1 { manyReads.append(r1) }
            read0 = nil
            read1 = nil
        }
        manyReads.append(k)
    }

    /// Calls `body` for each key read, without copying them.
    @inline(__always)
    func forEachRead(_ body: (DependencyKey) -> Void) {
        if let r = read0 {
            body(r)
            if let r1 = read1 { body(r1) }
            return
        }
        for k in manyReads { body(k) }
    }
    @exclusivity(unchecked) final var cached: Value = .null
    /// All of them (for tests).
    var derivedReaders: [Subscription] { (derivedReader0.map { [$0] } ?? []) + moreDerivedReaders }

    init(graph: DependencyGraph, evaluate: @escaping () throws -> Value, onStale: ((Subscription) -> Void)?) {
        self.graph = graph
        evaluation = .closure(evaluate)
        self.onStale = onStale
    }

    /// For a subclass that computes its value itself (`evaluateOwn`).
    init(graph: DependencyGraph) {
        self.graph = graph
        evaluation = .own
        onStale = nil
    }

    init(graph: DependencyGraph, engine: Engine, binding: Binding, context: Entity?, mode: EvaluationMode,
         onStale: ((Subscription) -> Void)?) {
        self.graph = graph
        evaluation = .binding(BindingTarget(binding: binding, context: context, mode: mode, engine: engine))
        self.onStale = onStale
    }

    func run() throws -> Value {
        switch evaluation {
        case .binding(let t): return try t.engine.evaluate(t.binding, t.context, mode: t.mode)
        case .own: return try evaluateOwn()
        case .closure(let evaluate): return try evaluate()
        }
    }

    /// Prefetches each cache line after the first that bringing the subscription up to date reads (the first
    /// is in the cache: marking it stale wrote there). Called when a write marks it stale, before the refresh:
    /// the misses of every subscription the write reached then overlap, where the refresh met them one after
    /// another. Prefetches (`CacheLines`) where nothing is read through the line, plain loads where a pointer is;
    /// never a retain (an atomic instruction would wait for each miss in turn).
    /// The fields read are those a re-evaluation reads after the first line (`lastError`, `read0`, `read1` and
    /// `cached` are not checked for exclusive access at run time for it: none is accessed while another access
    /// to it lasts).
    func warm() {
        withUnsafeBytes(of: &lastError) { CacheLines.prefetch($0, at: 0) }
        withUnsafeBytes(of: &read0) { CacheLines.prefetch($0, at: 0) }
        withUnsafeBytes(of: &read1) { CacheLines.prefetch($0, at: $0.count - 1) }
        withUnsafeBytes(of: &cached) { CacheLines.prefetch($0, at: $0.count - 1) }
        warmMore()
    }

    /// More lines for `warm` to prefetch (a subclass's own fields and what they point to).
    func warmMore() {}

    /// Prefetches the first line of a subscription, through its address (for `warm`: no retain).
    @inline(__always)
    static func warmFirstLine(_ bits: UInt) {
        guard let p = UnsafeRawPointer(bitPattern: bits) else { return }
        CacheLines.prefetch(p + 16)
    }

    /// What an `.own` subscription computes (overridden by its subclass).
    func evaluateOwn() throws -> Value { .null }

    /// Whether `keys` are exactly what the last evaluation read.
    func readsEqual(_ keys: [DependencyKey]) -> Bool {
        if let r = read0 {
            if let r1 = read1 { return keys.count == 2 && keys[0] == r && keys[1] == r1 }
            return keys.count == 1 && keys[0] == r
        }
        return keys.count == manyReads.count && keys.elementsEqual(manyReads)
    }

    /// The current value, re-evaluated first if stale.
    /// Read inside another evaluation, the subscription is recorded as one of its dependencies (not what it read
    /// itself): the outer evaluation goes stale when this one does.
    public var value: Value {
        if let g = graph, let r = g.recorder {
            r.record(.derived(self))
        }
        if isStale, !cancelled, let g = graph { g.reevaluate(self) }
        return cached
    }

    /// Records this subscription into the evaluation in progress without reading its value: a cache that reuses
    /// what the subscription computed (a screen's rows) calls it, so that an outer evaluation (a front end's live
    /// snapshot, `ScreenWatch`) still goes stale when this one does.
    @inline(__always)
    public func touch() {
        if let g = graph, let r = g.recorder {
            r.record(.derived(self))
        }
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
