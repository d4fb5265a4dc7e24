import CLua
import OKitEngine

/// Menu screens from Lua: `okit.menu(id, properties)`.
extension LuaApp {
    /// `okit.menu(id, properties)`.
    func declareMenu(_ call: LuaCall) throws -> Int32 {
        throw LuaRaise("okit.menu is not available yet")
    }
}
