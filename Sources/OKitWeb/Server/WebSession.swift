import Foundation
import OKitEngine

/// One browser's session (web.md "Sessions"): its own app shell and driver over the shared engine, its CSRF
/// token, the version of the page it was last shown, a notice or error for the next page, its login and its live
/// update streams. Whatever of it a page shows withdraws its fast answer when it changes (FastAnswers).
final class WebSession {
    /// The cookie's value; a new one at login (session fixation).
    var id: String { didSet { fastAnswers.withdraw(oldValue) } }
    var csrf: String { didSet { leaveFastAnswers() } }
    /// The client address it was made for, and whether its browser came back with the cookie since (a session
    /// that never did is dropped soon, `ServeOptions.newSessionSeconds`).
    var client = "local"
    var returned = false
    /// This browser's shell over the app, its driver and the watch of its screen (new ones when the app is
    /// reloaded in development mode, `attach`).
    private(set) var shell: AppShell
    private(set) var driver: Driver
    private(set) var watch: ScreenWatch
    var lastSeen: Date
    var loggedIn = false { didSet { leaveFastAnswers() } }
    /// The snapshot of the last page rendered, and its version (a page's forms carry it).
    var shown: Snapshot?
    /// The watch's revision of `shown` (`ScreenWatch.Revision`).
    private var shownRevision: ScreenWatch.Revision?
    var version = 0 { didSet { leaveFastAnswers() } }
    /// The last page rendered without a notice or error, by version, place and query: sent again while the
    /// screen is unchanged.
    var renderedPage: RenderedPage?
    /// Shown once on the next page.
    var notice: String? { didSet { if notice != nil { leaveFastAnswers() } } }
    var error: String? { didSet { if error != nil { leaveFastAnswers() } } }
    /// The navigation changed since the last page: the next snapshot is computed afresh.
    var moved = true { didSet { if moved { leaveFastAnswers() } } }
    /// What this person typed into cells that refused it, shown in their fields on this session's pages only
    /// (`TypedTexts`).
    var typed = TypedTexts() { didSet { if typed != oldValue { leaveFastAnswers() } } }
    /// What this person typed into a dialog whose answer came out of date, shown in its fields on this session's
    /// pages only while that dialog is shown (`DialogAnswers`).
    var dialogTyping: DialogTyping? { didSet { if dialogTyping != oldValue { leaveFastAnswers() } } }
    /// Live update streams (one per browser tab), and the path each one's page shows (`TabPlaces`).
    var streams: [Int: EventSink] = [:]
    let tabs = TabPlaces()
    /// The path of the shell's location when the watch last computed its snapshot (`followTabs`).
    var watchedPath: String?
    var nextStream = 0
    /// Development mode: this browser's recording of a flow test while it records (its driver's `flowRecorder`).
    var recording: WebRecording? { didSet { leaveFastAnswers() } }
    /// Development mode: the place a live reload took this session from, while its pages may still ask for it
    /// (`ReloadMove`).
    var reloadMove: ReloadMove?
    /// Where this session's re-GETs may be answered without the engine (WebApp's store).
    let fastAnswers: FastAnswers
    /// The backups of this session's shell, with its wrong passwords counted (held here: the shell's reference is
    /// weak).
    private(set) var backupGuard: BackupPasswordGuard
    /// Called when a push made the fast answers out of date and their refresh is to be scheduled.
    var onFastAnswersDue: (() -> Void)?

    init(id: String, csrf: String, shell: AppShell, driver: Driver, watch: ScreenWatch, now: Date, app: AppSession,
         fastAnswers: FastAnswers = FastAnswers()) {
        self.fastAnswers = fastAnswers
        self.id = id
        self.csrf = csrf
        self.shell = shell
        self.driver = driver
        self.watch = watch
        self.lastSeen = now
        backupGuard = BackupPasswordGuard(app)
        if shell.backupService != nil { shell.backupService = backupGuard }
    }

    /// Puts the guard back as the shell's backups: a restore starts every shell again with the app's own
    /// (`AppSession.start`), which would count no wrong password.
    func guardBackups() {
        if let s = shell.backupService, s !== backupGuard { shell.backupService = backupGuard }
    }

    /// Moves this session onto another shell (development mode's live reload): the old screen watch stops, a
    /// recording goes on with the new driver, and the next page is computed afresh.
    func attach(shell: AppShell, driver: Driver, watch: ScreenWatch, app: AppSession) {
        self.watch.cancel()
        tabs.forgetKept()               // what they watch is the old app's
        backupGuard = BackupPasswordGuard(app)
        if shell.backupService != nil { shell.backupService = backupGuard }
        driver.flowRecorder = self.driver.flowRecorder
        self.shell = shell
        self.driver = driver
        self.watch = watch
        watch.onStale = { [weak self] in self?.screenWentStale() }
        moved = true
        renderedPage = nil
    }

    /// The current snapshot; a new version when it differs from the one shown last.
    func snapshot() throws -> Snapshot {
        followTabs()
        let s = try watch.snapshot(fresh: moved)
        moved = false
        // The watch says when it gave the same snapshot again, or the next of a group's (a different one): a
        // thousand viewers of one list are not each compared with the page before after every write.
        let revision = watch.revision
        let changed: Bool
        if let before = shownRevision, shown != nil, revision == before {
            changed = false
        } else if let before = shownRevision, shown != nil, revision.follows(before) {
            changed = true
        } else {
            changed = s != shown
        }
        shownRevision = revision
        if changed {
            shown = s
            version += 1
        }
        return s
    }

    /// Set while this session's own command runs: its page is answered by the redirect, not told to reload.
    var runningCommand = false
    /// The last screen this session was taken from because its entry was deleted: its path and the entry's type. A
    /// value posted from that page afterwards is told the entry was deleted (`WebApp.changeOfDeletedEntry`).
    var leftDeletedEntry: (path: String, type: String)?
    /// This session's last value stored by `set`: the entry its screen showed, the cell as titled and the value. When
    /// someone else deletes that entry, the person is told their change went with it (not only that the screen is gone).
    var lastChange: StoredChange?

    /// Tells every open page of this session that its screen went stale (a cover, the app offline or back, a
    /// reload: every page changes). First every fast answer made before
    /// is out of date: no browser told of a write is answered a page from before it.
    func pushStale() {
        if fastAnswers.bump() { onFastAnswersDue?() }
        guard !runningCommand else { return }
        for c in streams.values { c.send("event: stale\ndata: \(version)\n\n") }
    }

    /// The engine answers this session's next GET (something it shows changed).
    func leaveFastAnswers() {
        fastAnswers.withdraw(id)
    }

    func closeStreams() {
        for c in streams.values { c.finish() }
        streams = [:]
        tabs.closedAll()
    }
}

/// A page a session was shown, kept to be sent again while its screen is unchanged: its own body, or the shared
/// page it was answered from (SharedPages) — a thousand viewers of one list then keep one body, not a thousand.
struct RenderedPage {
    enum Body {
        case own([UInt8])
        case shared(SharedPages.Page)
    }
    /// What a page was rendered for: the session's version, the place, the query, a recording's length, and the
    /// CSRF token a page of its own carries (a login gives a new one: a covered page kept from before it carried the
    /// old one, so every Unlock from its reloads was refused).
    struct Key: Equatable {
        let version: Int
        let csrf: String
        let place: String
        let query: String
        let recordingLines: Int?
    }
    let key: Key
    let body: Body
}

/// Random tokens for cookies and CSRF fields: 128 bits from the system's generator, as hex.
enum RandomToken {
    static func make() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(format: "%016llx", g.next() as UInt64) }.joined()
    }

    /// Compares two tokens in constant time (for their length).
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in x.indices { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}

/// A value a session stored into an entry (`WebSession.lastChange`).
struct StoredChange {
    weak var entry: Entity?
    let type: String
    let cell: String
    let value: String
}
