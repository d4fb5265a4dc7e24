import CLua
import Foundation
import OKitEngine

/// The outcome of one flow test (testing.md): its full name, status, and for a failure the message and the
/// file:line of the failing assertion.
public struct FlowTestResult: Sendable {
    public enum Status: String, Sendable { case ok, fail, pending }
    public var file: String
    public var name: String
    public var status: Status
    public var message: String?
    public var location: String?
    public var seconds: Double
    /// A failure that was an error (not an assertion), as busted counts them apart (JUnit's `errors`).
    public var isError = false
    /// Where the test (or the block that failed) is declared, `file:line`: busted's `file @ line` of a spec.
    public var declaredAt: String?
    /// A failure of a block rather than a test (a describe body, a teardown, a spec file that does not load):
    /// busted reports it as an error but does not count it as a test (`-o gtest`).
    public var isBlockFailure = false
    /// Where an error was raised (the innermost frame), when it is not where the test file called: busted's position.
    public var raisedAt: String?
    /// A busted spec's result: printed in busted's formats (TAP, gtest).
    public var isSpec = false
    /// The test's (or block's) own name, without its blocks' names (busted's `element.name`).
    public var title: String?
    /// The test was named by a number (`it(1.5, …)`): busted's `element.name` is that number (`-o json`).
    public var titleIsNumber = false
    /// busted's error that belongs to no test and no file run (its element has no trace): a spec file that does
    /// not compile, reported as busted loads the files, or no spec file found (`file` empty then).
    public var untraced = false
    /// The seed the test's block was shuffled with (`--shuffle`, `randomize()`): busted's `Random seed: N` under
    /// a failure.
    public var randomSeed: String?
    /// busted's `descriptor` of an entry that is no test nor block (a spec's teardown error: `strict_teardown`).
    public var descriptor: String?
}

/// How flow tests run: the name filter, tags, the shuffle seed, snapshot updates, strict warnings, where `print` goes.
public struct FlowTestOptions {
    /// Only the tests whose full name matches one of these (`--filter`, repeatable; busted ORs them); empty: all.
    public var filters: [String] = []
    /// Leave out the tests whose full name matches one of these (`--filter-out`).
    public var filterOut: [String] = []
    /// Whole messages, and in busted's TAP a `# file @ line: name` line before each spec's result (`-v`).
    public var verbose = false
    /// Only the tests with one of these `#tags` in their full name (`--tags`); empty: all.
    public var tags: [String] = []
    /// Not the tests with one of these `#tags` (`--exclude-tags`).
    public var excludeTags: [String] = []
    /// Files and the tests of each block in an order shuffled by this seed (`--shuffle [--seed N]`).
    public var shuffleSeed: UInt64?
    /// What the seed shuffles: the files (`--shuffle-files`) and the tests of each block (`--shuffle-tests`).
    public var shuffleFiles = true
    public var shuffleTests = true
    /// The tests and blocks of each block sorted by name (`--sort-tests`; before a shuffle, as busted does).
    public var sortTests = false
    /// Stop after the first failing or erroring test (busted's `--no-keep-going`).
    public var stopOnFailure = false
    /// Pending tests are left out of the output and the counts (`--suppress-pending`).
    public var suppressPending = false
    /// Lua statements run in each test file's state before it loads (busted's `-e`; before a spec's helper).
    public var statements: [String] = []
    public var updateSnapshots = false
    /// A test that logged a warning fails (`--strict`).
    public var strict = false
    public var print: (String) -> Void = { Swift.print($0) }
    /// Where launched apps' fresh data folders go (removed by the runner at the end).
    public var scratch = FileManager.default.temporaryDirectory
    /// Where `app:record()` without a path writes its log (kept after the run, so `okit-run replay` can read it):
    /// `$TMPDIR/okit-sessions/`.
    public var sessions = FileManager.default.temporaryDirectory.appendingPathComponent("okit-sessions")
    /// The storage kinds launched apps may name (`StorageRegistry.core`; okit-run gives `StorageRegistry.builtIn`,
    /// with the backends it links).
    public var storageKinds = StorageRegistry.core
    /// The screen kinds launched apps may declare, and whose commands the `app` object takes (`ScreenKinds.builtIn`;
    /// okit-run gives the kinds it registers for every app, a kind of one's own among them: docs/engine.md).
    public var screenKinds = ScreenKinds.builtIn
    /// Words the remedies of errors in the tests' messages and in the apps they launch (the front end's; okit-run
    /// gives its own); nil leaves them neutral.
    public var remedyWording: (@Sendable (Remedy) -> String)?
    /// The busted project the run is in: its spec files run as busted runs them (module lookup, helper, clock).
    public var busted: BustedProject?

    public init() {}
}

/// One test file: its own Lua state (the full standard library, `require "okit"`, `require "okit.test"`), the
/// framework's globals, and the apps its tests launch, each on its own data folder and virtual clock.
final class FlowTestFile {
    static let epoch = Date(timeIntervalSince1970: 1_556_704_800)   // 2019-05-01T10:00:00Z

    let url: URL
    let displayPath: String
    let options: FlowTestOptions
    let host: LuaApp
    /// Open apps with the number of their warnings already counted (for `--strict`: a test fails on the warnings
    /// logged since the last result, those of loading a newly launched app included).
    var launched: [(app: WeakApp, warnings: Int)] = []
    var launchCount = 0
    /// `app:record()` logs written without a path (their names count up per test file).
    var recordCount = 0
    /// True while a test (with its `before_each` and `after_each` hooks) runs.
    var inTest = false
    /// The apps launched by the running test: released when it ends.
    var testApps: [WeakApp] = []
    /// Apps released when their test ended: their commands raise.
    var released: [WeakApp] = []

    /// A launched app, not kept alive by the list, with where its warnings were logged (for `--strict`).
    final class WeakApp {
        weak var app: LuaApp?
        /// The warning at an index of the app's `engine.warnings` → the command that logged it and the test
        /// file's line (`app:tap("Dune") at tests/books_test.lua:7`).
        var places: [Int: String] = [:]
        /// `place`: where the app was launched, given to the warnings its loading logged.
        init(_ app: LuaApp, place: String? = nil) {
            self.app = app
            if let place { for i in 0..<app.engine.warnings.count { places[i] = place } }
        }
    }

    init(url: URL, displayPath: String, options: FlowTestOptions) throws {
        self.url = url
        self.displayPath = displayPath
        self.options = options
        var o = LuaAppOptions()
        o.storageKinds = options.storageKinds
        o.screenKinds = options.screenKinds      // the `app` object's methods are the host's commands
        o.session.remedyWording = options.remedyWording
        o.unsafe = true
        let spec = options.busted.flatMap { $0.specFiles.contains(url.standardizedFileURL.path) ? $0 : nil }
        // A busted spec runs on the real clock with the run's random seed, unless the run is virtual
        o.virtualNow = spec?.randomSeed != nil ? nil : FlowTestFile.epoch
        o.print = options.print
        o.luaBudget = 1 << 40
        o.luaMemory = 1 << 30
        host = try LuaApp(options: o)
        host.drivesOtherApps = true
        try host.prepare(appFolder: url.deletingLastPathComponent())
        try LuaSandbox.unguardPatterns(in: host.lua)   // plain Lua 5.4's pattern functions, as under busted
        bustedProject = spec
    }

    /// The busted project when this file is one of its specs.
    private(set) var bustedProject: BustedProject?

    /// Loads the framework and the file, runs its tests; one result per test, reported as it finishes.
    @discardableResult
    /// `started` gets each test's name and place as it starts (before its `before_each` hooks).
    func run(report: @escaping (FlowTestResult) -> Void,
             started: ((FlowTestResult) -> Void)? = nil) -> (passed: Int, failed: Int, skipped: Int) {
        do {
            let framework = try loadTests()
            let counts = try runTests(framework, report: report, started: started)
            releaseAll()
            return counts
        } catch {
            releaseAll()
            report(FlowTestResult.loadFailure(displayPath, message: Remedy.message(for: error, wording: options.remedyWording),
                                              isSpec: bustedProject != nil))
            return (0, 1, 0)
        }
    }

    /// Loads the framework and the file (its top-level code runs); the framework table `T`.
    func loadTests() throws -> LuaRef {
        let lua = host.lua
        try lua.load(source: FlowTestFramework.source, chunkName: "=okit.test.framework")
        lua.push(function: "clock") { call in
            call.state.push(ProcessInfo.processInfo.systemUptime)   // wall time, as busted's durations
            return 1
        }
        try lua.pcall(nargs: 1, nresults: 1)
        let framework = lua.ref()
        pushNative()
        framework.push()
        try lua.load(source: FlowTestSupport.source, chunkName: "=okit.test")
        lua.hostPush { lua_rotate(lua.L, -3, 1) }       // chunk, native, T
        try lua.pcall(nargs: 2, nresults: 1)
        // package.loaded["okit.test"] = module
        _ = lua.pushGlobal("package")
        _ = lua.rawGet(-1, "loaded")
        lua.hostPush { lua_rotate(lua.L, -3, -1) }      // package, loaded, module
        lua.rawSet(-2, "okit.test")
        lua.pop(2)
        if let bustedProject { try prepareSpec(framework, bustedProject) } else {
            try call(framework, "install")
            try runStatements()
        }
        guard let source = FileManager.default.contents(atPath: url.path) else {
            throw LuaRaise("cannot read \(displayPath)", withPosition: false)
        }
        if bustedProject != nil {
            try BustedModuleSearch.loadAsLua(lua, bytes: [UInt8](source), chunkName: displayPath)
            setSpecEnvironment(framework)
        } else {
            try lua.load(bytes: [UInt8](source), chunkName: displayPath)
        }
        try lua.pcall(nargs: 0, nresults: 0)
        return framework
    }

    /// Releases every app still open (at the end of the file: those launched outside tests).
    func releaseAll() {
        for w in launched { if let app = w.app.app { release(app) } }
        launched = []
        testApps = []
    }

    /// Releases an app a test launched: its data folder's storage is closed (the lock taken back, so the next test
    /// can launch on the same folder; nothing is stored), its session log closed; its commands raise from now on.
    func release(_ app: LuaApp) {
        guard !isReleased(app) else { return }
        app.session.closeDataFolder()
        app.driver.recorder = nil
        released.append(WeakApp(app))
    }

    func isReleased(_ app: LuaApp) -> Bool {
        released.removeAll { $0.app == nil }
        return released.contains { $0.app === app }
    }

    /// The test file's clock (`okit.date.now()`, `os.time()`) follows the app launched last that is still open;
    /// with none, it stands at the epoch. Its time zone (`os.date`'s local forms) is that app's too (testing.md).
    func syncClock() {
        let last = launched.reversed().lazy.compactMap { $0.app.app }.first { !self.isReleased($0) }
        host.session.virtualClock?.set(last?.engine.clock.now ?? FlowTestFile.epoch)
        if let zone = last?.engine.locale.timeZone, host.engine.locale.timeZone != zone { host.engine.locale.timeZone = zone }
    }

    /// Calls `T.name()`.
    func call(_ framework: LuaRef, _ name: String) throws {
        framework.push()
        _ = host.lua.rawGet(-1, name)
        host.lua.hostPush { lua_rotate(host.lua.L, -2, 1) }
        host.lua.pop()
        try host.lua.pcall(nargs: 0, nresults: 0)
    }

    /// `T.run { filter =, tags =, excludeTags =, seed =, begin =, report = }` → passed, failed, skipped, counted from the results as reported (`--strict`
    /// can fail a test the framework counted as passed).
    private func runTests(_ framework: LuaRef, report: @escaping (FlowTestResult) -> Void,
                          started: ((FlowTestResult) -> Void)?) throws -> (Int, Int, Int) {
        let lua = host.lua
        framework.push()
        _ = lua.rawGet(-1, "run")
        lua.hostPush { lua_rotate(lua.L, -2, 1) }
        lua.pop()
        pushSelection()
        lua.push(function: "begin") { [unowned self] call in
            inTest = true
            testApps = []
            if let started, lua_type(call.L, 1) == LUA_TTABLE {
                var r = FlowTestResult(file: displayPath, name: "?", status: .ok, message: nil, location: nil, seconds: 0)
                if lua.rawGet(1, "name") == LUA_TSTRING { r.name = lua.string(at: -1) ?? "?" }
                if lua.rawGet(1, "declared") == LUA_TSTRING { r.declaredAt = lua.string(at: -1) }
                lua.pop(2)
                r.isSpec = bustedProject != nil
                started(r)
            }
            return 0
        }
        lua.rawSet(-2, "begin")
        var counts = (0, 0, 0)
        lua.push(function: "report") { [unowned self] call in
            try call.requireTable(1)
            let r = self.result(from: 1)
            switch r.status {
            case .ok: counts.0 += 1
            case .fail: counts.1 += 1
            case .pending: counts.2 += 1
            }
            report(r)
            return 0
        }
        lua.rawSet(-2, "report")
        try lua.pcall(nargs: 1, nresults: 0)
        return counts
    }

    /// A result table `{ name, status, message, where, seconds }`; with `--strict`, a passing test whose apps
    /// logged warnings fails.
    private func result(from index: Int32) -> FlowTestResult {
        let lua = host.lua
        func field(_ key: String) -> String? {
            defer { lua.pop() }
            return lua.rawGet(index, key) == LUA_TNIL ? nil : lua.string(at: -1)
        }
        let seconds: Double = {
            defer { lua.pop() }
            return lua.rawGet(index, "seconds") == LUA_TNUMBER ? lua_tonumberx(lua.L, -1, nil) : 0
        }()
        var r = FlowTestResult(file: displayPath, name: field("name") ?? "?",
                               status: FlowTestResult.Status(rawValue: field("status") ?? "fail") ?? .fail,
                               message: field("message"), location: field("where"), seconds: seconds,
                               isError: { defer { lua.pop() }; return lua.rawGet(index, "error") == LUA_TBOOLEAN && lua_toboolean(lua.L, -1) != 0 }())
        r.declaredAt = field("declared")
        r.title = field("title")
        r.titleIsNumber = { defer { lua.pop() }; return lua.rawGet(index, "numbered") == LUA_TBOOLEAN }()
        r.randomSeed = field("seed")
        r.raisedAt = field("origin")
        r.descriptor = field("descriptor")
        r.isBlockFailure = { defer { lua.pop() }; return lua.rawGet(index, "block") == LUA_TBOOLEAN }()
        r.isSpec = bustedProject != nil
        if options.strict, r.status == .ok { failOnWarnings(&r) }
        if inTest {
            // The test ended (after its after_each hooks): its apps are released.
            inTest = false
            for w in testApps { if let app = w.app { release(app) } }
            testApps = []
        }
        launched = launched.compactMap { w in
            w.app.app.flatMap { isReleased($0) ? nil : (w.app, $0.engine.warnings.count) }
        }
        syncClock()
        return r
    }
}
