import OKitEngine

/// `ModelApplicationContoller`'s inspectables a port of an OKit app may keep in `okit.app` (docs/migration.md):
/// `homeIdentifier` and `menuIdentifier` name the home and menu screens as `home` and `menu` do; `storyboardName`,
/// `popGesture` and `menuHideStatusBar` have no headless meaning and are ignored, their bindings compiled.
extension LuaApp {
    /// OKit's names `okit.app` takes beside its own.
    static let okitAppNames = ["homeIdentifier", "menuIdentifier", "storyboardName", "popGesture", "menuHideStatusBar"]

    /// The declaration with `homeIdentifier`/`menuIdentifier` taken as `home`/`menu` (refused when both are given
    /// and differ: one of them would be dropped without a word) and the inert bindings compiled.
    func takingOKitAppNames(_ declaration: LuaValue) throws -> LuaValue {
        guard case .table(let array, var hash) = declaration else { return declaration }
        for (okitName, own) in [("homeIdentifier", "home"), ("menuIdentifier", "menu")] {
            guard let value = hash[.string(okitName)] else { continue }
            guard case .string(let id) = value, !id.isEmpty else {
                throw LuaRaise("okit.app: \(okitName) must be the id of a screen, as \(own) is")
            }
            if let mine = hash[.string(own)] {
                guard mine == value else {
                    throw LuaRaise("okit.app: \(own) and OKit's \(okitName) name different screens (\(describe(mine)), \"\(id)\"); keep \(own) only")
                }
                continue
            }
            hash[.string(own)] = value
        }
        for name in ["popGesture", "menuHideStatusBar"] {
            guard case .string(let text)? = hash[.string(name)] else { continue }
            do { _ = try engine.compile(text) } catch { throw LuaRaise("okit.app, \(name): \(error)") }
        }
        return .table(array: array, hash: hash)
    }

    private func describe(_ v: LuaValue) -> String {
        if case .string(let s) = v { return "\"\(s)\"" }
        return "a table"
    }
}
