import Foundation
import OKitEngine

/// GET of a screen's URL: the shell goes where the URL says (reload, deep links, back and forward), the search in
/// the query applies, and the page is rendered from the session's live snapshot.
extension WebApp {
    func page(_ request: WebRequest, _ ws: WebSession, _ app: AppSession) -> WebResponse {
        let shell = ws.shell
        ws.leaveFastAnswers()
        // A covered session stays covered until its person answers the passphrase form (web.md "Sessions"), and
        // goes nowhere meanwhile: any other address is sent back to the covered page, so whether an entry of a
        // link exists (a screen shown, or a step that is gone) is not told to whoever holds the session.
        if shell.covered {
            leaveRemovedEntities(ws, app)          // a screen of an entry deleted meanwhile is left first, as `arrive` does
            if request.path.removingTrailingSlash != LocationPath.path(shell.location) { return WebPages.redirect(LocationPath.url(shell)) }
        }
        let query = request.queryFields
        func q(_ name: String) -> String? { query.last { $0.name == name }?.value }
        guard let here = arrive(ws, at: request.path, app) else {
            return said(404, .noSuchScreen, link: LocationPath.path(shell.location))
        }
        if here != request.path.removingTrailingSlash {
            return WebPages.redirect(request.query.isEmpty ? here : here + "?" + request.query)
        }
        applySearch(text: q("text"), scope: q("scope").flatMap { $0.isEmpty ? nil : $0 }, ws)
        let offset = max(0, q("offset").flatMap { Int($0) } ?? 0)
        if ws.watch.offset != offset { ws.watch.offset = offset; ws.moved = true }
        let generation = fastAnswers.generation
        let snapshot: Snapshot
        do { snapshot = try ws.snapshot() } catch {
            return said(500, .screenNotShown, BrowserAdvice.message(for: error))
        }
        return html(shownPage(ws, app, snapshot, at: here, query: request.query, offset: offset, generation: generation), ws)
    }

    /// The search the URL names, applied to the top screen: `text` (and `scope`) as the search form sends them; a URL
    /// with neither shows the list unsearched (a tab's link, an address typed or changed by hand: the URL names the
    /// place, web.md), where a list searched before would have stayed so.
    func applySearch(text: String?, scope: String?, _ ws: WebSession) {
        let shell = ws.shell
        do {
            if let text {
                // The search of the screen shown now: after Back the page shown last was the screen left, and the
                // list's kept search was applied (and recorded) again.
                let current = ws.moved ? (try? ws.snapshot())?.screen.search : ws.shown?.screen.search
                // No scope in the URL is the first ("All"), as `LocationPath.url` leaves it out.
                let scope = scope ?? (current.map { !$0.scopes.isEmpty && $0.scope != $0.scopes[0] } == true ? "1" : nil)
                if current?.text != text || (scope != nil && current?.scope != scope) {
                    try search(text, scope: scope, ws)
                }
            } else if let scope {
                try search("", scope: scope, ws)
            } else if shell.top?.searchQuery != nil {
                try search("", scope: "1", ws)
            }
        } catch ShellError.noScope where scope != nil {
            // A scope the list does not have (`scope=2` of one with only All): the URL's text alone applies.
            applySearch(text: text, scope: nil, ws)
        } catch { ws.error = WebApp.personWords(for: error, shell.engine) ?? "\(BrowserAdvice.message(for: error))" }
    }

    /// Searches the top screen; while the session records (`--dev`), as the `search` command, so the test has the
    /// line (`app:search("retorno")`) and replays the list the person saw.
    func search(_ text: String, scope: String?, _ ws: WebSession) throws {
        if ws.recording != nil {
            var args: [String: Value] = ["text": .string(text)]
            if let scope { args["scope"] = .string(scope) }
            try ws.driver.run("search", args)
        } else {
            try ws.shell.search(text, scope: scope)
        }
        ws.moved = true
    }

    /// The page of `snapshot` at `here` for the session, noted as shown: the page rendered for it last while the
    /// screen is unchanged (same version, place and query), else the shared page of this place and snapshot, or
    /// one of its own when it shows a notice, an error, text the person typed and a cell refused (or into a dialog
    /// whose answer came out of date), a recording bar or
    /// a cover. A shared page without a query is published as the session's fast answer, made in `generation`
    /// (FastAnswers).
    func shownPage(_ ws: WebSession, _ app: AppSession, _ snapshot: Snapshot, at here: String, query: String, offset: Int,
                   generation: UInt64) -> RenderedPage.Body {
        let key = RenderedPage.Key(version: ws.version, csrf: ws.csrf, place: here, query: query, recordingLines: ws.recording?.lineCount)
        // Text this person typed and a cell refused is shown on their page alone (TypedTexts).
        let typed = ws.typed.shown(at: here, snapshot)
        let dialogTyped = ws.dialogTyping == nil ? nil : DialogTyping.shown(&ws.dialogTyping, snapshot.alert)
        if ws.notice == nil, ws.error == nil, typed.isEmpty, dialogTyped == nil, let kept = ws.renderedPage, kept.key == key {
            publishFastAnswer(ws, kept, generation: generation)
            return kept.body
        }
        let plain = ws.notice == nil && ws.error == nil && typed.isEmpty && dialogTyped == nil
        let rendered: RenderedPage.Body
        if plain, ws.recording == nil, options.development == nil, !snapshot.app.covered {
            // The same page for everyone shown this snapshot here: rendered once, each session's values put in.
            // Back and the breadcrumb carry the searches of the screens below, which the snapshot does not show.
            let below = ws.shell.stackBelowTop.map { LocationPath.searchQuery($0) ?? "" }.joined(separator: "&&")
            rendered = .shared(sharedPages.page(place: "\(here)?\(query)#\(below)", snapshot: snapshot) { csrf, version in
                let context = pageContext(ws, app, snapshot, path: here, query: query, offset: offset, as: (csrf, version))
                return PageRenderer.render(snapshot, context).bytes()
            })
        } else {
            var context = pageContext(ws, app, snapshot, path: here, query: query, offset: offset)
            context.typed = typed
            context.dialogFields = dialogTyped ?? []
            rendered = .own(PageRenderer.render(snapshot, context).bytes())
        }
        ws.notice = nil
        ws.error = nil
        ws.renderedPage = plain ? RenderedPage(key: key, body: rendered) : nil
        if let kept = ws.renderedPage { publishFastAnswer(ws, kept, generation: generation) }
        return rendered
    }

    /// Closes the session's screens whose entity another session deleted (the person lands on the nearest screen
    /// that still exists, with a notice, as a URL naming a gone entity does), and a dialog over such an entity;
    /// true when it moved or a dialog closed (the next page says so). A notice waiting
    /// says more (the session's change lost to that deletion: storage.md "Conflicts"): it is not replaced.
    @discardableResult
    func leaveRemovedEntities(_ ws: WebSession, _ app: AppSession) -> Bool {
        let closed = closeRemovedDialogs(ws, app)
        let place = LocationPath.path(ws.shell.location), entry = ws.shell.top?.context
        guard (try? ws.shell.leaveRemovedEntities()) == true else { return closed }
        if let entry, entry.state == .removed { ws.leftDeletedEntry = (place, entry.type.name) }
        // The person's own change of that entry went with it: said so, with the change (storage.md "Conflicts").
        if ws.notice == nil, let entry, entry.state == .removed, let change = ws.lastChange, change.entry === entry {
            ws.notice = app.engine.deletedEntryNotice(type: change.type, cell: change.cell, value: change.value, stored: true)
        }
        if ws.notice == nil { ws.notice = app.engine.word(.screenGone) }
        ws.moved = true
        return true
    }

    /// Closes a dialog over an entry deleted meanwhile (a row's More sheet), said in the person's words ("That is
    /// not on this page (any more)"); true when one closed.
    @discardableResult
    func closeRemovedDialogs(_ ws: WebSession, _ app: AppSession) -> Bool {
        guard ws.shell.closeAlertsOverRemovedEntries() else { return false }
        if ws.notice == nil, !ws.shell.covered { ws.notice = app.engine.word(.notOnThisPage) }
        ws.moved = true
        return true
    }

    /// Moves the session's shell to the location `path` names (recording the navigation while it records); the
    /// path of where it is then, or nil when `path` names no screen of the app. A GET of the page the session is
    /// at — a thousand viewers' re-GETs after a write — moves nothing, and its path is not parsed.
    func arrive(_ ws: WebSession, at path: String, _ app: AppSession) -> String? {
        let shell = ws.shell
        leaveRemovedEntities(ws, app)
        let before = shell.location
        let beforePath = LocationPath.path(before)
        if path == beforePath { return beforePath }
        if let now = arriveFromReloadedPage(ws, at: path) { return now }      // development mode's live reload
        guard let parsed = LocationPath.location(path, home: shell.home, homeStack: { ShellLocation.Step(screen: $0, entity: nil) })
        else { return nil }
        let (target, truncated) = parsed
        if ws.recording != nil, LocationPath.path(target) != beforePath {
            recordNavigation(to: target, path: path.removingTrailingSlash, ws, app)
        }
        do {
            // A notice waiting says more (a live reload names the screen that went): it is not replaced.
            if !(try shell.go(to: target)) || truncated, ws.notice == nil {
                ws.notice = app.engine.word(.screenGone)
            }
        } catch {
            ws.error = WebApp.personWords(for: error, app.engine) ?? BrowserAdvice.message(for: error)
            ws.moved = true
        }
        let after = shell.location
        if after != before { ws.moved = true }
        return LocationPath.path(after)
    }

    /// A page's answer for a session: its own body, or a shared page with the session's token and version put in.
    func html(_ body: RenderedPage.Body, _ ws: WebSession) -> WebResponse {
        switch body {
        case .own(let bytes): return WebPages.html(bytes)
        case .shared(let page): return WebPages.html(sharedPages.answer(page, csrf: ws.csrf, version: ws.version))
        }
    }

    /// What the page needs besides the snapshot; `shared` gives the stand-ins a shared page carries for the
    /// session's CSRF token and version (SharedPages), else the session's own.
    func pageContext(_ ws: WebSession, _ app: AppSession, _ snapshot: Snapshot, path: String, query: String, offset: Int,
                     as shared: (csrf: String, version: String)? = nil) -> PageContext {
        let shell = ws.shell
        let csrf = shared?.csrf ?? ws.csrf, version = shared?.version ?? String(ws.version)
        let location = shell.location
        var context = PageContext(locationPath: query.isEmpty ? path : path + "?" + query, csrfToken: csrf,
                                  version: version, notice: ws.notice, error: ws.error)
        // Back and the breadcrumb: the screens below this one on its stack (Back to a searched list keeps its search).
        var below = location
        let under = shell.stackBelowTop
        let belowSearch = LocationPath.searchQuery(under.last).map { "?" + $0 } ?? ""
        if var top = below.presented.popLast() {
            top.removeLast()
            if !top.isEmpty { below.presented.append(top); context.backURL = LocationPath.path(below) + belowSearch }
        } else if below.stack.count > 1 {
            below.stack.removeLast()
            context.backURL = LocationPath.path(below) + belowSearch
            (context.breadcrumb, context.breadcrumbSteps) = WebApp.breadcrumb(location, under)
        }
        if snapshot.screen.rowCount > offset + snapshot.screen.sections.reduce(0, { $0 + $1.rows.count }) {
            let search = LocationPath.searchQuery(shell.top).map { $0 + "&" } ?? ""
            context.moreRowsURL = path + "?" + search + "offset=\(offset + options.pageRows)"
        }
        context.rowOffset = offset
        context.hasMenu = shell.menuId != nil
        context.appTitle = app.appId
        if !snapshot.app.covered { context.imageURL = WebApp.imageURL(version: version) }
        context.webCellURL = WebApp.webCellURL(version: version)
        // The upload's CSRF token rides in its URL: it is checked before the multipart body is read.
        context.backupUploadURL = "/backups?csrf=" + csrf
        // The kind's page takes what it needs from the screen's declaration (row links, tappable cells, …).
        context.kinds = kinds
        if options.development != nil {
            context.recordBar = RecordBar(recording: ws.recording != nil, lineCount: ws.recording?.lineCount ?? 0,
                                          lastLine: ws.recording?.lastLine, loadError: loadError,
                                          loadWarnings: pageWarnings)
        }
        let place = WebPagePlace(shell: shell, snapshot: snapshot, location: location)
        context.adoptLanguage(of: place)      // <html lang>, the built-in words, the breadcrumb's titles: every kind
        kinds.page(for: snapshot.screen.kind).prepare(&context, place)
        return context
    }
}

extension WebApp {
    /// The most screens below the top one a breadcrumb links to besides the tab's first; the ones between are one "…"
    /// (a page's breadcrumb grows with its depth, not with its square).
    static let breadcrumbScreens = 4

    /// The breadcrumb of a location: the tab's first screen and the last `breadcrumbScreens` below the top one, each
    /// linking to its place with its search (`under`: the screens below the top one), titled by screen id here;
    /// with each entry's place on the stack (-1: the "…" between).
    static func breadcrumb(_ location: ShellLocation, _ under: [any ShellScreen]) -> ([(title: String, url: String)], [Int]) {
        let count = location.stack.count - 1
        let kept = [0] + Array(max(1, count - breadcrumbScreens)..<max(1, count))
        var crumbs: [(title: String, url: String)] = []
        var steps: [Int] = []
        for i in kept {
            if let last = steps.last, i > last + 1 { crumbs.append((title: "…", url: "")); steps.append(-1) }
            let place = ShellLocation(tab: location.tab, stack: Array(location.stack.prefix(i + 1)))
            let search = i < under.count ? LocationPath.searchQuery(under[i]).map { "?" + $0 } ?? "" : ""
            crumbs.append((title: location.stack[i].screen, url: LocationPath.path(place) + search))
            steps.append(i)
        }
        return (crumbs, steps)
    }
}

extension String {
    var removingTrailingSlash: String { count > 1 && hasSuffix("/") ? String(dropLast()) : self }
}
