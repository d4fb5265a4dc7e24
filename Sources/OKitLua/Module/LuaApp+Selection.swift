import CLua
import OKitEngine

/// Selection screens from Lua: `okit.selection(id, properties)`.
extension LuaApp {
    /// `okit.selection(id, properties)`.
    func declareSelection(_ call: LuaCall) throws -> Int32 {
        throw LuaRaise("okit.selection is not available yet")
    }
}
