import CLua
import OKitEngine

/// How Lua declares a screen kind of one's own: `okit.<kind>(id, properties)` calls `read` with the app, the
/// call (the id first, the properties after it) and the id, and declares what it returns. A kind brings it in
/// its `ScreenKind.readers["lua"]`; registering the kind (`LuaAppOptions.screenKinds`) adds `okit.<kind>`.
public struct LuaScreenReader: Sendable {
    public let read: @Sendable (LuaApp, LuaCall, String) throws -> any ScreenDeclaration

    public init(_ read: @escaping @Sendable (LuaApp, LuaCall, String) throws -> any ScreenDeclaration) { self.read = read }
}

extension LuaApp {
    /// The properties of `okit.<kind>(id, { … })` (the table after the id), each a text (a binding or a literal),
    /// by name; a name not in `known` is refused with the nearest known one, as is a value that is not text.
    public func textProperties(_ call: LuaCall, kind: String, id: String, known: Set<String>) throws -> [String: String] {
        try call.requireTable(2)
        var out: [String: String] = [:]
        let what = "okit.\(kind)(\"\(id)\")"
        try forEachEntry(2, what: what) { key, v in
            guard known.contains(key) else {
                throw LuaRaise("\(what): unknown property \"\(key)\"\(LuaApp.suggestion(key, Array(known)))")
            }
            guard lua_type(lua.L, v) == LUA_TSTRING, let text = lua.string(at: v) else {
                throw LuaRaise("\(what), property \(key): expected text (a binding)")
            }
            out[key] = text
        }
        return out
    }
}
