import Foundation
import OKitEngine

/// Where each of a session's open pages is, and who tells the pages the session has moved away from (web.md
/// "Sessions and live updates"). The browser's tabs share one session, and so one shell, which is wherever the
/// last page asked for put it: a tab still showing the books while another moved the shell to the authors was
/// told of every change to the authors and of none to the books. Each stream now knows the path of the page that
/// opened it (`/events?at=…&v=…`, the page's `data-location` and `data-version`): the session's live snapshot
/// tells the streams at its own path, and when the shell leaves a path a stream is still open at, what that
/// page's snapshot read is kept (`ScreenWatch.shownKeys`, bounded) in a subscription of its own, which tells that
/// page's streams once when any of it changes. The page then fetches itself, which moves the shell back there.
/// The kept keys go with the last stream at their path, and at most `maxKept` paths are kept per session.
final class TabPlaces {
    /// The path each open stream's page shows, by the stream's key (nil: a stream opened before any page was
    /// shown; it follows the session's screen).
    private(set) var pathOf: [Int: String] = [:]
    /// The pages the shell left while a stream was open at them: what their snapshot read, watched.
    private var kept: [(path: String, watch: Subscription)] = []
    /// The most places kept for one session (each holds up to `keyBudget` keys).
    static let maxKept = 4
    /// The most keys kept for a place (`ScreenWatch.shownKeys`).
    static let keyBudget = 4096

    /// A stream opened at `path`.
    func opened(_ key: Int, at path: String?) {
        pathOf[key] = path
    }

    /// When the session's last open stream ended (nil: never, or one is open): a browser reopening its stream
    /// after a dropped connection is not taken for one whose tabs are closed (`WebApp.dropAQuietSession`).
    private(set) var lastClosedAt: Date?

    /// A stream ended: a place kept for it alone goes.
    func closed(_ key: Int) {
        guard let path = pathOf.removeValue(forKey: key) else { return }
        if !pathOf.values.contains(path) { forget(path) }
        if pathOf.isEmpty { lastClosedAt = Date() }
    }

    /// Every stream ended (the session dropped, a login's new id).
    func closedAll() {
        pathOf = [:]
        forgetKept()
        lastClosedAt = Date()
    }

    /// No place is kept any more (the session moves onto a reloaded app: what they watch is the old one's).
    func forgetKept() {
        for k in kept { k.watch.cancel() }
        kept = []
    }

    /// Whether a place is kept for `path`.
    func keeps(_ path: String) -> Bool { kept.contains { $0.path == path } }

    /// The shell is leaving `path` (its watch still holds that path's snapshot): kept when a stream is open at it.
    /// `tell` is called once, after the write that changed what the page showed.
    func leaving(_ path: String, _ watch: ScreenWatch, tell: @escaping (String) -> Void) {
        forget(path)
        guard pathOf.values.contains(path) else { return }
        let keys = watch.shownKeys(budget: TabPlaces.keyBudget)
        guard !keys.isEmpty else { return }
        let graph = watch.shell.engine.graph
        let sub = graph.subscribe({
            for k in keys { graph.record(k) }
            return .null
        }, onStale: { [weak self] s in
            s.cancel()
            self?.forget(path)
            tell(path)
        })
        if kept.count >= TabPlaces.maxKept { kept.removeFirst().watch.cancel() }
        kept.append((path, sub))
    }

    /// The shell is at `path` again: its live snapshot tells that path's streams.
    func arrived(_ path: String) { forget(path) }

    private func forget(_ path: String) {
        kept.removeAll { k in
            guard k.path == path else { return false }
            k.watch.cancel()
            return true
        }
    }

    /// The streams to tell that the session's screen, at `path`, went stale: those at that path and those that
    /// named none.
    func streams(at path: String?) -> [Int] {
        pathOf.compactMap { key, p in p == nil || p == path ? key : nil }
    }

    /// The streams at a kept place (`leaving`'s `tell`).
    func streams(keptAt path: String) -> [Int] {
        pathOf.compactMap { key, p in p == path ? key : nil }
    }
}

extension WebSession {
    /// The session's live snapshot went stale: the streams whose page shows the session's screen are told (those
    /// at another path are told by their own kept place, `TabPlaces`).
    func screenWentStale() {
        pushStale(to: tabs.streams(at: watchedPath))
    }

    /// Before the watch computes a snapshot: when the shell is leaving the path the watch showed, that path's
    /// snapshot is kept for the streams still open at it; a path the shell comes back to is followed live again.
    func followTabs() {
        let here = LocationPath.path(shell.location)
        guard here != watchedPath else { return }
        if let before = watchedPath, shown != nil {
            tabs.leaving(before, watch) { [weak self] path in
                guard let self else { return }
                // Told even while this session's own command runs: its redirect answers another tab.
                self.pushStale(to: self.tabs.streams(keptAt: path), duringCommand: true)
            }
        }
        tabs.arrived(here)
        watchedPath = here
    }

    /// Tells the streams `keys` that their page went stale (after every fast answer made before is out of date);
    /// not while this session's own command runs (its page is answered by the redirect) unless `duringCommand`.
    func pushStale(to keys: [Int], duringCommand: Bool = false) {
        if fastAnswers.bump() { onFastAnswersDue?() }
        guard duringCommand || !runningCommand else { return }
        for k in keys { streams[k]?.send("event: stale\ndata: \(version)\n\n") }
    }

    /// The path of a stream's page (`/events?at=`, its query left out), else the path the session's screen
    /// showed last: a page opens its stream right after it was answered.
    func streamPath(_ at: String?) -> String? {
        guard let at, !at.isEmpty else { return watchedPath }
        return String(at.split(separator: "?", maxSplits: 1).first ?? "").removingTrailingSlash
    }

    /// Whether a page at `path` of version `v` opening its stream is already out of date: its path is the
    /// session's screen but the screen changed since (another version), or the shell left it and nothing of it was
    /// kept to tell it later.
    func streamOutOfDate(path: String?, version v: String?) -> Bool {
        guard let path, watchedPath != nil else { return false }
        if path == watchedPath { return v.map { $0 != String(version) } ?? false }
        return !tabs.keeps(path)
    }
}
