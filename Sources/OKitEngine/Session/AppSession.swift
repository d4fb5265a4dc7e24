import Foundation

/// One running app, without the language it was written in: the engine and its models, their storage, the app
/// shells (one per person), the timers and autosave, protection and the key drop, the encryption setting,
/// backups, relaunch and storing at exit. The declaring side (the Lua bridge) declares entities, models and
/// screens into it and supplies callbacks (`SessionCallbacks`); every front end — the terminal shell, JSON
/// lines, flow tests, `okit-run`'s subcommands, the web server — asks it for snapshots and sends it commands
/// through a `Driver`.
///
/// A session is confined to one thread (or one actor): the engine is synchronous and its commands run one at a
/// time.
public final class AppSession {
    public let engine: Engine
    public let options: SessionOptions
    /// The first app shell (the terminal's, the JSON-lines driver's, a flow test's).
    public let shell: AppShell
    /// The driver of the first shell.
    public private(set) lazy var driver = Driver(shell: shell, host: self)
    /// Every shell over this session's engine, the first one first (`makeShell()` adds one per person).
    public internal(set) var shells: [AppShell]
    /// The shell whose command runs now (navigation asked for by app code goes there).
    public internal(set) var activeShell: AppShell
    /// The virtual clock, when the app runs on one.
    public let virtualClock: VirtualClock?
    /// Timers on the app clock: the app's own (`okit.after`, `okit.every`), autosave, the key drop.
    public let timers = TimerQueue()
    public var callbacks = SessionCallbacks()
    /// The app's id (`okit.app { id }`, else the app file's folder name): backups are made for it.
    public var appId = "app"
    /// The models whose data a newer app version stored, loaded only to be replaced by a restore
    /// (`SessionOptions.restoreOverNewer`): the restore keeps the old data whole.
    public var newerData: [String] = []
    /// The app's defaults for model options, by name (`okit.app { endpoint = …, database = … }`): a kind reads
    /// them when a model has none (`StorageHost.appDefault(_:)`).
    public var appStorageDefaults: [String: String] = [:]
    /// Fields of shared models another process stored first, in the order they were found (`app:conflicts()`).
    public internal(set) var conflicts: [ConflictRecord] = []
    /// Called on any thread when another process announced a change to a shared model (the web front end
    /// applies it at once and pushes the stale pages).
    public var onSharedModelChange: (@Sendable () -> Void)? {
        get { nil }
        set { sharedChangeSignal.set(newValue) }
    }
    let sharedChangeSignal = SharedChangeSignal()
    /// Set while a front end runs a command it checked against what its person saw after following the shared
    /// models itself (`runChecked`): the command does not follow them again before it runs.
    var followedForCommand = false
    /// Store the state this often, in seconds on the app clock (`okit.app { autosave }`).
    public var autosaveSeconds: Double?
    /// The home screen (or tabs) and the menu every shell starts at.
    public private(set) var home: [String] = []
    public private(set) var menu: String?

    /// The data folder's file storage, once a model needed it (its lock is held while it is open).
    public internal(set) var fileStorage: FileStorage?
    /// Storages shared by several models (one HTTP storage per endpoint, sealed or not), by the kind's id.
    var sharedStorages: [String: ModelStorage] = [:]
    /// The protection timeout's timer that drops the keys of encrypted models.
    var keyDropTimer: TimerQueue.Timer?
    var autosaveTimer: TimerQueue.Timer?
    /// The failure that autosave last reported (nil: it works), so a streak of failures is said once.
    var autosaveFailure: String?

    public init(options: SessionOptions = SessionOptions()) {
        self.options = options
        AtomicFile.maxFileSize = options.maxFileSize
        let clock: AppClock
        if let start = options.virtualNow {
            let v = VirtualClock(start: start)
            virtualClock = v
            clock = v
        } else {
            virtualClock = nil
            clock = SystemClock()
        }
        let ids: IdGenerator = options.virtualNow != nil ? SeededIds(seed: options.seed) : RandomIds()
        engine = Engine(schema: Schema(), clock: clock, ids: ids)
        if let lang = options.language { engine.locale.language = lang }
        shell = AppShell(engine: engine, kinds: options.screenKinds)
        shells = [shell]
        activeShell = shell
        for c in driver.table.shadowed {
            engine.warn("screen kind \(c) has the name of a command of the driver's own, which runs instead")
        }
    }

    /// Starts every shell at home (`ids`: one screen, or tabs) with the menu, and applies the encryption setting.
    public func start(home ids: [String], menu: String?) throws {
        home = ids
        self.menu = menu
        for s in shells {
            if options.dataFolder != nil { s.backupService = self }
            try s.start(home: ids, menu: menu)
        }
    }

    /// Starts every shell at home again (relaunch, after a restore).
    func restart() throws {
        guard !home.isEmpty else { return }
        try start(home: home, menu: menu)
        try applyEncryptionSetting()
    }

    /// Another shell over the same engine and models — one per person (the web front end's sessions): the same
    /// declared screens, settings bindings and themes, its own navigation, edit mode, search, alerts and cover,
    /// started at home.
    public func makeShell() throws -> AppShell {
        let s = AppShell(engine: engine, kinds: options.screenKinds)
        for id in shell.declarationOrder {
            if let d = shell.declaration(id) { try s.declare(d) }
        }
        s.settingsBindings = shell.settingsBindings
        s.settingsContextPath = shell.settingsContextPath
        s.themes = shell.themes
        if options.dataFolder != nil { s.backupService = self }
        if !home.isEmpty { try s.start(home: home, menu: menu) }
        shells.append(s)
        return s
    }

    /// Forgets a shell made by `makeShell()` (a person left); the models are untouched.
    public func dropShell(_ s: AppShell) {
        guard s !== shell else { return }
        shells.removeAll { $0 === s }
        if activeShell === s { activeShell = shell }
    }

    /// Stores every model of the state (`quit`, end of a script, background, autosave). The `encryption` setting is
    /// applied first, so a change of it made without a screen command (a script, app code) reaches every file.
    public func storeState() throws {
        try applyEncryptionSettingBeforeStoring()
        try engine.storeState()
    }

    /// Whether a person uses the first shell. A front end that gives every person a shell of their own (the web)
    /// sets it to false, so that the first shell's (never covered) state does not keep the keys in memory.
    public var firstShellInUse = true

    /// The shells people use.
    var shellsInUse: [AppShell] { firstShellInUse ? shells : Array(shells.dropFirst()) }

    /// True when every shell in use is covered by protection (and there is one).
    var allCovered: Bool { !shellsInUse.isEmpty && shellsInUse.allSatisfy(\.covered) }
}
