import CLua
import Foundation
import OKitEngine

/// The Swift functions behind `require("okit.test")`: launching apps, snapshot files, JSON.
extension FlowTestFile {
    /// Pushes the `native` table the support chunk receives.
    func pushNative() {
        let lua = host.lua
        lua.newTable(hash: 8)
        lua.push(function: "launch") { [unowned self] call in try launch(call) }
        lua.rawSet(-2, "launch")
        lua.push(function: "snapshotJSON") { [unowned self] call in
            let app = try launchedApp(call, 1)
            host.lua.push(FlowTestFile.indentJSON(try app.shell.snapshot().json))
            return 1
        }
        lua.rawSet(-2, "snapshotJSON")
        lua.push(function: "decodeJSON") { [unowned self] call in
            guard host.pushJSON(try call.bytes(1)) else { throw LuaRaise("a snapshot file is not valid JSON") }
            return 1
        }
        lua.rawSet(-2, "decodeJSON")
        lua.push(function: "readFile") { [unowned self] call in
            if let data = FileManager.default.contents(atPath: try call.string(1)) {
                host.lua.push(String(decoding: data, as: UTF8.self))
            } else {
                host.lua.pushNil()
            }
            return 1
        }
        lua.rawSet(-2, "readFile")
        lua.push(function: "writeFile") { call in
            let url = URL(fileURLWithPath: try call.string(1))
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(try call.string(2).utf8).write(to: url, options: .atomic)
            return 0
        }
        lua.rawSet(-2, "writeFile")
        lua.push(function: "snapshotDir") { [unowned self] _ in
            let folder = url.deletingLastPathComponent().appendingPathComponent("__snapshots__")
            host.lua.push(folder.appendingPathComponent(url.deletingPathExtension().lastPathComponent).path)
            return 1
        }
        lua.rawSet(-2, "snapshotDir")
        lua.push(function: "record") { [unowned self] call in
            let app = try launchedApp(call, 1)
            let folder = url.deletingLastPathComponent()
            let log = call.stringOrNil(2).map { URL(fileURLWithPath: $0, relativeTo: folder).standardizedFileURL }
                ?? nextSessionLog()
            let header = SessionRecorder.Header(app: app.appFile?.path ?? "", now: app.engine.clock.now,
                                                seed: app.options.seed, language: app.options.language)
            do {
                app.driver.recorder = try SessionRecorder(url: log, header: header, clock: app.engine.clock)
            } catch {
                throw LuaRaise("app:record: cannot write \(log.path): \(error.localizedDescription)", withPosition: false)
            }
            host.lua.push(log.path)
            return 1
        }
        lua.rawSet(-2, "record")
        lua.push(function: "check") { [unowned self] call in
            let app = try launchedApp(call, 1)
            if isReleased(app) {
                throw LuaRaise("this app was launched by a test that has ended, and released with it (launch it again "
                    + "in this test, e.g. in before_each)", withPosition: false)
            }
            return 0
        }
        lua.rawSet(-2, "check")
        lua.push(function: "syncClock") { [unowned self] _ in
            syncClock()
            return 0
        }
        lua.rawSet(-2, "syncClock")
        lua.push(options.updateSnapshots)
        lua.rawSet(-2, "update")
    }

    /// Where `app:record()` without a path writes: `<sessions>/<test file>-<n>.session.jsonl`, the test file's
    /// path as the runner shows it with `/` as `-` (`tests-books_test-1.session.jsonl`), `n` counting the logs
    /// of this file. Outside the scratch folder, so the log outlives the run.
    func nextSessionLog() -> URL {
        recordCount += 1
        var name = displayPath.hasSuffix(".lua") ? String(displayPath.dropLast(4)) : displayPath
        name = name.split(separator: "/").filter { !$0.isEmpty && $0 != "." && $0 != ".." }.joined(separator: "-")
        return options.sessions.appendingPathComponent("\(name)-\(recordCount).session.jsonl")
    }

    /// The app behind a native app object argument.
    func launchedApp(_ call: LuaCall, _ index: Int32) throws -> LuaApp {
        guard let handle = host.lua.object(at: index, metatable: OKitTypes.app, as: LuaAppHandle.self), let app = handle.app else {
            throw LuaRaise("expected an app made by launch()")
        }
        return app
    }

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
        func option(_ key: String) -> String? {
            defer { host.lua.pop() }
            return host.lua.rawGet(2, key) == LUA_TSTRING ? host.lua.string(at: -1) : nil
        }
        var o = LuaAppOptions()
        o.storageKinds = options.storageKinds
        o.session.remedyWording = options.remedyWording
        o.print = options.print
        try refuseUnknownLaunchOptions()
        if let lang = option("lang") {
            guard let tag = AppLocale.languageTag(lang) else { throw LuaRaise("launch: opts.lang: " + AppLocale.languageAdvice(lang)) }
            o.language = tag
        }
        if let now = option("now") {
            guard let d = ISODate.parse(now) else {
                throw LuaRaise("launch: opts.now must be an ISO 8601 date like \"2019-05-01T10:00:00Z\", got \"\(now)\"")
            }
            o.virtualNow = d
        } else {
            o.virtualNow = FlowTestFile.epoch
        }
        if host.lua.rawGet(2, "seed") == LUA_TNUMBER { o.seed = UInt64(truncatingIfNeeded: lua_tointegerx(host.lua.L, -1, nil)) }
        host.lua.pop()
        if host.lua.rawGet(2, "storage") == LUA_TTABLE {
            o.storageOverrides = try storageOverrides(o.storageKinds)
        }
        host.lua.pop()
        if let data = option("data") {
            o.dataFolder = URL(fileURLWithPath: data, relativeTo: folder).standardizedFileURL
        } else {
            launchCount += 1
            let name = "\(url.deletingPathExtension().lastPathComponent)-\(launchCount)-\(UUID().uuidString.prefix(8))"
            o.dataFolder = options.scratch.appendingPathComponent(name)
        }
        if let fixtures = option("fixtures"), let data = o.dataFolder {
            try copyFixtures(URL(fileURLWithPath: fixtures, relativeTo: folder).standardizedFileURL, into: data, named: fixtures)
        }
        let app: LuaApp
        do {
            app = try LuaApp(options: o)
            try app.load(appFile: appURL)
        } catch {
            throw LuaRaise("launch(\"\(path)\"): \(Remedy.message(for: error, wording: options.remedyWording))", withPosition: false)
        }
        // The warnings of loading count too: they fail the test that launched the app under --strict.
        launched.append((WeakApp(app), 0))
        if inTest { testApps.append(WeakApp(app)) }
        syncClock()
        host.pushAppObject(driving: app)
        return 1
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

    /// Copies a model file, or a folder's files, into `<data>/okit/data/`.
    func copyFixtures(_ source: URL, into data: URL, named: String) throws {
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
        for f in files {
            let to = target.appendingPathComponent(f.lastPathComponent)
            try? fm.removeItem(at: to)
            try fm.copyItem(at: f, to: to)
        }
    }

    /// JSON text indented two spaces per level, keys in the order written (snapshot files diff well).
    static func indentJSON(_ text: String) -> String {
        var out = ""
        var depth = 0
        var inString = false
        var escaped = false
        let chars = Array(text)
        func newline() { out += "\n" + String(repeating: "  ", count: depth) }
        for (i, c) in chars.enumerated() {
            if inString {
                out.append(c)
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                continue
            }
            switch c {
            case "\"": inString = true; out.append(c)
            case "{", "[":
                out.append(c)
                let next = i + 1 < chars.count ? chars[i + 1] : " "
                if next == "}" || next == "]" { continue }
                depth += 1; newline()
            case "}", "]":
                let prev = i > 0 ? chars[i - 1] : " "
                if prev != "{" && prev != "[" { depth -= 1; newline() }
                out.append(c)
            case ",": out.append(c); newline()
            case ":": out += ": "
            case " ", "\n", "\t", "\r": continue
            default: out.append(c)
            }
        }
        return out + "\n"
    }
}
