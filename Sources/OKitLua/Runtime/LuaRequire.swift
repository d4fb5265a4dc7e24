import CLua
import Foundation

/// `require` rooted at the app's folder (the searcher after `package.preload`).
enum LuaRequire {
    /// Whether a module name may be looked up: letters, digits, `_` and `.` between non-empty parts.
    static func isAllowed(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 200 else { return false }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.allSatisfy { part in
            !part.isEmpty && part.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
            }
        }
    }

    /// The files `name` may live in, relative to the app's folder: `a.b` → `a/b.lua`, `a/b/init.lua`,
    /// `lua/a/b.lua`, `lua/a/b/init.lua`.
    static func candidates(_ name: String) -> [String] {
        let rel = name.replacingOccurrences(of: ".", with: "/")
        return ["\(rel).lua", "\(rel)/init.lua", "lua/\(rel).lua", "lua/\(rel)/init.lua"]
    }

    /// Finds `name` and pushes its loader and relative path (chunk name `@lib/util.lua`), or pushes a message
    /// saying where it looked (Lua's `require` adds it to "module 'x' not found:").
    static func search(_ name: String, in folder: URL?, call: LuaCall) throws -> Int32 {
        let state = call.state
        guard let folder else {
            state.push("\n\tno app folder to look for module '\(name)' in")
            return 1
        }
        guard isAllowed(name) else {
            throw LuaRaise("module name '\(name)' is not allowed (letters, digits, _ and . only: modules live in the app's folder)")
        }
        let list = candidates(name)
        for c in list {
            let lookup: AppFolderPolicy.Lookup
            do {
                lookup = try AppFolderPolicy.read(c, in: folder)
            } catch let error as AppFolderPolicy.Refusal {
                throw LuaRaise("cannot load module '\(name)': \(error.message)")
            }
            guard case .file(let data) = lookup else { continue }
            try state.load(bytes: data, chunkName: c)
            state.push(c)
            return 2
        }
        state.push(list.map { "\n\tno file '\($0)' in the app's folder" }.joined())
        return 1
    }
}

/// `loadfile` and `dofile` for app code (lua-api.md "Sandbox"): files inside the app's folder only, in text
/// mode, by a relative path without `..`.
enum LuaAppFiles {
    /// `loadfile(path [, mode [, env]])`: pushes the chunk (its `_ENV` set to `env` when given), or nil and a
    /// message for a file that is missing, outside the app's folder, or does not compile.
    static func loadfile(in folder: URL?, call: LuaCall) throws -> Int32 {
        let state = call.state
        let path = try call.string(1)
        let hasEnv = lua_type(call.L, 3) != LUA_TNONE
        func fail(_ message: String) -> Int32 {
            state.pushNil()
            state.push(message)
            return 2
        }
        guard let folder else { return fail("cannot open \(path): there is no app folder") }
        let data: [UInt8]
        do {
            guard case .file(let bytes) = try AppFolderPolicy.read(path, in: folder) else { return fail("cannot open \(path)") }
            data = bytes
        } catch let error as AppFolderPolicy.Refusal {
            return fail("cannot open \(error.message)")
        }
        do {
            try state.load(bytes: data, chunkName: path)
        } catch {
            return fail(error.message)
        }
        if hasEnv {
            lua_pushvalue(call.L, 3)
            if lua_setupvalue(call.L, -2, 1) == nil { lua_settop(call.L, -2) }
        }
        return 1
    }
}
