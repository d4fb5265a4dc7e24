import Foundation
import OKitEngine

/// Sessions dropped to make room before their browser came back with the cookie (web.md "Sessions"): one client
/// address holds at most `maxNewSessionsPerClient` sessions that never came back, so more browsers than that
/// opening the app at one moment from one address (a class behind one school router) dropped each other's before
/// the pages' next requests arrived — their `/books` started yet another session, `/events` answered 403 and their
/// next form was refused. Such a session held little but its id and CSRF token (it answered one request), so its
/// id is kept for `lifetime` (at most `capacity` of them), with the page it was shown (its place, query, version and
/// snapshot — a list's snapshot is the one its alike viewers share): a browser that comes back with it gets its
/// session again, the same id and token, back at that page, as one that came back in time. Without the page, a
/// session that came back stood at its home with no snapshot followed, and its page's stream was never told of a
/// write. A client sending cookie-less requests still holds no more than its share of sessions: coming back with
/// the cookie is what any browser does to keep its session.
struct DroppedSessions {
    struct Entry {
        let csrf: String
        let at: Date
        /// The page the session was shown last (nil: none).
        var page: ShownPage?
    }

    /// A page a session was shown: where (path and query), its version and snapshot.
    struct ShownPage {
        let path: String
        let query: String
        let version: Int
        let snapshot: Snapshot
    }

    static let capacity = 4096
    /// Kept in two halves: when the newer is full it becomes the older, and the older is forgotten.
    private var newer: [String: Entry] = [:]
    private var older: [String: Entry] = [:]

    mutating func add(id: String, csrf: String, at now: Date, page: ShownPage? = nil) {
        if newer.count >= Self.capacity / 2 {
            older = newer
            newer = [:]
        }
        newer[id] = Entry(csrf: csrf, at: now, page: page)
    }

    /// The session of `id` dropped at most `lifetime` seconds before `now`, without taking it.
    func peek(_ id: String, now: Date, lifetime: TimeInterval) -> Entry? {
        guard let e = newer[id] ?? older[id], now.timeIntervalSince(e.at) <= lifetime else { return nil }
        return e
    }

    mutating func take(_ id: String, now: Date, lifetime: TimeInterval) -> Entry? {
        let e = peek(id, now: now, lifetime: lifetime)
        newer[id] = nil
        older[id] = nil
        return e
    }
}

extension WebApp {
    /// How long a dropped session that never came back can still be taken up again by its browser.
    var droppedSessionLifetime: TimeInterval { options.newSessionSeconds }

    /// Drops a session that never came back to make room, keeping its id and its page for its browser
    /// (`DroppedSessions`).
    func dropUnreturned(_ ws: WebSession) {
        if !ws.returned { droppedSessions.add(id: ws.id, csrf: ws.csrf, at: Date(), page: lastPage(of: ws)) }
        drop(ws)
    }

    /// The page a session was shown last: where its screen is (the query of the page rendered there), its version and
    /// snapshot.
    func lastPage(of ws: WebSession) -> DroppedSessions.ShownPage? {
        guard let snapshot = ws.shown, let path = ws.watchedPath else { return nil }
        let rendered = ws.renderedPage.flatMap { $0.key.place == path ? $0.key : nil }
        let query = rendered?.query ?? LocationPath.searchQuery(ws.shell.top) ?? ""
        return DroppedSessions.ShownPage(path: path, query: query, version: ws.version, snapshot: snapshot)
    }

    /// Whether `id` names a session dropped before its browser came back, still to be taken up.
    func isReturning(_ id: String) -> Bool {
        droppedSessions.peek(id, now: Date(), lifetime: droppedSessionLifetime) != nil
    }

    /// The session of a browser coming back with the cookie of a session dropped to make room: made again with the
    /// same id and CSRF token, counted as come back (nil when `id` names none, or when `--sessions` is full).
    func returningSession(_ id: String, _ request: WebRequest, _ app: AppSession) -> WebSession? {
        guard let kept = droppedSessions.take(id, now: Date(), lifetime: droppedSessionLifetime) else { return nil }
        if options.token != nil, request.forwarded || !ServeOptions.isLoopback(options.host) { return nil }
        guard case .success(let ws) = makeSession(app, client: request.client, returning: (id: id, csrf: kept.csrf)) else {
            return nil
        }
        ws.returned = true
        if let page = kept.page { goBack(ws, to: page, app) }
        return ws
    }

    /// Takes a session that came back to the page it was shown, as that page's GET would: its screen there, its
    /// snapshot followed (so its page's stream is told of the next write), and its version the page's — the next one
    /// when what the page showed changed meanwhile (so that page's stream, opening, is told at once, and its forms
    /// are answered as out of date).
    func goBack(_ ws: WebSession, to page: DroppedSessions.ShownPage, _ app: AppSession) {
        ws.shown = page.snapshot
        ws.version = page.version
        _ = self.page(WebRequest(method: "GET", path: page.path, query: page.query), ws, app)
    }
}

extension WebApp {
    /// At the cap, when no session that never came back is left to make room: the session without an open page
    /// (no live-update stream: its tabs are closed, or its browser runs no scripts) that has been quiet longest, for
    /// at least `newSessionSeconds` (a minute; since its last request and its last stream's end), makes room. Such
    /// sessions held the cap until their 30-minute idle limit, and a newcomer behind the same address as all of
    /// them (a school's router) got the 503 page for up to 30 minutes. A session with a page open is never taken
    /// here; what goes is its navigation only, as at the idle limit.
    func dropAQuietSession(now: Date = Date()) {
        func quietSince(_ ws: WebSession) -> Date { max(ws.lastSeen, ws.tabs.lastClosedAt ?? .distantPast) }
        let quiet = sessions.values.filter { ws in
            ws.streams.isEmpty && now.timeIntervalSince(quietSince(ws)) >= options.newSessionSeconds
        }
        if let oldest = quiet.min(by: { quietSince($0) < quietSince($1) }) { drop(oldest) }
    }
}
