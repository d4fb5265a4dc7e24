import CLua
import Foundation
import OKitEngine

/// How an app runs: where its data lives, its clock, its Lua limits.
public struct LuaAppOptions {
    /// The data folder (`--data`); file models live in `<data>/okit/data/`.
    public var dataFolder: URL?
    /// A virtual clock starting here (`--clock virtual --now …`); nil means the system clock.
    public var virtualNow: Date?
    /// Seed of ids and `math.random` under the virtual clock (`--seed`).
    public var seed: UInt64 = 0
    /// The whole standard library (`--unsafe`).
    public var unsafe = false
    /// Instructions per call from Swift into Lua (`--lua-budget`).
    public var luaBudget: Int64 = 100_000_000
    /// Memory limit of the Lua state in bytes (`--lua-memory`).
    public var luaMemory = 256 << 20
    /// Language that overrides `okit.locale` (`--lang`).
    public var language: String?
    /// Check every screen's bindings against the schema when the app loads (`--no-check` turns it off).
    public var checkBindings = true
    /// Load the declarations and models, then stop before the shell starts (`okit-run check` runs the check itself).
    public var checkOnly = false
    /// Where `print` goes.
    public var print: (String) -> Void = { StandardStreams.error(($0 + "\n")) }
    /// The passphrase encrypted models' key is derived from (`OKIT_PASSPHRASE`); nil: the key file.
    public var passphrase: String? = ProcessInfo.processInfo.environment["OKIT_PASSPHRASE"]
    /// The base URL of `http` and `encryptedHttp` models (`OKIT_ENDPOINT`); it overrides the model's and the
    /// app's `endpoint`.
    public var endpoint: String? = ProcessInfo.processInfo.environment["OKIT_ENDPOINT"]
    /// Sent as `Authorization: Bearer …` to HTTP endpoints (`OKIT_ENDPOINT_TOKEN`).
    public var endpointToken: String? = ProcessInfo.processInfo.environment["OKIT_ENDPOINT_TOKEN"]
    /// The total deadline of each HTTP request, in seconds.
    public var httpTimeout: TimeInterval = 10
    /// Restores backups made by another app (another `okit.app` id) too (`okit-run backup restore --force`).
    public var restoreOtherApp = false
    /// The storage kinds `okit.model(type, { storage = … })` may name (`StorageRegistry.builtIn`: file, transient,
    /// encrypted, http, encryptedHttp); register another here.
    public var storageKinds = StorageRegistry.builtIn

    public init() {}
}

/// An app failed to load: the message names file:line.
public struct AppLoadError: Error, CustomStringConvertible {
    public let message: String
    /// True when a model's storage failed (exit code 4) rather than the app's code (exit code 3).
    public var isStorage = false
    public var description: String { message }
}

/// A running okit app: one engine and one Lua state with the `okit` module, confined to one thread.
public final class LuaApp {
    public let engine: Engine
    public let lua: LuaState
    /// The app shell: declared screens, home or tabs, navigation.
    public let shell: AppShell
    /// The driver of the running app: the commands of screens.md for every front end.
    public private(set) lazy var driver = Driver(shell: shell, host: self)
    public let options: LuaAppOptions
    /// The app file and its folder (`require` root, chunk names relative to it).
    public private(set) var appFile: URL?
    public var appFolder: URL? { appFile?.deletingLastPathComponent() }
    /// The virtual clock, when the app runs on one.
    public let virtualClock: VirtualClock?

    var proxies: LuaRef!
    var luaMethods: [String: [String: LuaRef]] = [:]
    var declarationSites: [String: String?] = [:]
    var screenSites: [String: String?] = [:]
    var fileStorage: FileStorage?
    /// `okit.app { endpoint = … }`: the default base URL of HTTP models.
    var appEndpoint: String?
    /// Navigation Lua actions asked for, run after the current command (`LuaApp+Actions`).
    var deferredNavigation: [() throws -> Void] = []
    /// The `app` object Lua actions get.
    var navigatorRef: LuaRef?
    /// How many binding properties were given as Lua functions (their generated extension names).
    var functionBindingCount = 0
    /// Storages shared by several models (one HTTP storage per endpoint, sealed or not), by the kind's id.
    var sharedStorages: [String: ModelStorage] = [:]
    var appVersion: Int?
    var migrations: [(version: Int, fn: LuaRef)] = []
    var loading = false
    /// Set when a model's storage failed while the app loaded (exit code 4 instead of 3).
    var storageFailed = false
    var pendingLoaded: [Model] = []
    let timers = TimerQueue()
    /// True for a flow test's state: entities of other apps act in their own engine (`engine(of:)`): reads, writes and
    /// bindings (`okit.get`, `okit.set`, `okit.binding`) see that app's extensions, as in the app.
    public var drivesOtherApps = false
    /// `okit.app { authenticate = function() … end }`: answers the protection cover in the shell.
    var authenticateFn: LuaRef?
    /// `okit.app { autosave = seconds }`: the state is stored this often (on the app clock).
    public internal(set) var autosaveSeconds: Double?
    /// The protection timeout's timer that drops the keys of encrypted models.
    var keyDropTimer: TimerQueue.Timer?
    /// The declarations of `okit.app { … }` (kept for the screens layer).
    public internal(set) var appDeclaration: LuaValue?

    public init(options: LuaAppOptions = LuaAppOptions()) throws {
        self.options = options
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
        shell = AppShell(engine: engine)
        if let lang = options.language { engine.locale.language = lang }
        lua = try LuaState(memoryLimit: options.luaMemory)
        lua.budget = options.luaBudget
    }

    /// Opens the sandbox and the `okit` module (done by `load`; call it directly to use `okit` without an app file).
    public func prepare(appFolder: URL?) throws {
        var sandbox = LuaSandbox()
        sandbox.policy = options.unsafe ? .unsafe : .safe
        sandbox.appFolder = appFolder
        let clock = engine.clock
        sandbox.clock = { clock.now.timeIntervalSince1970 }
        sandbox.randomSeed = options.virtualNow != nil ? Int64(bitPattern: options.seed) : nil
        sandbox.print = options.print
        try sandbox.apply(to: lua)
        lua.hostPush {
            lua_createtable(lua.L, 0, 0)
            lua_createtable(lua.L, 0, 1)
        }
        lua.push("v")
        lua.rawSet(-2, "__mode")
        lua_setmetatable(lua.L, -2)
        proxies = lua.ref()
        defineTypes()
        installModule()
    }

    /// Loads and runs the app file: declarations run, models load; then migrations and `loaded` hooks run.
    /// Errors carry file:line.
    public func load(appFile url: URL) throws {
        appFile = url
        try prepare(appFolder: url.deletingLastPathComponent())
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw AppLoadError(message: "\(url.path): cannot read the app file")
        }
        loading = true
        defer { loading = false }
        do {
            try lua.run(source: String(decoding: data, as: UTF8.self), chunkName: url.lastPathComponent)
            try validateSchema()
            try finishLoading()
            if options.checkOnly {
                try readAppSettings()
                return
            }
            if options.checkBindings {
                try readAppSettings()
                // Problems stop the app (with the summary line); a clean check prints nothing.
                let check = checkApp()
                if !check.problems.isEmpty { throw AppLoadError(message: (check.problems + [check.summary]).joined(separator: "\n")) }
            }
            try startShell()
            startAutosave()
        } catch let e as LuaError {
            throw AppLoadError(message: e.message, isStorage: storageFailed)
        } catch let e as AppLoadError {
            throw e
        } catch let e as LuaRaise {
            throw AppLoadError(message: e.message)
        } catch {
            throw AppLoadError(message: "\(url.lastPathComponent): \(error)")
        }
    }

    /// Runs a Lua file with `okit`, the app's models and, when the app has screens, the global `app` (the
    /// driver) (`okit-run --script`).
    public func runScript(_ url: URL) throws {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw LuaRaise("cannot read script \(url.path)", withPosition: false)
        }
        installAppGlobal()
        try lua.run(source: String(decoding: data, as: UTF8.self), chunkName: url.lastPathComponent)
    }

    /// Runs Lua source in the app (tests, the shell).
    public func run(_ source: String, chunkName: String = "=chunk") throws {
        try lua.run(source: source, chunkName: chunkName)
    }

    func finishLoading() throws {
        let models = pendingLoaded
        pendingLoaded = []
        // Data stored by a newer version of the app is not taken (nor rewritten stamped older) by this one.
        for m in models {
            guard let stored = m.storedVersion, stored > engine.schemaVersion else { continue }
            let path = (try? (engine.storage(of: m.name) as? FileStorage)?.path(of: m.name)) ?? nil
            storageFailed = true
            throw AppLoadError(message: "okit.model(\"\(m.rootType.name)\"): \(path ?? "model \"\(m.name)\""): "
                               + FileStorage.newerMessage(stored: stored, app: engine.schemaVersion), isStorage: true)
        }
        for m in models {
            try migrate(m)
            try engine.runLoadedHooks(of: m)
        }
    }

    /// `okit.app { autosave = seconds }`: a repeating timer on the app clock that stores the state (a failure is
    /// reported like a timer's error; the next one tries again).
    func startAutosave() {
        guard let seconds = autosaveSeconds else { return }
        timers.schedule(at: engine.clock.now.addingTimeInterval(seconds), every: seconds) { [unowned self] in
            guard !shell.covered else { return }
            try storeState()
        }
    }

    /// Stores every model of the state (`quit`, end of a script, background, autosave). The `encryption` setting is
    /// applied first, so a change of it made without a screen command (a script, Lua code) reaches every file.
    public func storeState() throws {
        try applyEncryptionSettingBeforeStoring()
        try engine.storeState()
    }

    /// The `encryption` setting applied to the files (unless the keys are dropped: nothing sealed is touched then).
    func applyEncryptionSettingBeforeStoring() throws {
        if let s = fileStorage, !s.keysDropped { try applyEncryptionSetting() }
    }
}
