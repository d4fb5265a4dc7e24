import Crypto
import Foundation
import OKitEngine

/// When a browser session is made, dropped and renewed (web.md "Sessions"). A session is made only for a page of
/// the app: static files, the login page and errors never take one, and a request that must log in first is
/// sent to the login page without one. A session whose visitor never came back with its cookie is dropped after
/// `newSessionSeconds`, one client address holds at most `maxNewSessionsPerClient` of them (its oldest goes), and at
/// the cap a new visitor takes the place of the oldest of them from any address, so anonymous requests cannot fill
/// `--sessions`. At the cap with every session in use, the address holding the most gives one up to a newcomer from
/// an address holding fewer (`dropFromTheBusiestClient`). Logging in gives the session a new id (session fixation).
extension WebApp {
    /// A request without a session: a page of the app gets one (kept only when the answer is no error).
    func withNewSession(_ request: WebRequest, _ app: AppSession) -> WebResponse {
        if request.method == "POST" {
            return said(403, .sessionEnded)
        }
        // A stream is no page, behind a login too: an EventSource would follow a redirect into the login form.
        if request.path == "/events" {
            return said(403, .liveUpdatesNeedSession)
        }
        if options.token != nil, request.forwarded || !ServeOptions.isLoopback(options.host) {
            return WebPages.redirect("/login")
        }
        if request.method == "GET", request.path == "/theme.css" {
            return theme(nil)                  // a stylesheet is no page: the default theme, and no session made
        }
        let ws: WebSession
        switch makeSession(app, client: request.client) {
        case .failure(let refusal): return refusal.response
        case .success(let made): ws = made
        }
        var response = route(request, ws, app)
        // An error makes no session, nor does a file (a backup download, a cell's image) or a HEAD.
        guard response.status < 400, !isFileRoute(request, ws), !request.headOnly else {
            drop(ws)
            return response
        }
        response.headers.append(("Set-Cookie", cookie(ws, request)))
        return response
    }

    /// A new session for a client, within the caps: the client's oldest session that never came back makes room
    /// when it holds `maxNewSessionsPerClient`; past `--sessions` the answer is 503. A browser `returning` to a
    /// session dropped to make room (`DroppedSessions`) gets its id and token again, and makes no room among the
    /// client's new ones (it came back).
    func makeSession(_ app: AppSession, client: String, returning: (id: String, csrf: String)? = nil) -> Result<WebSession, WebRefusal> {
        takeFastSeen()
        let unreturned = returning != nil ? [] : sessions.values.filter { !$0.returned && $0.client == client }
        if unreturned.count >= options.maxNewSessionsPerClient, let oldest = unreturned.min(by: { $0.lastSeen < $1.lastSeen }) {
            dropUnreturned(oldest)
        }
        if sessions.count >= options.maxSessions { sweepIdle() }       // the idle ones make room first
        if sessions.count >= options.maxSessions { dropOldestUnreturned() }
        if sessions.count >= options.maxSessions { dropAQuietSession() }       // ReturningSessions.swift
        if sessions.count >= options.maxSessions { dropFromTheBusiestClient(than: client) }
        guard sessions.count < options.maxSessions else {
            var busy = said(503, .tooManyPeople, count: options.maxSessions)
            busy.headers.append(("Retry-After", "60"))
            return .failure(WebRefusal(busy))
        }
        do { return .success(try newSession(app, client: client, returning: returning)) } catch {
            return .failure(WebRefusal(said(500, .sessionNotStarted, BrowserAdvice.message(for: error))))
        }
    }

    /// At the cap, a new visitor takes the place of the oldest session that never came back with its cookie (and
    /// holds no live page): requests from many addresses that never return can churn among themselves but never
    /// shut out a new person, and a session someone uses is never taken. When every session is in use, the next
    /// visitor gets the 503 page.
    func dropOldestUnreturned() {
        let unreturned = sessions.values.filter { !$0.returned && $0.streams.isEmpty }
        if let oldest = unreturned.min(by: { $0.lastSeen < $1.lastSeen }) { dropUnreturned(oldest) }
    }

    /// At the cap with every session in use, the address holding the most sessions gives up its least recently
    /// seen one, when it holds more than the newcomer's address would after: a person with one session is not put
    /// out while someone holds many, so sessions kept alive from a few addresses cannot shut a new person out.
    func dropFromTheBusiestClient(than client: String) {
        var byClient: [String: [WebSession]] = [:]
        for ws in sessions.values { byClient[ws.client, default: []].append(ws) }
        let newcomer = byClient[client]?.count ?? 0
        guard let (_, busiest) = byClient.max(by: { $0.value.count < $1.value.count }), busiest.count > newcomer + 1,
              let victim = Self.leastRecentlySeen(busiest) else { return }
        drop(victim)
    }

    /// The session seen the longest ago, those without an open page stream first.
    static func leastRecentlySeen(_ candidates: [WebSession]) -> WebSession? {
        candidates.min { a, b in
            a.streams.isEmpty != b.streams.isEmpty ? a.streams.isEmpty : a.lastSeen < b.lastSeen
        }
    }

    func newSession(_ app: AppSession, client: String, returning: (id: String, csrf: String)? = nil) throws -> WebSession {
        let shell = try app.makeShell()
        let ws = WebSession(id: returning?.id ?? RandomToken.make(), csrf: returning?.csrf ?? RandomToken.make(), shell: shell,
                            driver: Driver(shell: shell, host: app), watch: app.watch(shell, limit: options.pageRows), now: Date(),
                            app: app, fastAnswers: fastAnswers)
        ws.client = client
        ws.watch.onStale = { [weak ws] in ws?.screenWentStale() }
        ws.onFastAnswersDue = { [weak self] in
            Task { await self?.refreshFastAnswers() }
        }
        // The theme is per session, starting from the app's setting (web.md "Sessions").
        shell.themeOverride = try shell.settingTheme()
        // Without a token every visitor may use the app; on loopback with a token, the token guards what acts on
        // everyone's data.
        ws.loggedIn = options.token == nil
        // A new session is a launch: with protection on and a lock to check, it starts covered (web.md "Security").
        if coverIsALock(app) { try app.coverAtLaunch(shell) }
        sessions[ws.id] = ws
        return ws
    }

    /// Whether the protection cover is a lock here: something checks the answer that lifts it — the passphrase of
    /// `OKIT_PASSPHRASE`, the app's `authenticate` function or the login token. Then every new session starts
    /// covered, as OKit covers at launch; without any of them the cover is a privacy screen any answer lifts, and a
    /// new session starts uncovered (web.md "Security").
    func coverIsALock(_ app: AppSession) -> Bool {
        app.authenticatesByPassphrase || app.callbacks.authenticate != nil || options.token != nil
    }

    /// The token is what the cover checks (no passphrase, no `authenticate` function): a login, which checked it,
    /// lifts the session's cover (the person is not asked for the token twice).
    func liftCoverAtLogin(_ ws: WebSession, _ app: AppSession) {
        guard ws.shell.covered, options.token != nil, !app.authenticatesByPassphrase, app.callbacks.authenticate == nil else { return }
        if (try? app.authenticate(ws.shell, passphrase: nil)) != nil { ws.moved = true }
    }

    /// A session whose person just proved who they are (a login, an unlock of a locked cover) is given a new id and
    /// CSRF token (session fixation): an id planted in their browser beforehand — cookies are not isolated by port,
    /// nor by sibling subdomain on plain http — names no session afterwards, so whoever planted it reads nothing
    /// the person unlocked. Its streams close (opened with the old id: the pages reopen them).
    func giveNewId(_ ws: WebSession) {
        if sessions[ws.id] === ws { sessions[ws.id] = nil }
        ws.closeStreams()
        ws.id = RandomToken.make()
        ws.csrf = RandomToken.make()
        sessions[ws.id] = ws
    }

    func cookie(_ ws: WebSession, _ request: WebRequest) -> String {
        var cookie = "\(SessionCookie.name(secure: request.forwardedHTTPS))=\(ws.id); Path=/; HttpOnly; SameSite=Strict"
        if request.forwardedHTTPS { cookie += "; Secure" }
        return cookie
    }

    /// The session a request's cookies name: its only one; of several (another site of the domain put its own
    /// beside the browser's, web.md "Sessions"), the only one naming a live session, else none — a new session
    /// rather than a guess that could give a person's searches and edits to another's session.
    func sessionId(_ request: WebRequest) -> String? {
        let ids = request.sessionCookies.isEmpty ? request.sessionCookie.map { [$0] } ?? [] : request.sessionCookies
        guard ids.count > 1 else { return ids.first }
        let live = Set(ids.filter { sessions[$0] != nil || isReturning($0) })
        return live.count == 1 ? live.first : nil
    }

    func drop(_ ws: WebSession) {
        ws.leaveFastAnswers()
        ws.closeStreams()
        ws.watch.cancel()
        hosted?.session.dropShell(ws.shell)
        if sessions[ws.id] === ws { sessions[ws.id] = nil }
    }

    /// Sweeps idle sessions before a request when the last sweep is older than a fraction of the shortest idle
    /// limit (at most a second): a sweep visits every session, so a thousand viewers' re-GETs after a write paid a
    /// million visits when each request swept.
    func sweepIdleWhenDue() {
        let now = Date()
        let every = min(1, options.newSessionSeconds / 4, options.idleSeconds / 4)
        guard now.timeIntervalSince(lastSweep) >= every else { return }
        sweepIdle()
    }

    /// Covers and drops the sessions idle at `now` (the server's clock; tests pass their own).
    func sweepIdle(now: Date = Date()) {
        takeFastSeen()
        lastSweep = now
        // Protection: a session idle for the protection timeout is covered (its person must authenticate).
        if let app = hosted?.session, let timeout = try? app.protectionTimeout(), timeout > 0 {
            for ws in sessions.values where !ws.shell.covered && now.timeIntervalSince(ws.lastSeen) > timeout {
                if (try? app.coverIdle(ws.shell, since: ws.lastSeen)) == true { ws.moved = true; ws.pushStale() }
            }
        }
        for ws in Array(sessions.values) {
            let idle = now.timeIntervalSince(ws.lastSeen)
            if idle > options.idleSeconds || (!ws.returned && ws.streams.isEmpty && idle > options.newSessionSeconds) { drop(ws) }
        }
    }

    /// `GET /login`: the form, its token tied to the browser's login cookie (`SessionCookie.login`), which is set
    /// when the request brought none (a browser keeps one for every login form it opens within the hour).
    func loginPage(_ request: WebRequest) -> WebResponse {
        let kept = request.loginCookie.flatMap { $0.count == 32 && $0.allSatisfy(\.isHexDigit) ? $0 : nil }
        let binding = kept ?? RandomToken.make()
        var page = WebPages.login(csrf: loginTokens.make(binding: binding), failed: false, words: serverWords)
        if kept == nil {
            var cookie = "\(SessionCookie.loginName(secure: request.forwardedHTTPS))=\(binding); Path=/; Max-Age=3600; HttpOnly; SameSite=Strict"
            if request.forwardedHTTPS { cookie += "; Secure" }
            page.headers.append(("Set-Cookie", cookie))
        }
        return page
    }

    /// Whether a POST comes from a page of another site (web.md "Security"): the browser's `Sec-Fetch-Site` when
    /// it sends one (anything but `same-origin`: a sibling subdomain is another site too); else its `Origin`,
    /// when that is `null` or — not behind a proxy, which may pass another `Host` on — names another host than `Host`.
    func fromAnotherSite(_ request: WebRequest) -> Bool {
        if let site = request.fetchSite?.lowercased() { return site != "same-origin" && site != "none" }
        guard let origin = request.origin?.lowercased() else { return false }
        if origin == "null" { return true }
        guard !request.forwarded, let host = request.host?.lowercased() else { return false }
        return HostCheck.targetAuthority(origin) != host
    }

    /// `POST /login`: the form's signed token, then the login token; the session (the one the browser has, or a
    /// new one) is logged in under a new id and CSRF token, and the old id no longer works.
    func login(_ request: WebRequest, _ app: AppSession) -> WebResponse {
        // Another site's page, or a form not shown to this browser: refused before the token is looked at, and not
        // counted as a wrong attempt (a page anywhere could lock a person's address out of the login).
        guard !fromAnotherSite(request), let binding = request.loginCookie, let csrf = request.field("csrf"),
              loginTokens.valid(csrf, binding: binding) else {
            return said(403, .securityTokenWrong, link: "/login")
        }
        if let seconds = failedAttempts.wait(request.attemptAddress, now: attemptClock()) {
            var slow = said(429, .tooManyAttempts, count: seconds, link: "/login")
            slow.headers.append(("Retry-After", String(seconds)))
            return slow
        }
        guard let token = options.token, let typed = request.field("token"), RandomToken.equal(typed, token) else {
            failedAttempts.failed(request.attemptAddress, now: attemptClock())
            log("okit-run serve: a wrong login token from \(request.attemptAddress)")
            return WebPages.login(csrf: loginTokens.make(binding: binding), failed: true, words: serverWords)
        }
        failedAttempts.succeeded(request.attemptAddress)
        let ws: WebSession
        if let id = sessionId(request), let existing = sessions[id] {
            ws = existing
            giveNewId(ws)
        } else {
            switch makeSession(app, client: request.client) {
            case .failure(let refusal): return refusal.response
            case .success(let made): ws = made
            }
        }
        ws.loggedIn = true
        ws.returned = true
        ws.lastSeen = Date()
        liftCoverAtLogin(ws, app)
        var response = WebPages.redirect("/")
        response.headers.append(("Set-Cookie", cookie(ws, request)))
        return response
    }
}

/// An answer that refuses (a session that cannot be made, an upload not admitted).
public struct WebRefusal: Error {
    public let response: WebResponse
    init(_ response: WebResponse) { self.response = response }
}

/// The login form's CSRF tokens: `expiry.nonce.mac`, an HMAC-SHA256 under a key made at start over the expiry, the
/// nonce and the browser's login cookie (`okit_login`, `binding`), valid for an hour. The form is shown without a
/// session, so the token is checked by its signature, not looked up; tied to the cookie, it is good only from the
/// browser the form was shown to — a page of another site, which that SameSite=Strict cookie does not reach, cannot
/// post one it fetched elsewhere (and so cannot make wrong logins count against a person's address).
struct LoginTokens: Sendable {
    private let key = SymmetricKey(size: .bits256)
    static let lifetime: TimeInterval = 3600

    func make(binding: String = "", now: Date = Date()) -> String {
        let body = "\(Int(now.timeIntervalSince1970 + LoginTokens.lifetime)).\(RandomToken.make())"
        return body + "." + mac(body + "." + binding)
    }

    func valid(_ token: String, binding: String = "", now: Date = Date()) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let expiry = Int(parts[0]), Double(expiry) >= now.timeIntervalSince1970 else { return false }
        return RandomToken.equal(String(parts[2]), mac("\(parts[0]).\(parts[1]).\(binding)"))
    }

    private func mac(_ body: String) -> String {
        Hex.encode(HMAC<SHA256>.authenticationCode(for: Data(body.utf8), using: key))
    }
}
