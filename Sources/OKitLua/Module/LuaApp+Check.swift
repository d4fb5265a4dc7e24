import OKitEngine

extension LuaApp {
    /// `okit-run check`: one line per problem, `FILE:LINE:COL: screen S, property P: message` (the line of the
    /// screen's declaration, the column in the binding).
    public func checkScreens() -> [String] {
        shell.check().map { i in
            let site = (screenSites[i.screen] ?? nil) ?? (appFile?.lastPathComponent ?? "app") + ":1"
            return "\(site):\(i.column): screen \(i.screen), property \(i.property): \(i.message)"
        }
    }
}
