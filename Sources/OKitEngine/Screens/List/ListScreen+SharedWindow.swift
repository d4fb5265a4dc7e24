/// One window of a list's rows for every viewer in the list's first state (issue 39 item 2): after a write seen by
/// a thousand viewers of the books, each viewer's live snapshot computed its own window of 50 row snapshots and
/// its header, a thousand times the same. A screen that shares its keeper (ListScreen+Sharing.swift) and shows
/// what the keeper itself would show — no search text, the scope "All", not in edit mode, from the first row —
/// takes the keeper's window instead: made once per change, by the first viewer who asks after it, and read by
/// the others as it is.
///
/// Nothing of one person's is in it: the keeper is a screen of no shell, never searched, scoped or put in edit
/// mode, so its window is what any viewer in the first state computes for themselves. A viewer with a search, a
/// scope, edit mode or another offset computes its own, as before.
final class SharedListWindow {
    let keeper: ListScreen
    let offset: Int
    let limit: Int
    /// Computes the keeper's window, recording what it reads (the keeper's rows, row snapshots and header):
    /// a write to any of it makes it stale, and every viewer's snapshot that read it with it.
    private var subscription: Subscription?
    private var last: Result<ScreenSnapshot, Error>?
    /// How many times the window was computed (for tests: once per change, whatever the number of viewers).
    private(set) var computations = 0

    init(keeper: ListScreen, offset: Int, limit: Int) {
        self.keeper = keeper
        self.offset = offset
        self.limit = limit
    }

    /// The window's snapshot, computed again first when something it read changed. Read inside a viewer's live
    /// snapshot (`ScreenWatch`), the window is recorded as what that snapshot depends on.
    func snapshot() throws -> ScreenSnapshot {
        if let subscription, !subscription.cancelled {
            _ = subscription.value
        } else {
            subscription = keeper.engine.graph.subscribe({ [unowned self] in
                self.computations += 1
                self.last = Result { try self.keeper.snapshot(offset: self.offset, limit: self.limit) }
                return .null
            })
        }
        guard let last else { throw ShellError.notStarted }
        return try last.get()
    }

    deinit { subscription?.cancel() }
}

/// Which shared window: the keeper's, at an offset and a limit.
struct SharedListWindowKey: Hashable {
    let keeper: ObjectIdentifier
    let offset: Int
    let limit: Int
}

extension ListScreen {
    /// True when this screen shows what its keeper shows: it shares a keeper, and has no search text (not even
    /// blanks: the search box shows them), the scope "All" and edit mode off.
    var showsKeepersWindow: Bool { keeper != nil && searchText.isEmpty && scopeIndex == 0 && !editing }

    /// The keeper's window for this screen's rows from `offset`, made when there is none; nil when this screen's
    /// state is its own (`showsKeepersWindow`) or the window does not start at the first row. The engine's
    /// `SharedParts` keeps it weakly: the viewers that read it hold it (`ScreenWatch`).
    func sharedWindow(offset: Int, limit: Int) -> SharedListWindow? {
        guard offset == 0, let keeper, showsKeepersWindow else { return nil }
        let key = SharedListWindowKey(keeper: ObjectIdentifier(keeper), offset: offset, limit: limit)
        if let window = engine.sharedParts.part(for: key) as? SharedListWindow, window.keeper === keeper { return window }
        let window = SharedListWindow(keeper: keeper, offset: offset, limit: limit)
        engine.sharedParts.keep(window, for: key)
        return window
    }

    /// True when this screen keeps a window of its own (row snapshots, header, section lines, footer).
    var keepsOwnWindow: Bool { !rowCache.isEmpty || headerCache != nil || !sectionCache.isEmpty || footerCache != nil }

    /// Forgets this screen's own window — it shows the shared one now — so that its row snapshots stop
    /// listening to writes and their memory goes. A search or edit mode later computes them again.
    func dropOwnWindow() {
        for (_, c) in rowCache { c.subscription?.cancel() }
        rowCache = [:]
        headerCache?.subscription?.cancel()
        headerCache = nil
        for (_, c) in sectionCache { c.subscription?.cancel() }
        sectionCache = [:]
        footerCache?.subscription?.cancel()
        footerCache = nil
    }
}
