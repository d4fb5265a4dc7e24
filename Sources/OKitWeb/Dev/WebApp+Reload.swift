import Foundation
import OKitEngine

/// Makes the app from its files: at start (`nil`), and at every live reload with what the running app hands over
/// (its models in memory, its data folder). A failure's message names file:line.
public typealias WebAppMaker = @Sendable (ReloadHandover?) throws -> WebHostedApp

/// Development mode's live reload (web.md "Live reload"): when a watched file of the app changes, the app's
/// declarations load again into a new app that takes over the models in memory (`AppSession.handOver`); every
/// browser session is moved onto it at its place (else the nearest screen, with a notice) and every open page is
/// pushed. When the files do not load, the last app that did keeps serving and every page shows the error.
extension WebApp {
    /// Watches the app's files (`AppFolderWatch`) every `interval` and reloads the app when one changed; nothing
    /// outside development mode.
    public func watchForReload(every interval: Duration = .milliseconds(250), _ make: @escaping WebAppMaker) {
        guard let dev = options.development, reloadWatch == nil else { return }
        let watch = AppFolderWatch(folder: dev.app.deletingLastPathComponent())
        reloadWatch = Task.detached { [weak self] in
            var last = watch.stamps()
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let now = watch.stamps()
                guard now != last else { continue }
                last = now
                await self?.reload(make)
            }
        }
    }

    /// Stops watching the app's files.
    public func stopWatching() {
        reloadWatch?.cancel()
        reloadWatch = nil
    }

    /// Why the app's files did not load at the last reload, or nil.
    public var reloadError: String? { loadError.map { "\($0.location.map { $0 + ": " } ?? "")\($0.message)" } }

    /// Loads the app again and swaps it in; returns whether it loaded. On a failure the running app stays and
    /// every page shows the error (logged on stderr too); on success every session is moved onto the new app.
    @discardableResult
    public func reload(_ make: WebAppMaker) -> Bool {
        guard let old = hosted else { return false }
        let fresh: WebHostedApp
        do {
            let handover = try old.session.handOver()
            fresh = try make(handover)
        } catch {
            let message = BrowserAdvice.message(for: error)
            let folder = options.development?.app.deletingLastPathComponent()
            let error = DevLoadError(message: message, appFolder: folder)
            loadError = error
            log("okit-run: the app did not load again; the last version that loaded keeps serving:\n\(error.located)")
            pushEveryPage()
            return false
        }
        install(fresh)
        for ws in sessions.values { move(ws, to: fresh.session) }
        if loadError != nil { log("okit-run: the app loads again") }
        loadError = nil
        log("okit-run: reloaded \(options.development?.app.lastPathComponent ?? "the app")")
        pushEveryPage()
        return true
    }

    /// Every open page fetches itself again (its cached page would not show the overlay's change).
    func pushEveryPage() {
        for ws in sessions.values {
            ws.renderedPage = nil
            ws.moved = true
            ws.pushStale()
        }
    }

    /// Moves a browser session onto the reloaded app at the place it was, with what the person set there (edit
    /// mode, searches, a revealed row) and the dialog open over it; where a screen or row no longer exists, the
    /// nearest one that does is shown with a notice, and a dialog that cannot be opened again says it closed.
    func move(_ ws: WebSession, to app: AppSession) {
        let old = ws.shell
        let place = ws.shell.location
        let theme = ws.shell.themeOverride
        let state = ws.shell.viewState
        let seen = ws.shown
        var made: AppShell?
        do {
            let shell = try app.makeShell()
            made = shell
            shell.keepOpenedPlaces(of: ws.shell)
            shell.themeOverride = theme
            ws.attach(shell: shell, driver: Driver(shell: shell, host: app), watch: app.watch(shell, limit: options.pageRows), app: app)
            let kept = try shell.go(to: place)
            let closed = shell.restore(state)
            app.keepCover(of: old, on: shell)       // a covered person stays covered across the reload
            let title = (try? ws.snapshot())?.screen.title
            ws.reloadMove = nil
            if !kept {
                let notice = ReloadNotice.lostPlace(was: place, now: shell.location, title: title,
                                                    words: app.engine.builtInWords, declared: { shell.declaration($0) != nil })
                ws.notice = notice
                ws.reloadMove = ReloadMove(path: LocationPath.path(place), notice: notice, seen: seen,
                                           labelled: seen.map { WebApp.labelledCells(of: $0.screen.id, in: old) } ?? [])
            } else if let title = closed.first {
                ws.notice = app.engine.word(.reloadDialogClosed, title)
            }
            if let recorder = ws.recording?.recorder {
                let lost = kept ? nil : ReloadNotice.lostStep(was: place, now: shell.location)?.screen
                for line in ReloadMove.lines(from: place, to: shell.location, lost: lost, title: title,
                                             closed: closed.isEmpty ? nil : seen?.alert, words: app.engine.builtInWords) {
                    recorder.append(line: line)
                }
            }
        } catch {
            if let made { app.keepCover(of: old, on: made); ws.moved = true }
            ws.error = app.engine.word(.reloadPageNotShown, BrowserAdvice.message(for: error))
        }
    }
}

/// The notice of a session whose place did not survive a reload.
enum ReloadNotice {
    /// "The screen “bookDetail” no longer exists after the reload; showing “Books”." in the app's language. The
    /// screen named is the first one of the old place that is not open now: its screen is no longer `declared`
    /// (removed or renamed), else the row it showed is gone.
    static func lostPlace(was: ShellLocation, now: ShellLocation, title: String?, words: BuiltInWords,
                          declared: (String) -> Bool) -> String {
        guard let lost = lostStep(was: was, now: now) else { return words(.screenGone) }
        let shown = title ?? now.stack.last?.screen ?? ""
        return words(declared(lost.screen) ? .reloadRowGone : .reloadScreenGone, lost.screen, shown)
    }

    /// The first step of the old place that is not open now.
    static func lostStep(was: ShellLocation, now: ShellLocation) -> ShellLocation.Step? {
        let before = was.stack + was.presented.flatMap { $0 }
        let after = now.stack + now.presented.flatMap { $0 }
        return zip(before, after).first(where: { $0 != $1 })?.0 ?? before.dropFirst(after.count).first
    }
}
