/// A menu screen (`okit.menu`, OKit's ModelMenuTableController): a list whose choices show content. A row tap
/// follows the row's `segue` as a list does; the accessory shows `rowIdentifier` as the content with the row's
/// entity (an empty one goes home); `items` are the toolbar. Each choice hides the menu unless `hideMenu` is false.
public struct MenuDeclaration: ScreenDeclaration {
    public var list: ListDeclaration
    /// The content screen an item without its own `identifier` shows ("" or nil: home).
    public var identifier: String?
    /// The content screen the row accessory shows with the row's entity ("" or nil: home).
    public var rowIdentifier: String?
    /// `hideMenu` (default `#true`): a choice hides the menu.
    public var hideMenu = "#true"
    /// The toolbar items.
    public var items: [MenuItem] = []

    public var id: String { list.id }
    public var type: String? { list.type }
    public var kind: String { "menu" }

    public init(list: ListDeclaration) { self.list = list }

    public func open(in shell: AppShell, context: Entity?, opener: (any ShellScreen)?) throws -> any ShellScreen {
        let inner = try list.openList(in: shell, context: context, opener: opener)
        let screen = MenuScreen(declaration: self, list: inner)
        screen.shell = shell
        return screen
    }
}

/// A toolbar item of a menu: a title (binding), an action, and the content screen it shows.
public struct MenuItem {
    /// The id `menuItem`/`button` choose it by (default: its title's text).
    public var id: String?
    public var title: String
    /// The content screen it shows (OKit's `identifier`).
    public var identifier: String?
    /// A screen it presents instead (`present = "settings"`).
    public var present: String?
    /// `home = true`: goes home.
    public var home = false
    public var tap: Action?

    public init(title: String, identifier: String? = nil, present: String? = nil, home: Bool = false, tap: Action? = nil) {
        self.title = title
        self.identifier = identifier
        self.present = present
        self.home = home
        self.tap = tap
    }
}

/// An open menu: a list screen with content navigation.
public final class MenuScreen: MenuItemsScreen {
    public let declaration: MenuDeclaration
    let list: ListScreen
    weak var shell: AppShell?

    init(declaration: MenuDeclaration, list: ListScreen) {
        self.declaration = declaration
        self.list = list
    }

    public var id: String { declaration.id }
    public var kind: String { declaration.kind }
    public func help() -> String? { declaration.list.help }
    public var context: Entity? { list.context }
    public var editing: Bool { list.editing }
    public func setEditing(_ on: Bool) throws { try list.setEditing(on) }
    public var viewState: ScreenViewState { list.viewState }
    public func restore(_ state: ScreenViewState) { list.restore(state) }
    public func appear() throws { try list.appear() }

    public func snapshot(offset: Int, limit: Int) throws -> ScreenSnapshot {
        var snap = try list.snapshot(offset: offset, limit: limit)
        snap.kind = "menu"
        // With `rowIdentifier` every row's accessory shows that screen with the row (OKit's accessory tap): shown,
        // so a front end and a test see it is there.
        if declaration.rowIdentifier != nil {
            for s in snap.sections.indices {
                for r in snap.sections[s].rows.indices where snap.sections[s].rows[r].accessory == nil {
                    snap.sections[s].rows[r].accessory = AccessorySnapshot(kind: "button", text: nil, enabled: true)
                }
            }
        }
        for item in declaration.items {
            let title = try list.engine.text(list.context, item.title) ?? item.title
            snap.buttons.append(ButtonSnapshot(id: item.id ?? title, title: title, enabled: true))
        }
        return snap
    }

    /// What a choice in the menu opens (`MenuItemsScreen.shows`): an item's presented screen on the default
    /// root; as the content (`content`: the screen after the tab's first) an item's or the menu's `identifier` on
    /// the tab's context, `rowIdentifier` with a row's entity; a row's own `segue` or `present`.
    func shows(_ screen: String, entity: String?, presenting: Bool, content: Bool, home: Entity?) throws -> Bool {
        let engine = list.engine
        // A URL without the root's id (`/books/!/settings`) opens it on no context, as it always did.
        if presenting, declaration.items.contains(where: { $0.present == screen }),
           entity == nil || entity == engine.defaultModel?.root.id { return true }
        if content, !presenting {
            let identifiers = declaration.items.compactMap(\.identifier) + [declaration.identifier].compactMap { $0 }
            if identifiers.contains(screen), entity == home?.id { return true }
            if declaration.rowIdentifier == screen, let id = entity,
               let e = engine.lookup(id: id, from: context?.model), try list.hasRow(e) { return true }
        }
        return try list.opens(screen, entity: entity, presenting: presenting)
    }

    var hides: Bool {
        get throws { try list.flag(declaration.hideMenu, row: list.context, default: true) }
    }

    public func tap(_ row: RowAddress) throws {
        let hide = try hides
        try list.tap(row)
        shell?.hideMenuAfterChoice(hide: hide)
    }

    /// The accessory shows `rowIdentifier` as the content with the row's entity (or goes home).
    public func accessory(_ row: RowAddress) throws {
        guard let shell else { throw ShellError.notStarted }
        let entity = try list.entity(row: row)
        let hide = try hides
        if list.declaration.actions.accyTap != nil { try list.accessory(row) }
        try shell.showContent(declaration.rowIdentifier, context: entity)
        shell.hideMenuAfterChoice(hide: hide)
    }

    public func select(_ row: RowAddress) throws { try list.select(row) }
    public func search(_ text: String, scope: String?) throws { try list.search(text, scope: scope) }
    public func titleTap() throws { try list.titleTap() }

    public func button(_ name: String) throws {
        // An item's own failure (its action threw) is reported as it is, not as "no such button".
        if try chooseItem(name, orNone: true) { return }
        try list.button(name)
    }

    /// Chooses a toolbar item by id or title: runs its action, then shows its content screen (or the menu's
    /// `identifier`). False when no item has that id or title (with `orNone`; else an error listing them).
    func chooseItem(_ title: String) throws { _ = try chooseItem(title, orNone: false) }

    func chooseItem(_ title: String, orNone: Bool) throws -> Bool {
        guard let shell else { throw ShellError.notStarted }
        var shown: [String] = []
        var chosen: Int?
        for (i, item) in declaration.items.enumerated() {
            let t = try list.engine.text(list.context, item.title) ?? item.title
            shown.append(t)
            if chosen == nil, t == title || item.id == title { chosen = i }
        }
        // `menuItem settings`: the one item whose title matches case and accents aside (not for `button`, whose
        // name may be a bar button's).
        if chosen == nil, !orNone { chosen = DetailScreen.looseMatch(title, shown) }
        guard let chosen else {
            if orNone { return false }
            throw ShellError.noMenuItem(title, items: shown)
        }
        let item = declaration.items[chosen]
        let hide = try hides
        if let tap = item.tap { try tap.run(list.engine, on: list.context) }
        shell.hideMenuAfterChoice(hide: hide)
        if let present = item.present {
            try shell.presentScreen(present, context: list.engine.defaultModel?.root)
        } else if item.home {
            try shell.showContent(nil, context: nil)
        } else if item.tap == nil || item.identifier != nil {
            try shell.showContent(item.identifier ?? declaration.identifier, context: nil)
        }
        return true
    }
}

extension AppShell {
    /// Shows a screen as the content of the current tab: the tab's stack goes back to its first screen and the
    /// screen is pushed on it with the context (nil: the current tab's own context). No id: home.
    func showContent(_ id: String?, context: Entity?) throws {
        let before = place
        presented = []
        if !stacks.isEmpty { stacks[tabIndex].removeSubrange(1...) }
        // No id, or the tab's own first screen (opened without a context of its own): home.
        let isHome = context == nil && !stacks.isEmpty && stacks[tabIndex].first?.id == id
        var shown = top
        if let id, !id.isEmpty, !isHome {
            let screen: any ShellScreen
            do { screen = try make(id, context: context ?? stacks[tabIndex].first?.context, opener: nil) } catch { restore(before); throw error }
            noteOpened(screen, over: stacks[tabIndex].first, presented: false)
            stacks[tabIndex].append(screen)
            shown = screen
        }
        // A failing `onAppear` leaves the person where they were (AppShell+Navigation.swift).
        do { try hook("onAppear", of: shown) { try shown?.appear() } } catch { restore(before); throw error }
    }
}
