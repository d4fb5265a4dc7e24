/// A shell's snapshot with its list's window shared (issue 39 item 2, ListScreen+SharedWindow.swift): when the
/// top screen is a list that shows what its keeper shows, the screen's part is the keeper's window — computed
/// once per change for every viewer — and only the shell's own part (tabs, theme, depth, help, alert) is this
/// shell's. A live snapshot (`ScreenWatch`) takes it; anything else asks `snapshot(offset:limit:)`, whose screen
/// part is the list's own and equal to the shared one.
extension AppShell {
    /// The snapshot with the shared window and the window, or nil when the top screen does not show one
    /// (not a list, a search, a scope, edit mode, another offset, a covered shell).
    func snapshotSharingWindow(offset: Int, limit: Int) throws -> (snapshot: Snapshot, window: SharedListWindow)? {
        guard !covered, let list = top as? ListScreen, let window = list.sharedWindow(offset: offset, limit: limit) else {
            return nil
        }
        // The list's own row snapshots would go on listening to writes while nobody shows them.
        if list.keepsOwnWindow { list.dropOwnWindow() }
        let app = try appSnapshotPart()
        var screen = try window.snapshot()
        if let helpText { screen.help = helpText }
        return (Snapshot(app: app, screen: screen, alert: alerts.first?.snapshot), window)
    }

    /// The shell's own part of a snapshot that is not covered (tabs, their titles, depth, theme: the theme named by
    /// okit.app's themeName, "" or unbound: default, evaluated for each snapshot); `snapshot(offset:limit:)` and the
    /// shared window's snapshot both take it from here.
    func appSnapshotPart() throws -> AppSnapshot {
        var app = AppSnapshot()
        app.tab = home.isEmpty ? nil : home[tabIndex]
        app.tabs = home
        app.tabTitles = try stacks.map { stack in try stack.first?.tabTitle() ?? "" }
        app.depth = currentStackCount
        app.presented = !presented.isEmpty
        app.offline = engine.hasSharedModels ? engine.isOffline : nil
        app.menuOpen = menuOpen
        let name = try themeOverride ?? settingTheme()
        theme = name
        themeValues = themes[name] ?? []
        app.theme = theme
        app.themeValues = themeValues
        return app
    }
}
