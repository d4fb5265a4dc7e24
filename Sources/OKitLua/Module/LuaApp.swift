import CLua
import Foundation
import OKitEngine

/// How an app runs: its session's options (data folder, clock, settings from the environment) and its Lua
/// limits.
public struct LuaAppOptions {
    /// The session's options; the properties below read and write them.
    public var session = SessionOptions()
    /// The data folder (`--data`); file models live in `<data>/okit/data/`.
    public var dataFolder: URL? { get { session.dataFolder } set { session.dataFolder = newValue } }
    /// A virtual clock starting here (`--clock virtual --now …`); nil means the system clock.
    public var virtualNow: Date? { get { session.virtualNow } set { session.virtualNow = newValue } }
    /// Seed of ids and `math.random` under the virtual clock (`--seed`).
    public var seed: UInt64 { get { session.seed } set { session.seed = newValue } }
    /// The whole standard library (`--unsafe`).
    public var unsafe = false
    /// Instructions per call from Swift into Lua (`--lua-budget`).
    public var luaBudget: Int64 = 100_000_000
    /// Memory limit of the Lua state in bytes (`--lua-memory`).
    public var luaMemory = 256 << 20
    /// Language that overrides `okit.locale` (`--lang`).
    public var language: String? { get { session.language } set { session.language = newValue } }
    /// Check every screen's bindings against the schema when the app loads (`--no-check` turns it off).
    public var checkBindings = true
    /// Load the declarations and models, then stop before the shell starts (`okit-run check` runs the check itself).
    public var checkOnly = false
    /// Where `print` goes.
    public var print: (String) -> Void = { StandardStreams.error(($0 + "\n")) }
    /// The passphrase encrypted models' key is derived from (`OKIT_PASSPHRASE`); nil: the key file.
    public var passphrase: String? { get { session.passphrase } set { session.passphrase = newValue } }
    /// The base URL of `http` and `encryptedHttp` models (`OKIT_ENDPOINT`); it overrides the model's and the
    /// app's `endpoint`.
    public var endpoint: String? { get { session.endpoint } set { session.endpoint = newValue } }
    /// Sent as `Authorization: Bearer …` to HTTP endpoints (`OKIT_ENDPOINT_TOKEN`).
    public var endpointToken: String? { get { session.endpointToken } set { session.endpointToken = newValue } }
    /// The total deadline of each HTTP request, in seconds.
    public var httpTimeout: TimeInterval { get { session.httpTimeout } set { session.httpTimeout = newValue } }
    /// Restores backups made by another app (another `okit.app` id) too (`okit-run backup restore --force`).
    public var restoreOtherApp: Bool { get { session.restoreOtherApp } set { session.restoreOtherApp = newValue } }
    /// Loads data a newer app version stored, only for a restore to replace it (`SessionOptions.restoreOverNewer`).
    public var restoreOverNewer: Bool { get { session.restoreOverNewer } set { session.restoreOverNewer = newValue } }
    /// The storage kinds `okit.model(type, { storage = … })` may name (`StorageRegistry.core`: file, transient,
    /// encrypted, http, encryptedHttp; a front end that links the backends gives `StorageRegistry.builtIn`, with
    /// sqlite and postgres); register another here.
    public var storageKinds: StorageRegistry { get { session.storageKinds } set { session.storageKinds = newValue } }
    /// The screen kinds a screen may be of (`ScreenKinds.builtIn`); register another here (its commands become
    /// `app` methods, JSON-lines and shell commands).
    public var screenKinds: ScreenKinds { get { session.screenKinds } set { session.screenKinds = newValue } }
    /// Models kept in another kind than the app declares, by model name (a flow test's `launch(app, { storage =
    /// { default = "sqlite" } })`: the same tests against file and sqlite models).
    public var storageOverrides: [String: StorageKind] = [:]

    /// The options of a run: the environment's settings (`OKIT_PASSPHRASE`, `OKIT_ENDPOINT`,
    /// `OKIT_ENDPOINT_TOKEN`) are read here, at the edge.
    public init() {
        let env = ProcessInfo.processInfo.environment
        session.passphrase = env["OKIT_PASSPHRASE"]
        session.endpoint = env["OKIT_ENDPOINT"]
        session.endpointToken = env["OKIT_ENDPOINT_TOKEN"]
        session.databaseURL = env["OKIT_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        session.databasePassword = env["OKIT_DATABASE_PASSWORD"]
        // The limits of what okit reads (storage.md "Limits", docs/backups.md, docs/http.md).
        if let n = env["OKIT_MAX_FILE_SIZE"].flatMap({ Int($0) }), n > 0 { session.maxFileSize = n }
        if let r = env["OKIT_BACKUP_MAX_RATIO"].flatMap({ Int64($0) }), r > 0 { session.archiveLimits.maxRatio = r }
        if let m = env["OKIT_BACKUP_MAX_SIZE"].flatMap({ Int64($0) }), m > 0, m < (1 << 40) { session.archiveLimits.maxTotal = m << 20 }
        if let m = env["OKIT_HTTP_MAX_BODY"].flatMap({ Int($0) }), m > 0, m < (1 << 20) { session.storageSettings["httpMaxBody"] = String(m << 20) }
    }
}

/// An app failed to load: the message names file:line.
public struct AppLoadError: Error, CustomStringConvertible {
    public let message: String
    /// True when a model's storage failed (exit code 4) rather than the app's code (exit code 3).
    public var isStorage = false
    public var description: String { message }
}

/// A running okit app written in Lua: one `AppSession` (engine, models, storage, shells, timers) and one Lua
/// state with the `okit` module that declares into it, confined to one thread. Front ends drive `session`.
public final class LuaApp {
    /// The running app, without Lua: front ends ask it for snapshots and send it commands.
    public let session: AppSession
    public let engine: Engine
    public let lua: LuaState
    /// The first app shell: declared screens, home or tabs, navigation.
    public var shell: AppShell { session.shell }
    /// The driver of the first shell: the commands of screens.md for every front end.
    public var driver: Driver { session.driver }
    public let options: LuaAppOptions
    /// The app file and its folder (`require` root, chunk names relative to it).
    public private(set) var appFile: URL?
    public var appFolder: URL? { appFile?.deletingLastPathComponent() }

    var proxies: LuaRef!
    var luaMethods: [String: [String: LuaRef]] = [:]
    var declarationSites: [String: String?] = [:]
    var screenSites: [String: String?] = [:]
    /// Where each language's strings were first given (`okit.strings`): the language as written and `chunk:line`.
    var stringsSites: [String: (written: String, site: String?)] = [:]
    /// Where each key of a language's strings table was given last (`okit.strings`), for `check`'s notes on it.
    var stringKeySites: [String: [String: (written: String, site: String?)]] = [:]
    /// Names in screen declarations okit does not know (warned at load; problems of `okit-run check`).
    var declarationTypos: [DeclarationTypo] = []
    /// Where each cell made with `okit.cell.*` outside its screen's table (by a helper function) was made, by screen
    /// and place in the declaration (LuaApp+CellTraces.swift).
    var cellTraces: [String: CellTrace] = [:]
    /// The `okit.extension` types not known when declared, checked when the app file has run.
    var pendingExtensionTypes: [PendingExtensionType] = []
    /// Navigation Lua actions asked for, run after the current command (`LuaApp+Actions`).
    var deferredNavigation: [() throws -> Void] = []
    /// The `app` object Lua actions get.
    var navigatorRef: LuaRef?
    /// How many binding properties were given as Lua functions (their generated extension names).
    var functionBindingCount = 0
    var appVersion: Int?
    var migrations: [(version: Int, fn: LuaRef, site: String?)] = []
    /// The model whose migrations run now: `okit.store` and `okit.storeState` are refused until they are done.
    var migratingModel: String?
    var loading = false
    /// Set when a model's storage failed while the app loaded (exit code 4 instead of 3).
    var storageFailed = false
    var pendingLoaded: [Model] = []
    /// `chunk:line` of each model's `okit.model` call, by model name (for errors found once every model loaded).
    var modelSites: [String: String] = [:]
    /// True for a flow test's state: entities of other apps act in their own engine (`engine(of:)`): reads, writes and
    /// bindings (`okit.get`, `okit.set`, `okit.binding`) see that app's extensions, as in the app.
    public var drivesOtherApps = false
    /// `okit.app { authenticate = function() … end }`: answers the protection cover.
    var authenticateFn: LuaRef? {
        didSet {
            session.callbacks.authenticate = authenticateFn.map { fn in { [unowned self] in try callLua(fn, []).truthy } }
        }
    }
    /// The declarations of `okit.app { … }` (kept for the screens layer).
    public internal(set) var appDeclaration: LuaValue?

    public init(options: LuaAppOptions = LuaAppOptions()) throws {
        self.options = options
        session = AppSession(options: options.session)
        engine = session.engine
        lua = try LuaState(memoryLimit: options.luaMemory)
        lua.budget = options.luaBudget
        lua.remedyWording = options.session.remedyWording     // errors raised into Lua, in the front end's words
        session.callbacks.migrate = { [unowned self] m in try migrate(m) }
        session.callbacks.afterCommand = { [unowned self] _ in try runDeferredNavigation() }
    }

    /// Opens the sandbox and the `okit` module (done by `load`; call it directly to use `okit` without an app file).
    public func prepare(appFolder: URL?) throws {
        var sandbox = LuaSandbox()
        sandbox.policy = options.unsafe ? .unsafe : .safe
        sandbox.appFolder = appFolder
        let clock = engine.clock
        sandbox.clock = { clock.now.timeIntervalSince1970 }
        let engine = self.engine
        sandbox.zone = { engine.locale.zone }
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
        let module = LuaModuleBuilder(app: self)
        module.defineTypes()
        module.installModule()
    }

    /// Loads and runs the app file: declarations run, models load; then migrations and `loaded` hooks run.
    /// Errors carry file:line.
    public func load(appFile url: URL) throws {
        appFile = url
        let folderName = url.deletingLastPathComponent().lastPathComponent
        session.appId = folderName.isEmpty ? "app" : folderName
        try prepare(appFolder: url.deletingLastPathComponent())
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw AppLoadError(message: "\(url.path): cannot read the app file")
        }
        loading = true
        engine.schemaVersionPending = true
        defer { loading = false; engine.schemaVersionPending = false }
        do {
            try lua.run(source: String(decoding: data, as: UTF8.self), chunkName: url.lastPathComponent)
            try validateSchema()
            try checkExtensionTypes()
            try finishLoading()
            // From here a model (a screen's `onAppear`, a `loaded` hook) is declared after the load: migrated and its
            // hooks run at once, not left in `pendingLoaded`, which has been taken.
            loading = false
            if options.checkOnly {
                try readAppSettings()
                return
            }
            if options.checkBindings {
                try readAppSettings()
                // Problems stop the app (with the summary line), warnings are said and it runs; a clean check prints nothing.
                let check = checkApp(ignoredNames: false)
                for w in check.warnings { engine.warn(w) }
                if !check.problems.isEmpty { throw AppLoadError(message: (check.problems + [check.summary]).joined(separator: "\n")) }
            }
            try startShell()
            session.startAutosave()
        } catch let e as LuaError {
            throw AppLoadError(message: withSandboxHint(withOKitNameHint(e.message, source: String(decoding: data, as: UTF8.self))),
                               isStorage: storageFailed)
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
        engine.schemaVersionPending = false
        let models = pendingLoaded
        pendingLoaded = []
        // Data stored by a newer version of the app is not taken (nor rewritten stamped older) by this one.
        let newer = try refuseNewerData(models)
        // The check at load (and `okit-run check`) reports them as problems; said once, not a warning before it too.
        if !options.checkBindings, !options.checkOnly { for line in unreachableMigrationLines() { engine.warn(line) } }
        for m in models where !newer.contains(m.name) {
            try migrate(m)
            try engine.runLoadedHooks(of: m)
        }
    }

    /// Stores every model of the state (the session's `storeState`).
    public func storeState() throws { try session.storeState() }

    /// The message a person reads for `error`, its remedy in the front end's words (`SessionOptions.remedyWording`).
    func wordedMessage(_ error: any Error) -> String { lua.wordedMessage(error) }
}
