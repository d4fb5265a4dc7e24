/// The menu (screens.md "Menu"): `okit.app { menu = "id" }` names a menu screen; `menu` opens it over the
/// current screen, choosing a row, accessory or item hides it (unless `hideMenu = "#false"`) and shows the target.
extension AppShell {
    /// Opens the menu.
    public func openMenu() throws {
        try begin("menu")
        guard let id = menuId else { throw ShellError.noMenu }
        if menuScreen == nil { menuScreen = try make(id, context: engine.defaultModel?.root, opener: nil) }
        try navigate(leavingDisappears: false) { menuOpen = true }
    }

    /// Chooses a toolbar item of the open menu by title.
    public func menuItem(_ title: String) throws {
        try begin("menuItem")
        guard let id = menuId else { throw ShellError.noMenu }
        if menuScreen == nil { menuScreen = try make(id, context: engine.defaultModel?.root, opener: nil) }
        guard let menu = menuScreen as? MenuItemsScreen else { throw ShellError.notYet("menu items") }
        try menu.chooseItem(title)
    }

    /// Hides the menu after a choice, unless its `hideMenu` is false.
    func hideMenuAfterChoice(hide: Bool) { if hide { menuOpen = false } }
}

/// A menu screen that has toolbar items.
protocol MenuItemsScreen: ShellScreen {
    func chooseItem(_ title: String) throws
    /// Whether a choice in the menu opens `screen` on the entity `entity`, presented or pushed (`content`: as the screen after the tab's
    /// first, whose context is `home`).
    func shows(_ screen: String, entity: String?, presenting: Bool, content: Bool, home: Entity?) throws -> Bool
}
