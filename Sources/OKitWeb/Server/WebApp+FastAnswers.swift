import Foundation
import OKitEngine

/// How a request reaches the app: a re-GET of the shared page a session is at is answered on the calling thread
/// from the session's fast answer (FastAnswers.swift), everything else by `handle` on the engine's executor.
extension WebApp {
    /// Answers one request (the server's entry point): from the session's fast answer when it is current, else
    /// as `handle` does.
    public nonisolated func respond(_ request: WebRequest) async -> WebResponse {
        if let fast = await fastAnswer(request) { return fast }
        return await handle(request)
    }

    /// The fast answer of a GET without a query by a session with a cookie, when `handle` would reach the page
    /// the session was last shown and answer it unchanged: the `Host` allowed, no proxy without a token (those
    /// answers are `handle`'s), and the session's entry current at `now` (tests pass their own). Nil otherwise.
    nonisolated func fastAnswer(_ request: WebRequest, now: Date = Date()) async -> WebResponse? {
        guard request.method == "GET", request.query.isEmpty, let id = request.sessionCookie else { return nil }   // one cookie: several go `handle`'s way (sessionId)
        if let host = request.host, !hostCheck.allows(host) { return nil }
        if request.forwarded, options.token == nil { return nil }
        let anonymous = !request.forwarded && ServeOptions.isLoopback(options.host)
        guard let body = await fastAnswers.answer(id, path: request.path, anonymous: anonymous, now: now) else { return nil }
        return WebPages.html(body)
    }

    /// Publishes the page a session was just shown as its fast answer when a GET of its place without a query
    /// would be answered with it again: a shared page, no recording, outside development mode; a session not logged
    /// in only where it may be answered without logging in (`mustLogIn`: on a loopback listener, not by a proxy). It is answered until the session's idle limit: the protection timeout, `--idle`, or for
    /// a session whose browser never came back, `--new-session-seconds` (past them the engine sweeps first).
    func publishFastAnswer(_ ws: WebSession, _ page: RenderedPage, generation: UInt64) {
        guard case .shared(let shared) = page.body, page.key.query.isEmpty, page.key.recordingLines == nil,
              ws.loggedIn || ServeOptions.isLoopback(options.host), ws.notice == nil, ws.error == nil,
              options.development == nil else { return }
        var limit = ws.returned ? options.idleSeconds : min(options.idleSeconds, options.newSessionSeconds)
        if let timeout = try? hosted?.session.protectionTimeout(), timeout > 0 { limit = min(limit, timeout) }
        fastAnswers.publish(ws.id, FastAnswers.Entry(
            path: page.key.place, csrf: ws.csrf, version: ws.version, template: shared.template,
            generation: generation, loggedIn: ws.loggedIn, lastSeen: ws.lastSeen, idleLimit: limit))
    }

    /// Makes the fast answers again after a push made them out of date: for each session that had one and has a
    /// page open to tell (a live-update stream), what the engine's GET of that place would do — its snapshot (a new
    /// version when it changed) and its page, shared with every session shown the same. Re-GETs that arrived
    /// meanwhile wait for it (FastAnswers). A session without a stream is told nothing and costs nothing here: its
    /// answer is withdrawn and its next GET is the engine's (the pages of some seven hundred sessions held after their
    /// tabs closed were made again after every write for no one, and every re-GET waited for that).
    func refreshFastAnswers() {
        let (generation, due) = fastAnswers.beginRefresh()
        defer { fastAnswers.endRefresh() }
        takeFastSeen()
        guard let app = hosted?.session else { return }
        for (id, path) in due {
            guard let ws = sessions[id], !ws.streams.isEmpty else {
                fastAnswers.withdraw(id)
                continue
            }
            fastAnswersRemade += 1
            // A screen whose entity went away: the session's next GET is the engine's (it lands elsewhere, with a notice).
            if leaveRemovedEntities(ws, app) {
                ws.leaveFastAnswers()
                continue
            }
            do {
                let snapshot = try ws.snapshot()
                _ = shownPage(ws, app, snapshot, at: path, query: "", offset: 0, generation: generation)
            } catch {
                ws.leaveFastAnswers()
            }
        }
    }

    /// Notes the sessions the server answered from their fast answers as seen (their idle time, their return).
    func takeFastSeen() {
        for (id, time) in fastAnswers.takeSeen() {
            guard let ws = sessions[id] else { continue }
            if time > ws.lastSeen { ws.lastSeen = time }
            ws.returned = true
        }
    }

    /// How many answers were made without the engine (for tests).
    var fastAnswerCount: Int { fastAnswers.answered }

    /// How many of the sessions `ids` have a snapshot not computed since something it read changed (for tests: a
    /// write computes none for a session without a stream).
    func staleSnapshots(of ids: Set<String>) -> Int {
        sessions.values.filter { ids.contains($0.id) && $0.watch.isStale }.count
    }

    /// Whether `id` names a session held now (for tests).
    func hasSession(_ id: String) -> Bool { sessions[id] != nil }
}
