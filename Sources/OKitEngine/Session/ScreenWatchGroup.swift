/// Live snapshots shared by shells that show the same thing (issue 39 item 2). After a write seen by a thousand
/// viewers of one list, each viewer's live snapshot (`ScreenWatch`) was computed again: the shell's own part, a copy
/// of the shared list window and, in the front end, its comparison with the page shown before — a thousand times
/// the same. Watches whose shells are alike (`ShellLikeness`) now follow one group: its snapshot is computed once
/// per change with one of their shells, and each watch's own subscription reads it, so each is still told of the
/// next write that changes what it shows — and only of those.
///
/// Alike means nothing of one person's is in the snapshot: the top screen shows its keeper's window (no search,
/// scope, edit mode or other offset: `ListScreen.showsKeepersWindow`), nothing is over it (no alert, help text,
/// open menu, presented screen, list being opened or cover), and what the shell's own part shows — the tab, the
/// depth, the tabs' first screens and their contexts, the theme chosen for the session — is the same. A watch checks
/// it each time it is asked (`admits`) and leaves the group as soon as its shell differs; a fresh snapshot (after
/// navigation) leaves it too, and joins the group of the new place if there is one.
final class ScreenWatchGroup {
    let likeness: ShellLikeness
    /// The source of its revisions (`ScreenWatch.Revision`).
    let serial: Int
    /// The shared window the group's snapshots show (held here: the engine keeps it only while someone does).
    let window: SharedListWindow
    /// The tabs' first screens' contexts, held so that no other entity takes their identity while the group lives.
    private let contexts: [Entity?]
    /// The watches that follow the group (weakly: a watch holds its group); the first alike one computes.
    private var members: [WeakWatch] = []
    /// How many members the list may hold before the gone ones are swept: twice the live ones at the last sweep,
    /// so that ten thousand viewers joining one by one do not each visit every member.
    private var sweepAt = 16
    private var subscription: Subscription?
    private var last: Result<Snapshot, Error>?
    /// The shell the last snapshot was computed with: its reads are the group's dependencies.
    private weak var computedWith: AppShell?
    /// Bumped each time the group's snapshot differs from the one before it (one comparison per change, made
    /// here once instead of by each viewer: `ScreenWatch.Revision`).
    private(set) var revision = 0
    /// How many times the snapshot was computed (for tests: once per change, whatever the number of members).
    private(set) var computations = 0

    private final class WeakWatch {
        weak var watch: ScreenWatch?
        init(_ watch: ScreenWatch) { self.watch = watch }
    }

    init(likeness: ShellLikeness, window: SharedListWindow, contexts: [Entity?], serial: Int) {
        self.likeness = likeness
        self.serial = serial
        self.window = window
        self.contexts = contexts
    }

    deinit { subscription?.cancel() }

    /// The group for a watch's shell as it is now: the one kept for its likeness, else a new one (kept weakly by the
    /// engine). Nil when the shell shows something of its own.
    static func alike(_ watch: ScreenWatch) -> ScreenWatchGroup? {
        let shell = watch.shell
        guard let (likeness, window, contexts) = shell.likeness(offset: watch.offset, limit: watch.limit) else { return nil }
        let parts = shell.engine.sharedParts
        if let group = parts.part(for: likeness) as? ScreenWatchGroup, group.window === window { return group }
        let group = ScreenWatchGroup(likeness: likeness, window: window, contexts: contexts, serial: parts.nextSerial())
        parts.keep(group, for: likeness)
        return group
    }

    /// True while `watch`'s shell is alike the group's.
    func admits(_ watch: ScreenWatch) -> Bool {
        guard let (likeness, window, _) = watch.shell.likeness(offset: watch.offset, limit: watch.limit) else { return false }
        return window === self.window && likeness == self.likeness
    }

    func join(_ watch: ScreenWatch) {
        if members.count >= sweepAt {
            members.removeAll { $0.watch == nil }
            sweepAt = max(16, 2 * members.count)
        }
        members.append(WeakWatch(watch))
    }

    /// `watch` leaves. When its shell was the one the snapshot was computed with, the group's dependencies are
    /// taken again from another member's shell (the same snapshot: they are alike), without telling anyone: the
    /// shell that left may change or go, and what it read with it.
    func leave(_ watch: ScreenWatch) {
        members.removeAll { $0.watch == nil || $0.watch === watch }
        guard computedWith === watch.shell, let s = subscription, !s.cancelled, !s.isStale else { return }
        s.graph?.reevaluate(s)
    }

    /// The group's snapshot, computed again first when something it read changed. Read inside a member's live
    /// snapshot, the group is recorded as what that snapshot depends on.
    func snapshot() throws -> Snapshot {
        if let subscription, !subscription.cancelled {
            _ = subscription.value
        } else {
            subscription = window.keeper.engine.graph.subscribe({ [unowned self] in
                self.compute()
                return .null
            })
        }
        guard let last else { throw ShellError.notStarted }
        return try last.get()
    }

    private func compute() {
        computations += 1
        guard let watch = members.lazy.compactMap({ $0.watch }).first(where: { self.admits($0) }) else {
            computedWith = nil
            last = .failure(ShellError.notStarted)
            revision += 1
            return
        }
        computedWith = watch.shell
        watch.shell.recordShownEntries()
        let now = Result { try watch.shell.snapshotSharingWindow(offset: watch.offset, limit: watch.limit)?.snapshot
            ?? watch.shell.snapshot(offset: watch.offset, limit: watch.limit) }
        if case .success(let before)? = last, case .success(let after) = now, before == after {
            last = now
            return
        }
        last = now
        revision += 1
    }
}

/// What makes two shells' live snapshots the same while neither shows anything of its own (`ScreenWatchGroup`).
struct ShellLikeness: Hashable {
    let window: ObjectIdentifier
    let tabIndex: Int
    let depth: Int
    let themeOverride: String?
    /// Each tab's first screen: its id and its context's identity (the tab bar shows their titles).
    let tabFirsts: [TabFirst]

    struct TabFirst: Hashable {
        let screen: String
        let context: ObjectIdentifier?
    }
}

extension AppShell {
    /// The shell's likeness, the shared window its top screen shows and the tabs' first contexts; nil when the
    /// shell shows something of its own (see `ScreenWatchGroup`).
    func likeness(offset: Int, limit: Int) -> (ShellLikeness, SharedListWindow, [Entity?])? {
        guard !covered, alerts.isEmpty, helpText == nil, presented.isEmpty, !menuOpen, openingList == nil,
              let list = top as? ListScreen, let window = list.sharedWindow(offset: offset, limit: limit) else { return nil }
        var firsts: [ShellLikeness.TabFirst] = []
        var contexts: [Entity?] = []
        firsts.reserveCapacity(stacks.count)
        contexts.reserveCapacity(stacks.count)
        for stack in stacks {
            let first = stack.first
            let context = first?.context
            firsts.append(ShellLikeness.TabFirst(screen: first?.id ?? "", context: context.map(ObjectIdentifier.init)))
            contexts.append(context)
        }
        let likeness = ShellLikeness(window: ObjectIdentifier(window), tabIndex: tabIndex, depth: currentStackCount,
                                     themeOverride: themeOverride, tabFirsts: firsts)
        return (likeness, window, contexts)
    }

    /// Takes the theme a snapshot computed with another, alike shell shows (what `appSnapshotPart` sets on the
    /// shell that computes it).
    func adoptTheme(of snapshot: Snapshot) {
        theme = snapshot.app.theme
        themeValues = snapshot.app.themeValues
    }
}
