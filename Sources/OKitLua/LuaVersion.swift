import CLua

/// The Lua runtime of okit (the bridge arrives with the Lua issue).
public enum LuaRuntimeInfo {
    /// The Lua release the bridge is linked against, e.g. "Lua 5.4.4".
    public static var release: String { String(cString: okit_lua_version()) }
}
