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
    /// The watches alike this one that it follows (ScreenWatchGroup.swift): the snapshot is theirs, computed once.
    private(set) var group: ScreenWatchGroup?
    /// How many snapshots this watch computed on its own (the count in its `revision`).
    private var ownComputations = 0

    /// Which snapshot the watch gave last: equal revisions are the same snapshot. A group's next revision always
    /// differs from the one before (`follows`); for the others, a front end that must know compares snapshots.
    public struct Revision: Hashable, Sendable {
        let source: Int
        let number: Int
        let changesOnly: Bool

        /// True when this is the revision right after `before` of the same group: a different snapshot.
        public func follows(_ before: Revision) -> Bool {
            changesOnly && source == before.source && number == before.number + 1
        }
    }

    /// The revision of the snapshot `snapshot()` gave last.
    public private(set) var revision: Revision
    /// This watch's own revisions' source (`SharedParts.nextSerial`: never another watch's or group's).
    private let serial: Int

    init(shell: AppShell, offset: Int, limit: Int) {
        self.shell = shell
        self.offset = offset
        self.limit = limit
        serial = shell.engine.sharedParts.nextSerial()
        revision = Revision(source: serial, number: 0, changesOnly: false)
    }

    /// True when something the last snapshot read has changed since.
    public var isStale: Bool { subscription?.isStale ?? true }

    /// The current snapshot: the cached one while nothing it read changed, else computed again (recording what
    /// it reads) — once for all the watches alike this one (`ScreenWatchGroup`). `fresh` computes it anyway (after
    /// navigation).
    public func snapshot(fresh: Bool = false) throws -> Snapshot {
        if let group, fresh || !group.admits(self) { leaveGroup() }
        let due = fresh || subscription == nil || last == nil || subscription?.isStale == true
        if group == nil, due, let alike = ScreenWatchGroup.alike(self) {
            follow(alike)
        } else if fresh || subscription == nil || last == nil {
            subscribeOwn()
        } else {
            _ = subscription?.value
        }
        if let group {
            revision = Revision(source: group.serial, number: group.revision, changesOnly: true)
        } else {
            revision = Revision(source: serial, number: ownComputations, changesOnly: false)
        }
        guard let last else { throw ShellError.notStarted }
        return try last.get()
    }

    private func subscribeOwn() {
        subscription?.cancel()
        subscription = shell.engine.graph.subscribe({ [unowned self] in
            ownComputations += 1
            last = Result { try computeSnapshot() }
            return .null
        }, onStale: { [weak self] _ in self?.onStale?() })
    }

    /// Follows `group`: this watch's subscription reads the group's snapshot, and goes stale with it.
    private func follow(_ group: ScreenWatchGroup) {
        subscription?.cancel()
        self.group = group
        window = group.window
        group.join(self)
        if let list = shell.top as? ListScreen, list.keepsOwnWindow { list.dropOwnWindow() }
        subscription = shell.engine.graph.subscribe({ [unowned self, unowned group] in
            let shared = Result { try group.snapshot() }
            if case .success(let s) = shared { shell.adoptTheme(of: s) }
            last = shared
            return .null
        }, onStale: { [weak self] _ in self?.onStale?() })
    }

    private func leaveGroup() {
        guard let group else { return }
        self.group = nil
        subscription?.cancel()
        subscription = nil
        group.leave(self)
    }

    /// The shell's snapshot, with the list window every viewer in the list's first state shares when it shows
    /// one, else its own.
    private func computeSnapshot() throws -> Snapshot {
        shell.recordShownEntries()
        // The window shown before is held until this one is chosen: a single viewer's is not made anew each time.
        let shared = try shell.snapshotSharingWindow(offset: offset, limit: limit)
        window = shared?.window
        return try shared?.snapshot ?? shell.snapshot(offset: offset, limit: limit)
    }

    /// The keys the last snapshot read, followed through the evaluations it read to what they read (about
    /// `budget` of them, `Subscription.leafReads`): a front end keeps watching the place this snapshot showed after
    /// its shell moved on (another browser tab still shows it), without the screens that computed it.
    public func shownKeys(budget: Int = 4096) -> [DependencyKey] {
        subscription?.leafReads(budget: budget) ?? []
    }

    /// True when the last snapshot is the one of a group of alike watches (for tests).
    public var followsGroup: Bool { group != nil }

    /// True when the last snapshot shows a list window shared with other viewers (for tests).
    public var showsSharedWindow: Bool { window != nil }

    /// Stops watching.
    public func cancel() {
        leaveGroup()
        subscription?.cancel()
        subscription = nil
        last = nil
        window = nil
    }
}

extension AppShell {
    /// Records, in the snapshot's computation running now, the ids of the entries the shell's screens were opened
    /// with (`DependencyKey.id`): a deletion of one — by another session, or another process's store applied here —
    /// makes the snapshot stale, so its viewers are told at once and land on the nearest screen that still exists.
    /// (A detail screen read only its entry's fields: a deletion by another process left its viewers' pages as they
    /// were, and their re-GETs were answered with the deleted entry.)
    func recordShownEntries() {
        let here = location
        for step in here.stack + here.presented.joined() {
            if let id = step.entity { engine.graph.record(.id(id)) }
        }
    }
}

extension AppSession {
    /// A live snapshot of one of the session's shells (see `ScreenWatch`).
    public func watch(_ shell: AppShell, offset: Int = 0, limit: Int = 200) -> ScreenWatch {
        ScreenWatch(shell: shell, offset: offset, limit: limit)
    }
}
