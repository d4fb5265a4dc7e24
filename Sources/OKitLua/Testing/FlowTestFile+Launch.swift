import CLua
import Foundation
import OKitEngine

/// `launch(path, opts)` of `require("okit.test")`: its options, each checked (a mistaken one is refused, never
/// ignored), and the fixtures copied into the fresh data folder.
extension FlowTestFile {
    /// The options `launch` reads.
    static let launchOptions = ["data", "fixtures", "now", "lang", "seed", "storage"]

    /// Refuses a name of `launch`'s options table (argument 2) that it does not read (`lnag = "de"` would launch
    /// the app in English without a word), with the closest name.
    func refuseUnknownLaunchOptions() throws {
        let lua = host.lua
        var unknown: [String] = []
        lua.pushNil()
        while lua_next(lua.L, 2) != 0 {
            lua.pop()
            if lua_type(lua.L, -1) == LUA_TSTRING, let k = lua.string(at: -1), !Self.launchOptions.contains(k) { unknown.append(k) }
        }
        guard let first = unknown.sorted().first else { return }
        throw LuaRaise("launch: unknown option \"\(first)\"\(LuaApp.suggestion(first, Self.launchOptions)); it takes "
            + Self.launchOptions.joined(separator: ", "))
    }

    /// `launch(path, opts)`: a fresh app on its own data folder (or `opts.data`), fixtures copied in first,
    /// the virtual clock at `opts.now` (default 2019-05-01T10:00:00Z), `opts.lang`, `opts.seed`, models kept in
    /// another storage kind than the app declares with `opts.storage` (`{ default = "sqlite" }`).
    func launch(_ call: LuaCall) throws -> Int32 {
        let folder = url.deletingLastPathComponent()
        let path = try call.string(1)
        let appURL = URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL
        guard FileManager.default.fileExists(atPath: appURL.path) else {
            throw LuaRaise("launch(\"\(path)\"): no app file at \(appURL.path) (paths are relative to the test file's folder)",
                           withPosition: false)
        }
        try refuseUnknownLaunchOptions()
        var o = try appOptions()
        if let data = try textOption("data") {
            o.dataFolder = URL(fileURLWithPath: data, relativeTo: folder).standardizedFileURL
        } else {
            launchCount += 1
            let name = "\(url.deletingPathExtension().lastPathComponent)-\(launchCount)-\(UUID().uuidString.prefix(8))"
            o.dataFolder = options.scratch.appendingPathComponent(name)
        }
        var fixtures: [FixtureFile] = []
        if let given = try textOption("fixtures"), let data = o.dataFolder {
            fixtures = try copyFixtures(URL(fileURLWithPath: given, relativeTo: folder).standardizedFileURL, into: data, named: given)
        }
        let app: LuaApp
        do {
            app = try LuaApp(options: o)
            try app.load(appFile: appURL)
        } catch {
            // a fixture that does not read is named as the test names it, not by its copy in the fresh data folder
            var message = Remedy.message(for: error, wording: options.remedyWording)
            for f in fixtures { message = message.replacingOccurrences(of: f.copy, with: f.shown) }
            throw LuaRaise("launch(\"\(path)\"): \(message)", withPosition: false)
        }
        try checkFixtures(fixtures, app: app)
        // The warnings of loading count too: they fail the test that launched the app under --strict.
        launched.append((WeakApp(app, place: currentPlace(command: "launch(\(LuaLiteral.string(path)))")), 0))
        if inTest { testApps.append(WeakApp(app)) }
        syncClock()
        host.pushAppObject(driving: app)
        return 1
    }

    /// The app's options from `opts` (argument 2): `lang`, `now`, `seed`, `storage`, each refused when it is not
    /// one `launch` can use.
    func appOptions() throws -> LuaAppOptions {
        var o = LuaAppOptions()
        o.storageKinds = options.storageKinds
        o.screenKinds = options.screenKinds
        o.session.remedyWording = options.remedyWording
        o.print = options.print
        if let lang = try textOption("lang") {
            guard let tag = AppLocale.languageTag(lang) else { throw LuaRaise("launch: opts.lang: " + AppLocale.languageAdvice(lang)) }
            o.language = tag
        }
        if let now = try textOption("now") {
            guard let d = ISODate.parse(now) else {
                throw LuaRaise("launch: opts.now must be an ISO 8601 date like \"2019-05-01T10:00:00Z\", got \"\(now)\"")
            }
            o.virtualNow = d
        } else {
            o.virtualNow = FlowTestFile.epoch
        }
        o.seed = try launchSeed() ?? o.seed
        defer { host.lua.pop() }
        switch host.lua.rawGet(2, "storage") {
        case LUA_TNIL: break
        case LUA_TTABLE: o.storageOverrides = try storageOverrides(o.storageKinds)
        default: throw LuaRaise("launch: opts.storage maps model names to storage kinds, like { default = \"sqlite\" }, got \(launchOptionShown(-1))")
        }
        return o
    }

    /// A text option of `opts`: nil when not given; any other value is refused (`now = 5` would launch at the epoch).
    func textOption(_ key: String) throws -> String? {
        defer { host.lua.pop() }
        switch host.lua.rawGet(2, key) {
        case LUA_TNIL: return nil
        case LUA_TSTRING: return host.lua.string(at: -1)
        default: throw LuaRaise("launch: opts.\(key) must be a text, got \(launchOptionShown(-1))")
        }
    }

    /// `opts.seed`: nil when not given; a whole number from 0 up (`7`, `7.0`), as `--seed` takes. Anything else is
    /// refused: `1.5` and `"7"` would launch as seed 0, `-1` as a seed the command line does not take.
    func launchSeed() throws -> UInt64? {
        let L = host.lua.L
        defer { host.lua.pop() }
        if host.lua.rawGet(2, "seed") == LUA_TNIL { return nil }
        var whole: Int32 = 0
        let n = lua_type(L, -1) == LUA_TNUMBER ? lua_tointegerx(L, -1, &whole) : 0
        guard whole != 0, n >= 0 else {
            throw LuaRaise("launch: opts.seed must be a non-negative whole number, like seed = 7, got \(launchOptionShown(-1))")
        }
        return UInt64(n)
    }

    /// The value at `index` as a refusal shows it: `1.5`, `"7"`, `a table`, `true`.
    func launchOptionShown(_ index: Int32) -> String {
        let L = host.lua.L
        switch lua_type(L, index) {
        case LUA_TNUMBER:
            var isInteger: Int32 = 0
            let n = lua_tointegerx(L, index, &isInteger)
            return isInteger != 0 && lua_isinteger(L, index) != 0 ? String(n) : Value.displayDouble(lua_tonumberx(L, index, nil))
        case LUA_TSTRING: return LuaLiteral.string(host.lua.string(at: index) ?? "")
        case LUA_TBOOLEAN: return lua_toboolean(L, index) != 0 ? "true" : "false"
        default: return "a " + String(cString: lua_typename(L, lua_type(L, index)))
        }
    }

    /// `opts.storage` (on the top of the stack): model name → storage kind, e.g. `{ default = "sqlite" }`.
    func storageOverrides(_ kinds: StorageRegistry) throws -> [String: StorageKind] {
        let L = host.lua.L
        var out: [String: StorageKind] = [:]
        let t = lua_absindex(L, -1)
        host.lua.pushNil()
        while lua_next(L, t) != 0 {
            defer { host.lua.pop() }
            guard lua_type(L, -2) == LUA_TSTRING, lua_type(L, -1) == LUA_TSTRING, let model = host.lua.string(at: -2),
                  let name = host.lua.string(at: -1) else {
                throw LuaRaise("launch: opts.storage maps model names to storage kinds, like { default = \"sqlite\" }")
            }
            guard let kind = kinds.kind(named: name) else {
                throw LuaRaise("launch: opts.storage: unknown storage \"\(name)\" (\(kinds.kinds.map(\.rawValue).joined(separator: ", ")))")
            }
            out[model] = kind
        }
        return out
    }

    /// A fixture file copied into the fresh data folder: its copy's path and the path the test gave for it.
    struct FixtureFile {
        let copy: String
        let shown: String
        /// The model the file is named for: its name up to the first `.` (`default` of `default.json`).
        var model: String { String((shown as NSString).lastPathComponent.prefix { $0 != "." }) }
    }

    /// Copies a model file, or a folder's files, into `<data>/okit/data/`; the files copied.
    func copyFixtures(_ source: URL, into data: URL, named: String) throws -> [FixtureFile] {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: source.path, isDirectory: &isFolder) else {
            throw LuaRaise("launch: opts.fixtures: no file or folder at \(source.path) (relative to the test file's folder)",
                           withPosition: false)
        }
        let target = URL(fileURLWithPath: DataFolder(data).models, isDirectory: true)
        try fm.createDirectory(at: target, withIntermediateDirectories: true)
        let files = isFolder.boolValue
            ? try fm.contentsOfDirectory(at: source, includingPropertiesForKeys: nil).filter { !$0.hasDirectoryPath }
            : [source]
        var copied: [FixtureFile] = []
        for f in files.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
            let to = target.appendingPathComponent(f.lastPathComponent)
            try? fm.removeItem(at: to)
            try fm.copyItem(at: f, to: to)
            let shown = isFolder.boolValue ? (named.hasSuffix("/") ? named : named + "/") + f.lastPathComponent : named
            copied.append(FixtureFile(copy: to.path, shown: shown))
        }
        return copied
    }

    /// Refuses a fixture file named for none of the app's models (`fixtures/defualt.json`): the app would start
    /// from its seed data instead, without a word. Hidden files (`.DS_Store`) are let pass.
    func checkFixtures(_ fixtures: [FixtureFile], app: LuaApp) throws {
        let models = app.engine.models.map(\.name)
        for f in fixtures where !f.model.isEmpty && !models.contains(f.model) {
            let named = models.isEmpty ? "the app declares none" : models.map { "\($0) (\($0).json)" }.joined(separator: ", ")
            throw LuaRaise("launch: opts.fixtures: \(f.shown) is named for no model of the app\(LuaApp.suggestion(f.model, models)), "
                + "so the app would start from its seed data without reading it; a model's file is named for the model, "
                + "and its models are \(named)", withPosition: false)
        }
    }
}
