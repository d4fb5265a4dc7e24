/// The snapshot a shell shows, kept live: it records what computing the snapshot read (through the screens' own
/// cached evaluations, `DependencyKey.derived`) and calls `onStale` once, after the transaction, when a write —
/// by any shell, a timer, autosave or a server's sync — changed any of it. A front end that pushes updates (the
/// web's live updates) tells exactly the people whose visible screen went stale.
///
/// Navigation of the watched shell is not a write: the front end that moved it asks `snapshot()` anew.
public final class ScreenWatch {
    public let shell: AppShell
    /// Lists show this window of their rows.
    public var offset: Int
    public var limit: Int
    /// Called after the transaction that made the snapshot stale (once until `snapshot()` is asked again).
    public var onStale: (() -> Void)?
    private var subscription: Subscription?
    private var last: Result<Snapshot, Error>?
    /// The list window shared with other viewers that the last snapshot shows (AppShell+SharedWindow.swift), held
    /// here: the engine keeps it only while a viewer does.
    private var window: SharedListWindow?

    init(shell: AppShell, offset: Int, limit: Int) {
        self.shell = shell
        self.offset = offset
        self.limit = limit
    }

    /// True when something the last snapshot read has changed since.
    public var isStale: Bool { subscription?.isStale ?? true }

    /// The current snapshot: the cached one while nothing it read changed, else computed again (recording what
    /// it reads). `fresh` computes it anyway (after navigation).
    public func snapshot(fresh: Bool = false) throws -> Snapshot {
        if fresh || subscription == nil || last == nil {
            subscription?.cancel()
            subscription = shell.engine.graph.subscribe({ [unowned self] in
                last = Result { try computeSnapshot() }
                return .null
            }, onStale: { [weak self] _ in self?.onStale?() })
        } else {
            _ = subscription?.value
        }
        guard let last else { throw ShellError.notStarted }
        return try last.get()
    }

    /// The shell's snapshot, with the list window every viewer in the list's first state shares when it shows
    /// one, else its own.
    private func computeSnapshot() throws -> Snapshot {
        // The window shown before is held until this one is chosen: a single viewer's is not made anew each time.
        let shared = try shell.snapshotSharingWindow(offset: offset, limit: limit)
        window = shared?.window
        return try shared?.snapshot ?? shell.snapshot(offset: offset, limit: limit)
    }

    /// True when the last snapshot shows a list window shared with other viewers (for tests).
    public var showsSharedWindow: Bool { window != nil }

    /// Stops watching.
    public func cancel() {
        subscription?.cancel()
        subscription = nil
        last = nil
        window = nil
    }
}

extension AppSession {
    /// A live snapshot of one of the session's shells (see `ScreenWatch`).
    public func watch(_ shell: AppShell, offset: Int = 0, limit: Int = 200) -> ScreenWatch {
        ScreenWatch(shell: shell, offset: offset, limit: limit)
    }
}
