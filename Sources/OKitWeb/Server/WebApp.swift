import Foundation
import OKitEngine

/// A loaded app for the web: its session, and whatever must stay alive with it (the Lua app that declared it).
public final class WebHostedApp {
    public let session: AppSession
    let owner: AnyObject?
    public init(session: AppSession, owner: AnyObject?) {
        self.session = session
        self.owner = owner
    }
}

/// The web front end over one app session (web.md): a browser session per cookie, each with its own shell over
/// the shared engine; every request runs here, one at a time, on the engine's own executor, so a page is
/// rendered from a consistent snapshot and commands of all sessions are serialized.
public actor WebApp {
    let executor: EngineExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    let options: ServeOptions
    var hosted: WebHostedApp?
    var sessions: [String: WebSession] = [:]
    /// Called with a line for the server's log (stderr).
    let log: @Sendable (String) -> Void

    public init(options: ServeOptions, executor: EngineExecutor = EngineExecutor(), log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.options = options
        self.executor = executor
        self.log = log
    }

    /// Loads the app on the engine's executor (the Lua state is made and lives there).
    public func load(_ make: @Sendable () throws -> WebHostedApp) throws {
        let loaded = try make()
        loaded.session.firstShellInUse = false       // every browser has a shell of its own
        hosted = loaded
        // Another process stored a shared model: apply it now, so the pages that read it are pushed as stale.
        loaded.session.onSharedModelChange = { [weak self] in
            guard let self else { return }
            Task { await self.followSharedModels() }
        }
    }

    public var sessionCount: Int { sessions.count }

    /// Applies what other processes stored to the shared models (their stale pages are pushed).
    func followSharedModels() {
        hosted?.session.followSharedModels()
    }

    /// Stores every model (at a stop signal); returns the error's text when that failed.
    public func storeAtExit() -> String? {
        guard let session = hosted?.session else { return nil }
        for s in sessions.values { s.closeStreams() }
        do { _ = try session.storeAtExit(); return nil } catch { return "\(error)" }
    }

    /// Fires the timers of the app clock that fell due (the server calls it every second).
    public func tick() {
        guard let session = hosted?.session else { return }
        if session.virtualClock == nil, let due = session.nextTimerDue, due <= Date() {
            for e in session.fireTimers() { log("okit-run: \(e)") }
        }
        // Shared models: a lost connection is caught up and pending changes stored without waiting for a request.
        if session.engine.hasSharedModels {
            let wasOffline = session.isOffline
            session.followSharedModels()
            session.storeSharedModels()
            // Going offline or coming back changes every page (its banner).
            if session.isOffline != wasOffline { for ws in sessions.values { ws.moved = true; ws.pushStale() } }
        }
        sweepIdle()
        // A comment on every live-update stream now and then: proxies keep it open, and a browser that went away
        // is noticed (the write fails and the stream ends).
        let now = Date()
        if now.timeIntervalSince(lastPing) >= 15 {
            lastPing = now
            for ws in sessions.values { for c in ws.streams.values { c.yield(": ping\n\n") } }
        }
    }

    /// When the streams were last pinged.
    private var lastPing = Date()

    /// Answers one request.
    public func handle(_ request: WebRequest) -> WebResponse {
        guard let app = hosted?.session else { return WebPages.message(503, "The app is not loaded yet.") }
        if request.forwarded, options.token == nil {
            return WebPages.message(403, "okit-run serve answers requests through a proxy only with --token-file.")
        }
        switch (request.method, request.path) {
        case ("GET", "/static/okit.css"): return WebPages.staticFile(Stylesheet.css, type: "text/css; charset=utf-8")
        case ("GET", "/static/okit.js"): return WebPages.staticFile(Script.js, type: "text/javascript; charset=utf-8")
        case ("GET", "/favicon.ico"): return WebPages.message(404, "No icon.")
        default: break
        }
        sweepIdle()
        let (ws, isNew): (WebSession, Bool)
        if let id = request.sessionCookie, let existing = sessions[id] {
            (ws, isNew) = (existing, false)
        } else {
            if request.method == "POST" {
                return WebPages.message(403, "This form belongs to a session that ended; reload the page and try again.")
            }
            guard sessions.count < options.maxSessions else {
                return WebPages.message(503, "Too many people are using this app right now (\(options.maxSessions) sessions); try again later.")
            }
            do { (ws, isNew) = (try newSession(app), true) } catch {
                return WebPages.message(500, "The app could not start a session: \(error)")
            }
        }
        ws.lastSeen = Date()
        var response = route(request, ws, app)
        if isNew {
            var cookie = "okit_session=\(ws.id); Path=/; HttpOnly; SameSite=Strict"
            if request.forwardedHTTPS { cookie += "; Secure" }
            response.headers.append(("Set-Cookie", cookie))
        }
        return response
    }

    func newSession(_ app: AppSession) throws -> WebSession {
        let shell = try app.makeShell()
        let ws = WebSession(id: RandomToken.make(), csrf: RandomToken.make(), shell: shell,
                            driver: Driver(shell: shell, host: app), watch: app.watch(shell, limit: options.pageRows), now: Date())
        ws.watch.onStale = { [weak ws] in ws?.pushStale() }
        // The theme is per session, starting from the app's setting (web.md "Sessions").
        shell.themeOverride = try shell.settingTheme()
        // Without a token every visitor may use the app; on loopback with a token, the token guards what acts on
        // everyone's data.
        ws.loggedIn = options.token == nil
        sessions[ws.id] = ws
        return ws
    }

    func sweepIdle() {
        let now = Date()
        // Protection: a session idle for the protection timeout is covered (its person must authenticate).
        if let app = hosted?.session, let timeout = try? app.protectionTimeout(), timeout > 0 {
            for ws in sessions.values where !ws.shell.covered && now.timeIntervalSince(ws.lastSeen) > timeout {
                if (try? app.coverIdle(ws.shell, since: ws.lastSeen)) == true { ws.moved = true; ws.pushStale() }
            }
        }
        for (id, ws) in sessions where now.timeIntervalSince(ws.lastSeen) > options.idleSeconds {
            ws.closeStreams()
            ws.watch.cancel()
            hosted?.session.dropShell(ws.shell)
            sessions[id] = nil
        }
    }

    /// Whether this session must log in before anything is shown (a public listener or a proxy).
    func mustLogIn(_ ws: WebSession, _ request: WebRequest) -> Bool {
        guard options.token != nil, !ws.loggedIn else { return false }
        return request.forwarded || !ServeOptions.isLoopback(options.host)
    }

    func route(_ request: WebRequest, _ ws: WebSession, _ app: AppSession) -> WebResponse {
        switch (request.method, request.path) {
        case ("GET", "/login"): return WebPages.login(csrf: ws.csrf, failed: false)
        case ("POST", "/login"): return login(request, ws)
        case (_, _) where mustLogIn(ws, request): return WebPages.redirect("/login")
        case (_, _) where isFileRoute(request, ws): return fileAnswer(request, ws, app)
        case ("GET", "/theme.css"): return theme(ws)
        case ("GET", "/events"): return events(ws)
        case ("POST", "/command"): return command(request, ws, app)
        case ("GET", "/"): return WebPages.redirect(LocationPath.path(ws.shell.location))
        case ("GET", _): return page(request, ws, app)
        case ("POST", _): return WebPages.message(404, "There is nothing to post to here.")
        default: return WebPages.message(405, "Only GET and POST are answered.")
        }
    }

    func login(_ request: WebRequest, _ ws: WebSession) -> WebResponse {
        guard let csrf = request.field("csrf"), RandomToken.equal(csrf, ws.csrf) else {
            return WebPages.message(403, "The form's security token is wrong or missing; reload the page and try again.")
        }
        guard let token = options.token, let typed = request.field("token"), RandomToken.equal(typed, token) else {
            return WebPages.login(csrf: ws.csrf, failed: true)
        }
        ws.loggedIn = true
        return WebPages.redirect("/")
    }

    func theme(_ ws: WebSession) -> WebResponse {
        let values = ws.shown?.app.themeValues ?? ((try? ws.snapshot())?.app.themeValues ?? [])
        var r = WebResponse(status: 200, headers: [("Content-Type", "text/css; charset=utf-8"), ("Cache-Control", "no-store")],
                            body: Array(ThemeStylesheet.css(themeValues: values).utf8))
        r.headers += WebPages.securityHeaders
        return r
    }

    func events(_ ws: WebSession) -> WebResponse {
        let key = ws.nextStream
        ws.nextStream += 1
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(4))
        ws.streams[key] = continuation
        let sid = ws.id
        continuation.onTermination = { [weak self] _ in
            Task { await self?.dropStream(sid, key) }
        }
        continuation.yield("retry: 2000\n: okit live updates\n\n")
        return WebResponse(status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"),
                                                  ("X-Accel-Buffering", "no")] + WebPages.securityHeaders, events: stream)
    }

    func dropStream(_ session: String, _ key: Int) {
        sessions[session]?.streams[key] = nil
    }
}
