import CLua
import Foundation
import OKitEngine

extension FlowTestFile {
    /// Makes the file's state what a busted spec of `project` expects (testing.md, "Busted projects"): `require`
    /// through `package.path` (the project's `lpath`, then Lua 5.4's default path, `./` being the project root),
    /// limited to the project and the Lua 5.4 module folders; the modules `busted`, `luassert`, `say`; the global
    /// `arg` (the command line's arguments); busted's `has_error`; busted's filters, applied as tests are declared;
    /// `math.random` and `randomize()` seeded by the run's seed; then the project's helper.
    func prepareSpec(_ framework: LuaRef, _ project: BustedProject) throws {
        let lua = host.lua
        let root = project.root
        lua.push(function: "search") { call in
            let name = try call.string(1)
            return try BustedModuleSearch.search(name, path: call.stringOrNil(2) ?? "", cpath: call.stringOrNil(3) ?? "",
                                                 root: root, call: call)
        }
        framework.push()
        lua.push(project.lpath + ";" + BustedProject.luaPath)
        lua.push(project.cpath + ";" + BustedProject.luaCPath)
        if let seed = project.randomSeed { lua.push(Int64(bitPattern: seed)) } else { lua.pushNil() }
        pushSelection()
        lua.push(.array(project.arguments.map(LuaValue.string)))
        try lua.load(source: Self.specPrelude, chunkName: "=okit.test.busted")
        lua.hostPush { lua_rotate(lua.L, -8, 1) }
        try lua.pcall(nargs: 7, nresults: 0)
        try runStatements()
        guard let helper = project.helper else { return }
        let url = BustedModuleSearch.absolute(helper, root: root)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw LuaRaise("cannot read the helper \(helper) (.busted or --helper)", withPosition: false)
        }
        // As busted: the helper sees `arg` as the -Xhelper options, the global `arg` is back after it.
        try lua.load(source: "local helper, options = ...; local saved = arg; options[-1], options[0] = 'lua', 'busted'; "
            + "arg = options; local ok, err = pcall(helper); arg = saved; if not ok then error(err, 0) end",
                     chunkName: "=okit.test.helper")
        try lua.load(bytes: [UInt8](data), chunkName: helper)
        lua.push(.array(project.helperArguments.map(LuaValue.string)))
        try lua.pcall(nargs: 2, nresults: 0)
    }

    /// Gives the spec chunk on top of the stack its own environment, `T.specEnv` (its first upvalue, `_ENV`), as
    /// busted's setfenv does.
    func setSpecEnvironment(_ framework: LuaRef) {
        let lua = host.lua
        framework.push()
        _ = lua.rawGet(-1, "specEnv")
        lua.hostPush {
            _ = lua_setupvalue(lua.L, -3, 1)
        }
        lua.pop()
    }

    /// Runs busted's `-e` statements, in order, in this file's state.
    func runStatements() throws {
        for statement in options.statements {
            do {
                try host.lua.load(source: statement, chunkName: "=-e")
                try host.lua.pcall(nargs: 0, nresults: 0)
            } catch {
                throw LuaRaise("-e \(statement): \(Remedy.message(for: error, wording: options.remedyWording))", withPosition: false)
            }
        }
    }

    /// Called with `(search, T, path, cpath, seed, selection, arguments)`: busted's filters apply as tests are
    /// declared (`T.bustedSelect`); `arg` is busted's, the arguments given after `okit-run test`.
    static let specPrelude = """
    local search, T, path, cpath, seed, selection, arguments = ...
    T.busted, T.bustedSelect = true, selection
    T.specEnv = T.installSpec()
    package.path, package.cpath = path, cpath
    package.searchers[2] = function(name) return search(name, package.path, package.cpath) end
    for name, module in pairs(T.bustedModules()) do
      package.preload[name] = function() return module end
    end
    -- as busted run by `lua`: a spec may start Lua again from arg[-1]; arg[1], … are the command line's
    arguments[-1], arguments[0] = "lua", "busted"
    arg = arguments
    -- As under busted: `print` and `io.write` go to stdout as they run, in order with the results written there.
    local stdout, tostring, select = io.stdout, tostring, select
    stdout:setvbuf("no")
    print = function(...)
      for i = 1, select("#", ...) do
        if i > 1 then stdout:write("\\t") end
        stdout:write(tostring((select(i, ...))))
      end
      stdout:write("\\n")
    end
    if seed then
      T.randomSeed = seed
      math.randomseed(seed)
    end
    """
}
