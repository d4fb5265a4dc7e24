import Foundation
import Synchronization

/// Re-GETs of a shared page answered on the server's own threads, without the hop to the engine's (issue 39 item
/// 2). After a write seen by a thousand viewers of one list, each viewer GETs the page it is at again; the engine
/// would answer each with the one shared page of that place and snapshot (SharedPages) carrying the session's own
/// CSRF token and version — a thousand answers made one after another on its one thread.
///
/// Here the engine publishes, for each session whose last page was such a shared page and which has nothing of its
/// own pending, the answer it would give to a GET of the same path without a query: the page's template, the
/// session's token and version. The server answers such a GET from this entry while it is *current*:
///
/// - Every entry carries the `generation` it was made in. The engine bumps the generation, under this store's
///   lock, before it pushes any `stale` event (`WebSession.pushStale`): once a browser was told of a write, no
///   entry made before it is answered — to that browser or any other.
/// - Anything of a session's own that changes its answer (a request of its own reaching the engine, a notice or
///   error, its version, token, id, login, recording, a move) withdraws its entry (`WebSession`'s observers).
/// - After a bump the engine makes the entries again (`WebApp.refreshFastAnswers`): for each session that had one,
///   the same steps as the engine's own GET (its snapshot, a new version when it changed, the shared page). A
///   re-GET that finds its entry out of date while that is due waits for it, then looks again; otherwise, and
///   for every other request, the engine answers as before.
/// - When the server answers, it notes that the session was seen (`seen`), which the engine takes before it
///   sweeps or counts sessions; an entry is not answered past the session's idle limit (the protection timeout,
///   `--idle`), which only the engine may act on.
final class FastAnswers: Sendable {
    /// What a session's re-GET of `path` is answered with.
    struct Entry: Sendable {
        let path: String
        let csrf: String
        let version: Int
        let template: PageTemplate
        let generation: UInt64
        /// Logged in with the token: else only a request that needs no login is answered (not through a proxy,
        /// on a loopback listener; `WebApp.mustLogIn`).
        let loggedIn: Bool
        /// When the session was last seen, and how long after that only the engine may answer it.
        var lastSeen: Date
        let idleLimit: TimeInterval
    }

    private struct State {
        var generation: UInt64 = 0
        var entries: [String: Entry] = [:]
        /// Sessions the server answered since the engine last looked, and when.
        var seen: [String: Date] = [:]
        /// A refresh of the entries is scheduled, or running.
        var refreshDue = false
        var refreshing = false
        /// Re-GETs waiting for the refresh to end.
        var waiters: [@Sendable () -> Void] = []
        /// How many answers were made here (for tests).
        var answered = 0
    }

    private let state = Mutex(State())

    // MARK: The engine's side

    /// The generation entries made now carry.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Makes every entry out of date (before a `stale` event is pushed). True when a refresh must be scheduled.
    func bump() -> Bool {
        state.withLock { s in
            s.generation &+= 1
            defer { s.refreshDue = true }
            return !s.refreshDue
        }
    }

    /// Publishes what a session's re-GET of `entry.path` is answered with.
    func publish(_ id: String, _ entry: Entry) {
        state.withLock { $0.entries[id] = entry }
    }

    /// Withdraws a session's entry: the engine answers it again.
    func withdraw(_ id: String) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// The refresh starts: the generation its entries carry, and the sessions whose entry is out of date (their
    /// ids and the path it answers).
    func beginRefresh() -> (generation: UInt64, due: [(id: String, path: String)]) {
        state.withLock { s in
            s.refreshDue = false
            s.refreshing = true
            return (s.generation, s.entries.compactMap { $0.value.generation == s.generation ? nil : ($0.key, $0.value.path) })
        }
    }

    /// The refresh ended: the waiting re-GETs look again.
    func endRefresh() {
        let waiting = state.withLock { s in
            s.refreshing = false
            defer { s.waiters = [] }
            return s.waiters
        }
        for w in waiting { w() }
    }

    /// When the server answered sessions since the last call.
    func takeSeen() -> [String: Date] {
        state.withLock { s in
            defer { s.seen = [:] }
            return s.seen
        }
    }

    /// How many answers the server made from entries (for tests).
    var answered: Int { state.withLock { $0.answered } }

    // MARK: The server's side

    /// The answer for a GET of `path` without a query by session `id`, when its entry is current (waiting for a
    /// due refresh once); nil when the engine must answer. `anonymous`: the request would be answered without a
    /// login.
    func answer(_ id: String, path: String, anonymous: Bool, now: Date) async -> [UInt8]? {
        switch lookup(id, path: path, anonymous: anonymous, now: now) {
        case .answer(let answer): return answer.bytes
        case .none: return nil
        case .afterRefresh:
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in afterRefresh { c.resume() } }
            if case .answer(let answer) = lookup(id, path: path, anonymous: anonymous, now: now) { return answer.bytes }
            return nil
        }
    }

    /// A page's answer for one session: the shared template with the session's own token and version, put
    /// together where it is written (`PageTemplate.write(csrf:version:into:)`: straight into the connection's
    /// buffer, without an array of its own first).
    struct Answer {
        let template: PageTemplate
        let csrf: String
        let version: Int
        var bytes: [UInt8] { template.answer(csrf: csrf, version: version) }
    }

    enum Lookup {
        case answer(Answer)
        /// The entry is out of date and its refresh due: look again after it (`afterRefresh`).
        case afterRefresh
        case none
    }

    /// The answer from a session's entry when it is current (noting the session as seen), else whether a refresh
    /// that may make it current is due.
    func lookup(_ id: String, path: String, anonymous: Bool, now: Date) -> Lookup {
        let found: Entry? = state.withLock { s in
            guard var e = s.entries[id], e.path == path, e.loggedIn || anonymous,
                  now.timeIntervalSince(e.lastSeen) < e.idleLimit else { return nil }
            guard e.generation == s.generation else { return nil }
            e.lastSeen = now
            s.entries[id] = e
            s.seen[id] = now
            s.answered += 1
            return e
        }
        if let e = found { return .answer(Answer(template: e.template, csrf: e.csrf, version: e.version)) }
        // An entry of another place is not waited for; an out-of-date one, or none (the refresh withdraws an entry
        // while it makes it again), is while a refresh is due.
        let due = state.withLock { s in
            (s.refreshDue || s.refreshing) && (s.entries[id].map { $0.path == path && $0.generation != s.generation } ?? true)
        }
        return due ? .afterRefresh : .none
    }

    /// Runs `then` when the due refresh has ended (at once when none is due).
    func afterRefresh(_ then: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            guard s.refreshDue || s.refreshing else { return true }
            s.waiters.append(then)
            return false
        }
        if now { then() }
    }
}
