import CLua
import OKitEngine

/// Pushes a `Snapshot` straight from the struct as Lua tables, with exactly the keys of its JSON: the engine's one
/// description of the fields (`SnapshotEncodable`), written out by an encoder that knows none of them. A JSON null
/// is simply absent, arrays are sequences, and a control's value and range keep their type (a double stays a
/// float, `3.0`; a non-finite one, null in JSON, is absent).
///
/// The tables are fresh (no metatables), so `lua_setfield` is a raw set. Runs inside `hostPush`.
struct SnapshotToLua: SnapshotEncoder {
    let L: OpaquePointer

    /// Pushes the whole snapshot (`{app, screen, alert}`).
    func push(_ s: Snapshot) {
        okit_ensure_stack(L, 24)           // deepest path: snapshot › screen › sections › section › rows › row › control
        var e = self
        e.table(s)
    }

    /// Pushes a part as a fresh table.
    mutating func table<Part: SnapshotEncodable>(_ part: Part) {
        lua_createtable(L, 0, Int32(Part.keyCount))
        part.encode(to: &self)
    }

    func string(_ s: String) {
        var s = s
        s.withUTF8 { buf in buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, buf.count) } }
    }

    mutating func field(_ k: String, _ s: String?) {
        guard let s else { return }
        string(s); lua_setfield(L, -2, k)
    }

    mutating func field(_ k: String, _ b: Bool?) {
        guard let b else { return }
        lua_pushboolean(L, b ? 1 : 0); lua_setfield(L, -2, k)
    }

    mutating func field(_ k: String, _ i: Int?) {
        guard let i else { return }
        lua_pushinteger(L, lua_Integer(i)); lua_setfield(L, -2, k)
    }

    mutating func field(_ k: String, _ v: SnapshotValue?) {
        switch v {
        case nil, .null?: return
        case .bool(let b)?: lua_pushboolean(L, b ? 1 : 0)
        case .int(let i)?: lua_pushinteger(L, lua_Integer(i))
        case .double(let d)?:
            guard d.isFinite else { return }
            lua_pushnumber(L, d)
        case .string(let s)?: string(s)
        }
        lua_setfield(L, -2, k)
    }

    mutating func field(_ k: String, _ list: [String]) {
        lua_createtable(L, Int32(clamping: list.count), 0)
        for (n, s) in list.enumerated() {
            string(s)
            lua_rawseti(L, -2, lua_Integer(n + 1))
        }
        lua_setfield(L, -2, k)
    }

    mutating func field(_ k: String, pairs: [(key: String, value: String)]) {
        lua_createtable(L, 0, Int32(clamping: pairs.count))
        for (key, value) in pairs { string(key); string(value); lua_rawset(L, -3) }
        lua_setfield(L, -2, k)
    }

    mutating func object<Part: SnapshotEncodable>(_ k: String, _ part: Part) {
        table(part)
        lua_setfield(L, -2, k)
    }

    /// A sequence under `k`, one table per part.
    mutating func objects<Part: SnapshotEncodable>(_ k: String, _ parts: [Part]) {
        lua_createtable(L, Int32(clamping: parts.count), 0)
        for (n, part) in parts.enumerated() {
            table(part)
            lua_rawseti(L, -2, lua_Integer(n + 1))
        }
        lua_setfield(L, -2, k)
    }

    func null(_ k: String) {}
}
