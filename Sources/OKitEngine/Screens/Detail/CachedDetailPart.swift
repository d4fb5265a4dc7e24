/// A cached part of a detail screen's snapshot — its title bar, a section, or a cell — kept until a write touches
/// what it read or the screen's state changes (DetailScreen+Snapshot.swift).
///
/// The part is its own subscription (`Subscription.Evaluation.own`): a change that reaches a screen cold in
/// memory finds the flag it sets, the state and the value in one object. When a write marks it stale it reads
/// ahead what its refresh will read (`warm`): this object's lines, the screen, its lists of parts and their
/// first lines. Those misses then overlap, where the refresh met them one after another (`invalidate_10000`,
/// performance.md, fourteenth session).
final class CachedDetailPart<T>: Subscription {
    /// What the part computed last. Not checked for exclusive access at run time (`warm` reads it in place):
    /// it is written only by `evaluateOwn`, after `compute` returned, and read by the screen's snapshot, and
    /// neither runs inside the other's access.
    @exclusivity(unchecked) var computed: T
    /// Whether the part was computed in screen state `state` (edit mode, the selected row: 0-3), kept in the
    /// subscription's first line (`ownState`). A state from 255 up is kept as 255 and is never one the part was
    /// computed in.
    func isIn(_ state: Int) -> Bool { state < 255 && state == Int(ownState) }
    /// Set when the part read nothing (a section without flags or bound texts, a cell of constant texts): it
    /// changes only with the screen's state. Such a part is cancelled (nobody's dependency), and a part in its
    /// screen's lists is cancelled for no other reason, so this is the same flag.
    var constant: Bool { cancelled }
    /// What the part computes: the screen's title bar, section `position.section` or the cell at `position`.
    /// `unowned(unsafe)`: the screen cancels its parts before it goes (`cached`, `cancelSnapshotCache`), a
    /// cancelled subscription never runs and no write marks it stale, so the screen is there whenever this is
    /// read; no reference count is touched (`warm` reads through it while misses overlap, and a weak reference
    /// would give the screen a side table).
    unowned(unsafe) let screen: DetailScreen
    let position: DetailScreen.CellPosition
    let count: (DetailScreen) -> Void
    let compute: (DetailScreen, DetailScreen.CellPosition) throws -> T

    init(_ value: T, state: Int, screen: DetailScreen, position: DetailScreen.CellPosition,
         count: @escaping (DetailScreen) -> Void, compute: @escaping (DetailScreen, DetailScreen.CellPosition) throws -> T) {
        computed = value
        self.screen = screen
        self.position = position
        self.count = count
        self.compute = compute
        super.init(graph: screen.engine.graph)
        ownState = state >= 0 && state < 255 ? UInt8(state) : 255
    }

    /// True while nothing the part read changed and the screen is in the same state.
    func isCurrent(_ state: Int) -> Bool { isIn(state) && (cancelled || !isStale) }

    override func warmMore() {
        // Every line of the value (it is replaced in place).
        withUnsafeBytes(of: &computed) { b in
            var at = 0
            while at < b.count { CacheLines.prefetch(b, at: at); at += 64 }
            CacheLines.prefetch(b, at: b.count - 1)
        }
        // The screen's first lines: prefetched, then its lists of parts read through it (plain loads).
        let sp = UnsafeRawPointer(Unmanaged.passUnretained(screen).toOpaque())
        CacheLines.prefetch(sp)
        CacheLines.prefetch(sp + 64)
        CacheLines.prefetch(sp + 128)
        screen.warmParts()
    }

    override func evaluateOwn() throws -> Value {
        count(screen)
        computed = try compute(screen, position)
        return .null
    }
}
