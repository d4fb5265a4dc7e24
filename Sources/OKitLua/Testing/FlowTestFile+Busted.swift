import CLua
import Foundation

extension FlowTestFile {
    /// Makes the file's state what a busted spec of `project` expects (testing.md, "Busted projects"): `require`
    /// through `package.path` (the project's `lpath`, then Lua 5.4's default path, `./` being the project root),
    /// limited to the project and the Lua 5.4 module folders; the modules `busted`, `luassert`, `say`; the global
    /// `arg`; busted's `has_error` and tags; `math.random` and `randomize()` seeded by the run's seed; then the
    /// project's helper.
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
        lua.push(BustedProject.luaCPath)
        if let seed = project.randomSeed { lua.push(Int64(bitPattern: seed)) } else { lua.pushNil() }
        try lua.load(source: Self.specPrelude, chunkName: "=okit.test.busted")
        lua.hostPush { lua_rotate(lua.L, -6, 1) }
        try lua.pcall(nargs: 5, nresults: 0)
        guard let helper = project.helper else { return }
        let url = BustedModuleSearch.absolute(helper, root: root)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw LuaRaise("cannot read the helper \(helper) (.busted or --helper)", withPosition: false)
        }
        try lua.load(bytes: [UInt8](data), chunkName: helper)
        try lua.pcall(nargs: 0, nresults: 0)
    }

    /// Called with `(search, T, path, cpath, seed)`.
    static let specPrelude = """
    local search, T, path, cpath, seed = ...
    T.busted, T.bustedTags = true, true
    package.path, package.cpath = path, cpath
    package.searchers[2] = function(name) return search(name, package.path, package.cpath) end
    for name, module in pairs(T.bustedModules()) do
      package.preload[name] = function() return module end
    end
    arg = arg or { [-1] = "lua", [0] = "busted" }    -- as busted run by `lua`: a spec may start Lua again from arg[-1]
    if seed then
      T.randomSeed = seed
      math.randomseed(seed)
    end
    """
}
