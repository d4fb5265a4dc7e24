import Foundation
import OKitEngine

/// Sessions dropped to make room before their browser came back with the cookie (web.md "Sessions"): one client
/// address holds at most `maxNewSessionsPerClient` sessions that never came back, so more browsers than that
/// opening the app at one moment from one address (a class behind one school router) dropped each other's before
/// the pages' next requests arrived — their `/books` started yet another session, `/events` answered 403 and their
/// next form was refused. Such a session held nothing but its id and CSRF token (it answered one request), so its
/// id is kept for `lifetime` (at most `capacity` of them): a browser that comes back with it gets its session
/// again, the same id and token, as one that came back in time. A client sending cookie-less requests still holds
/// no more than its share of sessions: coming back with the cookie is what any browser does to keep its session.
struct DroppedSessions {
    struct Entry {
        let csrf: String
        let at: Date
    }

    static let capacity = 4096
    /// Kept in two halves: when the newer is full it becomes the older, and the older is forgotten.
    private var newer: [String: Entry] = [:]
    private var older: [String: Entry] = [:]

    mutating func add(id: String, csrf: String, at now: Date) {
        if newer.count >= Self.capacity / 2 {
            older = newer
            newer = [:]
        }
        newer[id] = Entry(csrf: csrf, at: now)
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

    /// Drops a session that never came back to make room, keeping its id for its browser (`DroppedSessions`).
    func dropUnreturned(_ ws: WebSession) {
        if !ws.returned { droppedSessions.add(id: ws.id, csrf: ws.csrf, at: Date()) }
        drop(ws)
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
        return ws
    }
}
