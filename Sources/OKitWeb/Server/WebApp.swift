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
    /// The `Host` headers answered (DNS rebinding).
    let hostCheck: HostCheck
    /// The `--trusted-proxy` addresses, canonical (`ServeOptions.canonicalTrustedProxies`).
    let trustedProxies: Set<String>
    /// The login form's CSRF tokens (signed, so the login page takes no session).
    let loginTokens = LoginTokens()
    /// Wrong logins and cover passphrases by address, slowed down (FailedAttempts).
    var failedAttempts = FailedAttempts()
    /// Wrong passwords of secure backups by address (a restore's prompt, an upload), slowed down the same way.
    var failedBackupPasswords = FailedAttempts()
    /// The clock guesses are timed by (tests set their own: a machine under load must not let a wait run out).
    var attemptClock: @Sendable () -> Date = { Date() }
    /// Sessions dropped to make room before their browsers came back, by id (ReturningSessions.swift).
    var droppedSessions = DroppedSessions()
    /// Uploads being read now (`ServeOptions.maxUploads`).
    var uploadsInProgress = 0
    /// Called with a line for the server's log (stderr).
    let log: @Sendable (String) -> Void
    /// How each screen kind is shown: the built-in pages and those of the app's own kinds (set at `load`).
    var kinds = WebKinds.builtIn
    /// Pages rendered once for every session shown the same snapshot at the same place (SharedPages.swift).
    let sharedPages = SharedPages()
    /// Re-GETs answered on the server's threads from the shared page a session is at (FastAnswers.swift).
    nonisolated let fastAnswers = FastAnswers()
    /// How many sessions' fast answers were made again after writes (`refreshFastAnswers`; for tests).
    var fastAnswersRemade = 0
    /// Development mode: the model files right after the app loaded on a fresh data folder (`DataFingerprint`);
    /// nil when it loaded stored data. A recording that starts while they are unchanged starts from the seed.
    var seededData: [String: String]?
    /// Development mode: why the app's files did not load at the last reload (every page shows it over the last
    /// app that loaded, which keeps serving); nil once they load.
    var loadError: DevLoadError?
    /// Development mode: the warnings the app that serves gave while it loaded (every page lists them).
    var loadWarnings: [String] = []
    /// How many of the serving app's warnings are on stderr (`logNewWarnings`).
    var warningsLogged = 0
    /// Development mode: the task that watches the app's files and reloads it (`watchForReload`).
    var reloadWatch: Task<Void, Never>?

    public init(options: ServeOptions, executor: EngineExecutor = EngineExecutor(), log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.options = options
        self.hostCheck = options.hostCheck
        self.trustedProxies = options.canonicalTrustedProxies
        self.executor = executor
        self.log = log
    }

    /// Loads the app on the engine's executor (the Lua state is made and lives there).
    public func load(_ make: @Sendable () throws -> WebHostedApp) throws {
        let loaded = try make()
        // Uploads cut short by a stop left their parts behind.
        if let folder = loaded.session.options.dataFolder {
            try? FileManager.default.removeItem(at: BackupStore(dataFolder: folder).backupFolder.appendingPathComponent(".uploads"))
        }
        install(loaded)
        if let dev = options.development, dev.dataStartedFresh, let folder = dev.dataFolder {
            seededData = DataFingerprint.of(folder)
        }
    }

    /// Makes `loaded` the app every request runs on (at `load`, and at a live reload).
    func install(_ loaded: WebHostedApp) {
        loaded.session.firstShellInUse = false       // every browser has a shell of its own
        hosted = loaded
        kinds = WebKinds(loaded.session.shell.kinds)
        if options.development != nil { loadWarnings = loaded.session.engine.warnings }
        warningsLogged = loaded.session.engine.warnings.count     // the loader printed those
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

    /// A model whose changes its place (a shared database, a server) did not take at a stop: kept on disk for the
    /// next start — how many and in which file when the storage says (nil: not said), and why.
    public struct PendingAtStop: Sendable {
        public let model: String
        public let count: Int?
        public let path: String?
        public let reason: String
    }

    /// Stores every model (at a stop signal): the models whose changes stay pending on disk, or the error when the
    /// store failed — for the front end that runs the server to word for its operator.
    public func storeAtExit() -> Result<[PendingAtStop], any Error> {
        guard let session = hosted?.session else { return .success([]) }
        reloadWatch?.cancel()
        for s in sessions.values { s.closeStreams() }
        do {
            return .success(try session.storeAtExit().map { p in
                let kept = session.pendingChanges(of: p.model)
                return PendingAtStop(model: p.model, count: kept?.count, path: kept?.path, reason: p.reason)
            })
        } catch {
            return .failure(error)
        }
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
            for ws in sessions.values { for c in ws.streams.values { c.send(": ping\n\n") } }
        }
    }

    /// When the streams were last pinged.
    private var lastPing = Date()
    /// When idle sessions were last swept (`sweepIdleWhenDue`).
    var lastSweep = Date.distantPast

    /// Whether this session must log in before anything is shown (a public listener or a proxy).
    func mustLogIn(_ ws: WebSession, _ request: WebRequest) -> Bool {
        guard options.token != nil, !ws.loggedIn else { return false }
        return request.forwarded || !ServeOptions.isLoopback(options.host)
    }

    /// What no request is answered past: another host (421), a proxied request without a token (403), a query
    /// that is not well formed (400: read as strictly as a form's body, never guessed at).
    func refusalOfAnyRequest(_ request: WebRequest) -> WebResponse? {
        if let host = request.host, !hostCheck.allows(host) { return WebPages.misdirected(host: host) }
        if request.forwarded, options.token == nil {
            return WebPages.message(403, "okit-run serve answers requests through a proxy only with --token-file.")
        }
        if !request.query.isEmpty, FormBody.decodeStrictly(request.query) == nil {
            return WebPages.message(400, "The address's fields are not well formed (a % without two hex digits, or text that is not UTF-8); nothing was changed.")
        }
        return nil
    }

    /// The answer to a form's POST that is refused whatever its body says (nil: read the body): another host, a
    /// proxied request without a token, or no live session (only the login form is posted without one). The
    /// server asks before it reads the body, so a stranger's megabyte costs neither its reading nor its parsing.
    public func refusalBeforeBody(_ request: WebRequest) -> WebResponse? {
        if let refused = refusalOfAnyRequest(request) { return refused }
        guard request.path != "/login" else { return nil }
        if let id = sessionId(request), sessions[id] != nil || isReturning(id) { return nil }
        return said(403, .sessionEnded)
    }

    /// Answers one request. The `Host` is checked first, then the proxy rule; static files, the login page and
    /// errors are answered without a session; a session is made only for a page of the app (web.md "Sessions").
    public func handle(_ request: WebRequest) -> WebResponse {
        guard let app = hosted?.session else { return WebPages.message(503, "The app is not loaded yet.") }
        if let refused = refusalOfAnyRequest(request) { return refused }
        switch (request.method, request.path) {
        case ("GET", "/static/okit.css"): return WebPages.staticFile(Stylesheet.css, type: "text/css; charset=utf-8")
        case ("GET", "/static/okit.js"): return WebPages.staticFile(Script.js, type: "text/javascript; charset=utf-8")
        case ("GET", "/static/okit-dev.css") where options.development != nil:
            return WebPages.staticFile(DevStylesheet.css, type: "text/css; charset=utf-8")
        case ("GET", "/static/okit-dev.js") where options.development != nil:
            return WebPages.staticFile(DevScript.js, type: "text/javascript; charset=utf-8")
        case ("GET", "/favicon.ico"): return WebPages.message(404, "No icon.")
        case ("GET", "/login"): return loginPage(request)
        case ("POST", "/login"): return login(request, app)
        default: break
        }
        sweepIdleWhenDue()
        if let id = sessionId(request), let ws = sessions[id] ?? returningSession(id, request, app) {
            ws.lastSeen = Date()
            ws.returned = true
            defer { logNewWarnings(app) }
            return route(request, ws, app)
        }
        defer { logNewWarnings(app) }
        return withNewSession(request, app)
    }

    func route(_ request: WebRequest, _ ws: WebSession, _ app: AppSession) -> WebResponse {
        // Anything but a GET may change what the session's next page shows: the engine answers it (a page's GET
        // publishes the fast answer again, WebApp+Page.swift).
        if request.method != "GET" { ws.leaveFastAnswers() }
        switch (request.method, request.path) {
        // A stream is no page: an EventSource would follow a redirect into the login form's HTML (web.md).
        case ("GET", "/events") where mustLogIn(ws, request): return said(403, .liveUpdatesNeedSession)
        case (_, _) where mustLogIn(ws, request): return WebPages.redirect("/login")
        case (_, _) where isFileRoute(request, ws): return fileAnswer(request, ws, app)
        case ("GET", "/theme.css"): return theme(ws)
        case ("GET", "/events"): return events(request, ws)
        case ("POST", "/command"): return command(request, ws, app)
        case ("POST", _) where request.path.hasPrefix("/dev/"): return devCommand(request, ws, app)
        case ("GET", "/"): return WebPages.redirect(LocationPath.url(ws.shell))
        case ("GET", _): return page(request, ws, app)
        case ("POST", _): return said(404, .nothingToPostTo)
        default:
            var refused = WebPages.message(405, "Only GET, HEAD and POST are answered.")
            refused.headers.append(("Allow", "GET, HEAD, POST"))
            return refused
        }
    }


    /// The session's theme as a stylesheet (the default theme for a request without a session).
    func theme(_ ws: WebSession?) -> WebResponse {
        let values = ws.map { ws in ws.shown?.app.themeValues ?? ((try? ws.snapshot())?.app.themeValues ?? []) } ?? []
        var r = WebResponse(status: 200, headers: [("Content-Type", "text/css; charset=utf-8"), ("Cache-Control", "no-store")],
                            body: Array(ThemeStylesheet.css(themeValues: values).utf8))
        r.headers += WebPages.securityHeaders
        return r
    }

    /// `GET /events?at=<the page's location>&v=<its version>`: the page's live-update stream (`TabPlaces`).
    func events(_ request: WebRequest, _ ws: WebSession) -> WebResponse {
        // Past a session's allowance its oldest stream is closed (a tab long gone, or one that reopens it later).
        while ws.streams.count >= options.maxStreamsPerSession, let oldest = ws.streams.keys.min() {
            ws.streams.removeValue(forKey: oldest)?.finish()
            ws.tabs.closed(oldest)
        }
        // The streams open, and those of this client address over all its sessions, in one pass.
        var open = 0, held = 0
        for s in sessions.values {
            open += s.streams.count
            if s.client == ws.client { held += s.streams.count }
        }
        guard open < options.maxStreams else {
            return said(503, .tooManyLivePages, "\(options.maxStreams)")
        }
        // One client address holds at most its connection cap of streams, over all its sessions: sessions made in
        // a loop cannot take every stream from the others. A trusted proxy that names no client carries everyone's.
        if !isTrustedProxy(ws.client), held >= options.maxClientConnections {
            return said(503, .tooManyLivePages, "\(options.maxClientConnections)")
        }
        let key = ws.nextStream
        ws.nextStream += 1
        let sid = ws.id
        let sink = EventSink(preamble: "retry: 2000\n: okit live updates\n\n") { [weak self] in
            Task { await self?.dropStream(sid, key) }
        }
        ws.streams[key] = sink
        let path = ws.streamPath(request.queryFields.last { $0.name == "at" }?.value)
        ws.tabs.opened(key, at: path)
        // A page already out of date when it opens its stream is told at once.
        if ws.streamOutOfDate(path: path, version: request.queryFields.last { $0.name == "v" }?.value) {
            sink.send("event: stale\ndata: \(ws.version)\n\n")
        }
        var response = WebResponse(status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"),
                                                          ("X-Accel-Buffering", "no")] + WebPages.securityHeaders, events: sink.events)
        response.sink = sink
        return response
    }

    /// Whether `client` is a `--trusted-proxy` address (in any of its spellings).
    func isTrustedProxy(_ client: String) -> Bool {
        !trustedProxies.isEmpty && trustedProxies.contains(HostCheck.canonicalAddress(client) ?? client)
    }

    func dropStream(_ session: String, _ key: Int) {
        sessions[session]?.streams[key] = nil
        sessions[session]?.tabs.closed(key)
    }
}
