import CLua
import OKitEngine

extension LuaModuleBuilder {
    /// Entities, bindings and extensions: `okit.new`, `okit.get`, `okit.getAll`, `okit.set`, `okit.call`,
    /// `okit.binding`, `okit.extension`, `okit.byId`, `okit.valid`, `okit.typeof`, `okit.rootof`, `okit.modelof`.
    func entityFunctions() -> [(String, LuaFunction)] {
        [
            ("new", { call in try makeEntity(call) }),
            ("get", { call in
                let ctx = try app.context(call, 1)
                app.push(try app.engine(of: ctx).get(ctx, call.string(2)))
                return 1
            }),
            ("getAll", { call in
                let ctx = try app.context(call, 1)
                let values = try app.engine(of: ctx).getAll(ctx, call.string(2))
                lua.newTable(array: Int32(values.count), hash: 1)
                for (i, v) in values.enumerated() { app.push(v); lua.hostPush { lua_rawseti(lua.L, -2, lua_Integer(i + 1)) } }
                lua.push(values.count); lua.rawSet(-2, "n")
                return 1
            }),
            ("set", { call in
                let ctx = try app.context(call, 1)
                let binding = try call.string(2)
                try app.engine(of: ctx).set(ctx, binding: binding, app.value(at: 3, what: "okit.set(\"\(ShellError.brief(binding))\")"))
                return 0
            }),
            ("call", { call in
                let ctx = try app.context(call, 1)
                app.push(try app.engine(of: ctx).call(ctx, call.string(2)))
                return 1
            }),
            ("binding", { call in
                lua.push(object: LuaBinding(try engine.compile(call.string(1))), metatable: OKitTypes.binding)
                return 1
            }),
            ("extension", { call in try registerExtension(call) }),
        ] + entityQueryFunctions()
    }

    /// `okit.byId`, `okit.valid`, `okit.typeof`, `okit.rootof`, `okit.modelof`.
    private func entityQueryFunctions() -> [(String, LuaFunction)] {
        [
            ("byId", { call in
                if let e = engine.lookup(id: try call.string(1)) { app.pushEntity(e) } else { lua.pushNil() }
                return 1
            }),
            ("valid", { call in
                // okit.valid(entity): true, {} — or false and field name → message for each field that breaks a rule.
                let e = try app.entity(call, 1)
                let broken = try app.engine(of: e).invalidFields(of: e)
                lua.push(broken.isEmpty)
                lua.newTable(hash: Int32(clamping: broken.count))
                for (field, message) in broken {
                    lua.push(message)
                    lua.rawSet(-2, field)
                }
                return 2
            }),
            ("typeof", { call in lua.push(try app.entity(call, 1).type.name); return 1 }),
            ("rootof", { call in app.pushEntity(try app.entity(call, 1).root); return 1 }),
            ("modelof", { call in
                if let m = try app.entity(call, 1).model { lua.push(m.name) } else { lua.pushNil() }
                return 1
            }),
        ]
    }

    /// `okit.new(type, fields)`: a new entity outside any model.
    private func makeEntity(_ call: LuaCall) throws -> Int32 {
        let type = try call.string(1)
        var fields: [String: Value] = [:]
        if call.type(2) == LUA_TTABLE {
            try app.forEachEntry(2, what: "okit.new(\"\(type)\")") { key, v in fields[key] = try app.value(at: v, what: "okit.new(\"\(type)\") field '\(key)'") }
        }
        do { app.pushEntity(try engine.make(type, fields)) } catch {
            throw app.luaWriteRefusal(error, type: engine.schema.type(named: type), engine: engine, values: { fields[$0] }, L: call.L)
        }
        return 1
    }

    /// `okit.extension(type, name, fn)`: a binding extension written in Lua.
    private func registerExtension(_ call: LuaCall) throws -> Int32 {
        let type = try call.string(1)
        let name = try call.string(2)
        try call.requireFunction(3)
        try app.checkExtensionType(type, name: name, site: LuaApp.callerPosition(call.L))
        let fn = call.ref(3)
        let said = CutTextNotice()
        engine.extensions.register(type, name) { [unowned app] receiver, args, _ in
            let v = try app.callLua(fn, receiver: receiver, args)
            if case .data(let bytes) = v, !said.done, CutTextNotice.isTextCutInsideACharacter(bytes) {
                said.done = true
                app.engine.warn("okit.extension(\"\(type)\", \"\(name)\") returned text cut inside a character "
                    + "(Lua's string.sub counts bytes, and \(CutTextNotice.describe(bytes)) is not UTF-8): it is kept as bytes, not text; "
                    + "cut at a character with utf8.offset, as in docs/lua-api.md \"Extensions\"")
            }
            return v
        }
        return 0
    }
}

/// Whether an extension's warning about text cut inside a character was said (once per extension).
final class CutTextNotice {
    var done = false

    /// Bytes that are UTF-8 text but for a character cut short at their end (`("Àncora"):sub(1, 1)` is 0xC3).
    static func isTextCutInsideACharacter(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty, String(validating: bytes, as: UTF8.self) == nil else { return false }
        // Drop a trailing incomplete sequence (its lead byte and up to two continuation bytes): the rest is text.
        var end = bytes.count
        var back = 0
        while end > 0, back < 3, bytes[end - 1] & 0xC0 == 0x80 { end -= 1; back += 1 }
        guard end > 0, bytes[end - 1] >= 0xC2, bytes[end - 1] <= 0xF4 else { return false }
        return String(validating: bytes[..<(end - 1)], as: UTF8.self) != nil
    }

    static func describe(_ bytes: [UInt8]) -> String {
        "\"" + bytes.suffix(4).map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }.joined() + "\""
    }
}
