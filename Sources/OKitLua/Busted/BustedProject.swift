import CLua
import Foundation
import OKitEngine

/// A plain Lua project with busted specs, as `okit-run test` runs it from its root (testing.md, "Busted
/// projects"): where the specs are (`ROOT`, `pattern`), what `require` finds (`lpath`), the helper run before each
/// spec file, tags, output and the clock. The defaults are busted 2.1.1's; a `.busted` file in the root changes them
/// (its `_all` task, then the task run, `default` unless `--run` names another), the command line changes them last.
public struct BustedProject: Sendable {
    /// Where the runner started: `./` in `package.path` and the names of spec files are relative to it.
    public var root: URL
    /// Spec folders or files (`ROOT`), relative to the root: busted's default `spec`.
    public var roots: [String] = ["spec"] { didSet { rootsGiven = true; rootsFrom = nil } }
    /// Whether `roots` was given (by `.busted` or the command line): one that is not there stops the run; and
    /// which `.busted` task gave it (named then).
    var rootsGiven = false
    var rootsFrom: String?
    /// `.busted`'s `lua` (and the task saying it) and `ignore-lua`: refused as `--lua` is, unless ignored.
    var luaInterpreter: (String, String)?
    var ignoreLua = false
    /// Lua patterns a spec file's name must match (busted's default `_spec`); `.lua` files only.
    public var patterns: [String] = ["_spec"]
    /// Lua patterns that leave a file out (`--exclude-pattern`).
    public var excludePatterns: [String] = []
    /// Put before `package.path` (`--lpath`, `-m`, a `.busted` `lpath`): busted's default `./src/?.lua;…`.
    public var lpath = BustedProject.defaultLPath
    /// A Lua file run before each spec file, in its state (`--helper`, a `.busted` `helper`), and the `arg` it sees
    /// (busted's `-Xhelper`).
    public var helper: String?
    public var helperArguments: [String] = []
    /// Put before the C module path (`--cpath`, default busted's `./csrc/?.so;./csrc/?/?.so`): where a refused C
    /// module is found, to name it.
    public var cpath = BustedProject.defaultCPath
    /// Whether spec folders are searched below their top level (busted's `-R`, `--no-recursive`).
    public var recursive = true
    /// Tags (`-t`, `--tags`) and excluded tags (`--exclude-tags`) from the `.busted` file.
    public var tags: [String] = []
    public var excludeTags: [String] = []
    /// Name filters (`--filter`) from the `.busted` file: a test runs when one of them matches.
    public var filters: [String] = []
    /// Name filters that leave tests out (`filter-out`) from the `.busted` file.
    public var filterOut: [String] = []
    /// `verbose = true` in the `.busted` file (as `-v`).
    public var verbose = false
    /// `coverage = true` in the `.busted` file: refused by the runner (no LuaCov), never ignored.
    public var coverage = false
    /// `output` from the `.busted` file (TAP, junit, plainTerminal, utfTerminal, json).
    public var output: String?
    /// Whether `.busted` asked for `shuffle` (files and tests).
    public var shuffle = false
    /// The spec files found, as absolute paths: these run as busted specs (the others as okit flow tests).
    public var specFiles: Set<String> = []
    /// The spec files in busted's order: each `ROOT` in turn, its files sorted; a file found twice runs twice.
    public var specOrder: [String] = []
    /// The seed of `math.random` and of `randomize()` in spec files (printed by the runner); nil under the virtual clock.
    public var randomSeed: UInt64?
    /// Whether a `.busted` file (or `-f`'s) was read.
    public var configRead = false
    /// A spec's `arg[1]`, `arg[2]`, …: the arguments `okit-run test` was given, as busted's `arg` holds its own.
    public var arguments: [String] = []
    /// What the `.busted` file says that okit-run test does not read, one line each (the runner prints them as
    /// warnings: nothing in the file is dropped without a word).
    public var unreadKeys: [String] = []
    /// busted's on/off options a `.busted` task set (`"sort-tests"`, `"keep-going"`, …: `flagKeys`), for the runner.
    public var flags: [String: Bool] = [:]
    /// Lua statements run before the specs (`e`).
    public var statements: [String] = []
    /// `.busted`'s `seed` (busted's `--seed`), `repeat` (`--repeat`) and `Xoutput` (`-Xoutput`, split at commas);
    /// the command line's win.
    public var seed: UInt64?
    public var repeatCount: Int?
    public var outputOptions: [String] = []
    /// The keys of a `.busted` task okit-run test reads.
    static let readKeys = ["ROOT", "pattern", "exclude-pattern", "lpath", "cpath", "helper", "Xhelper", "e", "tags",
                           "exclude-tags", "filter", "filter-out", "output", "verbose", "coverage", "shuffle", "seed",
                           "repeat", "Xoutput"] + flagKeys + checkedKeys
    static let flagKeys = ["shuffle-files", "shuffle-tests", "sort", "sort-files", "sort-tests", "suppress-pending",
                           "keep-going", "defer-print", "auto-insulate", "recursive", "lazy"]

    /// busted's `--lpath` default.
    public static let defaultLPath = "./src/?.lua;./src/?/?.lua;./src/?/init.lua"
    /// Lua 5.4's default `package.path` on Debian, which busted keeps after its `lpath`.
    public static let luaPath = "/usr/local/share/lua/5.4/?.lua;/usr/local/share/lua/5.4/?/init.lua;"
        + "/usr/local/lib/lua/5.4/?.lua;/usr/local/lib/lua/5.4/?/init.lua;"
        + "/usr/share/lua/5.4/?.lua;/usr/share/lua/5.4/?/init.lua;./?.lua;./?/init.lua"
    /// busted's `--cpath` default.
    public static let defaultCPath = "./csrc/?.so;./csrc/?/?.so"
    /// Where C modules for Lua 5.4 live (searched only to say that such a module is refused): Lua 5.4's default
    /// `package.cpath` on Debian, with this machine's multiarch folder.
    public static let luaCPath = "/usr/local/lib/lua/5.4/?.so;" + multiarchCPath
        + "/usr/lib/lua/5.4/?.so;/usr/local/lib/lua/5.4/loadall.so;./?.so"
    #if os(Linux) && arch(x86_64)
    static let multiarchCPath = "/usr/lib/x86_64-linux-gnu/lua/5.4/?.so;"
    #elseif os(Linux) && arch(arm64)
    static let multiarchCPath = "/usr/lib/aarch64-linux-gnu/lua/5.4/?.so;"
    #else
    static let multiarchCPath = ""
    #endif

    public init(root: URL) {
        self.root = URL(fileURLWithPath: root.standardizedFileURL.path, isDirectory: true)
    }

    /// The project at `root`: busted's defaults and its `.busted` file's `_all` and `task` (nil: `default`).
    /// A `.busted` file that does not run or return a table is an error naming it.
    /// `configFile` (busted's `-f`) is read instead of the root's `.busted`, and must be there. As busted: a task
    /// is looked for only in a file there is (with none, `-r` changes nothing), and a missing file or task stops
    /// the run with exit code 1.
    public static func load(root: URL, task: String?, configFile: URL? = nil) throws -> BustedProject {
        var project = BustedProject(root: root)
        let file = configFile ?? root.appendingPathComponent(".busted")
        guard FileManager.default.fileExists(atPath: file.path) else {
            if let configFile {
                throw FlowTestUsageError("--config-file \(configFile.path): no such file (give the path of a .busted-style file)",
                                         exitCode: 1)
            }
            return project
        }
        let config = try BustedConfigFile.read(file, root: project.root)
        project.configRead = true
        if let all = config["_all"] { try project.apply(all, task: "_all") }
        if let name = task {
            guard let chosen = config[name] else {
                throw FlowTestUsageError("--run \(name): the .busted file has no task \"\(name)\"", exitCode: 1)
            }
            try project.apply(chosen, task: name)
        } else if let chosen = config["default"] {
            try project.apply(chosen, task: "default")
        }
        try project.checkInterpreter()
        return project
    }

    /// Takes the options of one `.busted` task (`name`, for the lines of what it does not read).
    mutating func apply(_ task: [String: LuaValue], task name: String) throws {
        try Self.checkTypes(task, task: name)
        try checkRefused(task, task: name)
        for key in task.keys.sorted() where !Self.readKeys.contains(key) {
            unreadKeys.append(Self.unreadLine(key, task: name))
        }
        if let v = task["ROOT"].flatMap(Self.texts), !v.isEmpty {
            roots = v
            rootsFrom = ".busted, task \"\(name)\": ROOT"
        }
        if let v = task["pattern"].flatMap(Self.texts), !v.isEmpty { patterns = v }
        if let v = task["exclude-pattern"].flatMap(Self.texts) { excludePatterns = v }
        if let v = task["lpath"].flatMap(Self.texts) { lpath = v.joined(separator: ";") }
        if case .string(let v)? = task["helper"] { helper = v }
        if let v = task["tags"].flatMap(Self.texts) { tags = Self.splitTags(v) }
        if let v = task["exclude-tags"].flatMap(Self.texts) { excludeTags = Self.splitTags(v) }
        if let v = task["filter"].flatMap(Self.texts) { filters = v }
        if let v = task["filter-out"].flatMap(Self.texts) { filterOut = v }
        if case .string(let v)? = task["output"] { output = v }
        if case .bool(let v)? = task["verbose"] { verbose = v }
        if case .bool(let v)? = task["coverage"] { coverage = v }
        if case .bool(let v)? = task["shuffle"] { shuffle = v }
        if let v = task["cpath"].flatMap(Self.texts) { cpath = v.joined(separator: ";") }
        if let v = task["Xhelper"].flatMap(Self.texts) { helperArguments = Self.splitTags(v) }
        if let v = task["e"].flatMap(Self.texts) { statements = v }
        if let v = task["Xoutput"].flatMap(Self.texts) { outputOptions = Self.splitTags(v) }
        try applyRunKeys(task, task: name)
        for key in Self.flagKeys { if case .bool(let v)? = task[key] { flags[key] = v } }
        if let v = flags["recursive"] { recursive = v }
    }

    /// A text or a list of texts.
    static func texts(_ value: LuaValue) -> [String]? {
        switch value {
        case .string(let s): return [s]
        case .table(let array, _): return array.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
        default: return nil
        }
    }

    /// `"a,b"` and `{"a", "b,c"}` as single tags.
    static func splitTags(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether `root` is a busted project: it has a `.busted` file or a `spec/` folder.
    public static func isProject(_ root: URL) -> Bool {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        return fm.fileExists(atPath: root.appendingPathComponent(".busted").path)
            || (fm.fileExists(atPath: root.appendingPathComponent("spec").path, isDirectory: &isFolder) && isFolder.boolValue)
    }
}

/// Reads a `.busted` file: a Lua chunk returning a table of tasks, each a table of options.
enum BustedConfigFile {
    /// `require` as in a spec, through Lua 5.4's default path (`./` is `root`): the project's Lua files and the
    /// installed pure-Lua modules load, a C module is refused with the spec's message (busted reads `.busted` before
    /// it sets its `lpath`).
    static func useBustedRequire(_ lua: LuaState, root: URL) throws(LuaError) {
        lua.push(function: "search") { call in
            try BustedModuleSearch.search(try call.string(1), path: BustedProject.luaPath, cpath: BustedProject.luaCPath,
                                          root: root, call: call, notes: false)
        }
        try lua.load(source: "local search = ...; package.searchers[2] = search", chunkName: "=okit.test.busted")
        lua.hostPush { lua_rotate(lua.L, -2, 1) }
        try lua.pcall(nargs: 1, nresults: 0)
    }

    static func read(_ file: URL, root: URL) throws -> [String: [String: LuaValue]] {
        let lua = try LuaState(memoryLimit: 64 << 20)
        defer { lua.close() }
        var sandbox = LuaSandbox()
        sandbox.policy = .unsafe
        sandbox.appFolder = file.deletingLastPathComponent()
        try sandbox.apply(to: lua)
        let value: LuaValue
        do throws(LuaError) {
            try useBustedRequire(lua, root: root)
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw LuaError(kind: .host, message: "cannot read \(file.path)")
            }
            try BustedModuleSearch.loadAsLua(lua, bytes: [UInt8](data), chunkName: file.lastPathComponent)
            try lua.pcall(nargs: 0, nresults: 1)
            value = lua.value(at: -1)
        } catch {
            throw FlowTestUsageError("cannot read \(file.lastPathComponent): \(error.message)")
        }
        guard case .table(_, let tasks) = value else {
            throw FlowTestUsageError(".busted must return a table of tasks, such as return { default = { lpath = \"./lib/?.lua\" } }")
        }
        var result: [String: [String: LuaValue]] = [:]
        for (key, task) in tasks {
            guard case .string(let name) = key, case .table(_, let options) = task else { continue }
            var byName: [String: LuaValue] = [:]
            for (k, v) in options { if case .string(let n) = k { byName[n] = v } }
            result[name] = byName
        }
        return result
    }
}
