import Foundation

/// The app shell (screens.md "App shell"): home screen or tabs, a navigation stack per tab, presented screens
/// (each a stack of its own), the menu and the alert queue, and the commands that move between screens.
/// Screens are declared once (any `ScreenDeclaration`) and opened with a context.
public final class AppShell {
    public let engine: Engine
    private var declarations: [String: any ScreenDeclaration] = [:]
    /// Screen ids in declaration order.
    public private(set) var declarationOrder: [String] = []
    /// The home screen ids: one screen, or tabs.
    public private(set) var home: [String] = []
    var stacks: [[any ShellScreen]] = []
    /// Presented screens, each with its own stack; the last is on top.
    var presented: [[any ShellScreen]] = []
    /// The menu screen (`okit.app { menu }`), open or not.
    public internal(set) var menuId: String?
    var menuScreen: (any ShellScreen)?
    var menuOpen = false
    /// Alerts waiting for an answer, first shown first.
    var alerts: [PendingAlert] = []
    /// Creates, lists, restores and deletes backups for the backups screen (set by the app host).
    public weak var backupService: (any BackupService)?
    var tabIndex = 0
    /// The help text shown until the next command (`help`).
    var helpText: String?
    /// Set while a list opens a screen by a row's segue or a bar button (OKit's list `prepare`): a selection
    /// opened then takes the list's context as its selection context and its `dataPath` as default selectionPath.
    var openingList: OpeningList?
    /// App-level values reported in snapshots (theme, cover); the settings issue fills them.
    public var theme = "default"
    /// A theme of this shell's own instead of the app's setting (the web gives each session its own theme).
    public var themeOverride: String?
    public var themeValues: [(key: String, value: String)] = []
    public internal(set) var covered = false
    public var cover: String?
    /// `protectionImage` on the cover (an image name or path, as the binding gives it).
    public var coverImage: String?
    /// When the app went to the background while protected (AppShell+Protection.swift).
    var backgroundedAt: Date?
    /// The app's settings bindings (`okit.app { themeName = "…", protection = "…", … }`), evaluated on the default
    /// model's root for each snapshot; a theme change keeps the navigation state.
    public var settingsBindings: [String: String] = [:]
    /// Where the settings bindings are evaluated (`okit.app { contextPath }`, on the default model's root).
    public var settingsContextPath = ""
    /// Themes by name: their values for snapshots (`themeValues`); `default` and `dark` exist
    /// (`okit.theme` adds or replaces).
    public var themes: [String: [(key: String, value: String)]] = AppShell.builtInThemes

    /// The two themes every app has.
    public static let builtInThemes: [String: [(key: String, value: String)]] = [
        "default": [("backgroundColor", "#FFFFFF"), ("textColor", "#000000"), ("tintColor", "#007AFF")],
        "dark": [("backgroundColor", "#000000"), ("textColor", "#FFFFFF"), ("tintColor", "#FF9500")],
    ]

    /// The entity each open screen was opened with (before its own `contextPath`), by screen: where the person is
    /// (`location`) names these, so opening them again gives the same screens.
    var openedWith: [ObjectIdentifier: Entity?] = [:]
    /// The screens this shell opened, each over the screen under it: places a URL may name (`reaches`).
    var openedSteps = OpenedSteps()

    /// The screen kinds this shell's screens may be of, with their commands.
    public let kinds: ScreenKinds

    public init(engine: Engine, kinds: ScreenKinds = .builtIn) {
        self.engine = engine
        self.kinds = kinds
    }

    /// Declares a screen; ids are unique across kinds, and its kind must be one of `kinds`.
    public func declare(_ declaration: any ScreenDeclaration) throws {
        if declarations[declaration.id] != nil { throw ShellError.duplicateScreen(declaration.id) }
        if kinds[declaration.kind] == nil { throw ShellError.unknownKind(declaration.kind, screen: declaration.id, kinds: kinds.names) }
        declarations[declaration.id] = declaration
        declarationOrder.append(declaration.id)
    }

    /// A declared screen.
    public func declaration(_ id: String) -> (any ScreenDeclaration)? { declarations[id] }

    /// The declared screen ids, sorted.
    public var screenIds: [String] { declarations.keys.sorted() }

    /// Sets the home screen (or tabs) and opens it on the default model's root.
    public func start(home ids: [String], menu: String? = nil) throws {
        guard !ids.isEmpty else { throw ShellError.noHome }
        for id in ids + (menu.map { [$0] } ?? []) where declarations[id] == nil { throw ShellError.unknownScreen(id, known: screenIds) }
        home = ids
        menuId = menu
        menuScreen = nil
        menuOpen = false
        presented = []
        stacks = try ids.map { [try make($0, context: engine.defaultModel?.root, opener: nil)] }
        tabIndex = 0
        try top?.appear()
    }

    func make(_ id: String, context: Entity?, opener: (any ShellScreen)?) throws -> any ShellScreen {
        guard let d = declarations[id] else { throw ShellError.unknownScreen(id, known: screenIds) }
        let screen = try d.open(in: self, context: context, opener: opener)
        openedWith[ObjectIdentifier(screen)] = context
        return screen
    }

    /// The screen a person sees: the open menu, else the top presented screen, else the top of the tab's stack.
    public var top: (any ShellScreen)? {
        if menuOpen, let m = menuScreen { return m }
        if let p = presented.last { return p.last }
        return stacks.isEmpty ? nil : stacks[tabIndex].last
    }

    /// The screens below the top one on its stack, first first (the last is where Back goes).
    public var stackBelowTop: [any ShellScreen] {
        if let p = presented.last { return Array(p.dropLast()) }
        return stacks.isEmpty ? [] : Array(stacks[tabIndex].dropLast())
    }

    /// The stack the top screen is on.
    var currentStackCount: Int { presented.last?.count ?? (stacks.isEmpty ? 0 : stacks[tabIndex].count) }

    /// The current snapshot (lists show a window of their rows).
    public func snapshot(offset: Int = 0, limit: Int = 200) throws -> Snapshot {
        guard let screen = top else { throw ShellError.notStarted }
        // Covered: the snapshot holds nothing computed from the models (no tab titles, title, theme, depth):
        // only the declared tab ids and what the cover shows.
        if covered {
            var app = AppSnapshot()
            app.tab = home.isEmpty ? nil : home[tabIndex]
            app.tabs = home
            app.covered = true
            app.cover = cover
            return Snapshot(app: app, screen: coverScreen, alert: nil)
        }
        let app = try appSnapshotPart()
        var s = try screen.snapshot(offset: offset, limit: limit)
        if let helpText { s.help = helpText }
        return Snapshot(app: app, screen: s, alert: alerts.first?.snapshot)
    }

    /// The theme named by the app's setting (`okit.app { themeName }`; "" or unbound: `default`).
    public func settingTheme() throws -> String {
        if let b = settingsBindings["themeName"], let n = try engine.text(settingsContext(), b), !n.isEmpty { return n }
        return "default"
    }

    /// The context of the settings bindings.
    public func settingsContext() throws -> Entity? {
        let root = engine.defaultModel?.root
        return settingsContextPath.isEmpty ? root : try engine.get(root, settingsContextPath).entity
    }

    /// The context of settings screens opened from the menu, the app or a command: `okit.app { contextPath }` on
    /// the default root, else the root of the model of type `Settings`, else the default root (as the check has it).
    public func settingsScreenContext() throws -> Entity? {
        if !settingsContextPath.isEmpty { return try settingsContext() }
        return engine.models.first { $0.rootType.name == "Settings" }?.root ?? engine.defaultModel?.root
    }

    /// Starts a command: refused while an alert waits (queries always run); clears the help text.
    func begin(_ command: String, query: Bool = false) throws {
        if query { return }
        if covered { throw ShellError.covered(command) }
        try requireNoAlert(command)
        helpText = nil
    }

    /// Opens a screen on the current stack, with a context binding evaluated on the current screen's context.
    public func open(_ id: String, context binding: String? = nil) throws {
        try begin("open")
        guard let current = top else { throw ShellError.notStarted }
        try push(id, context: try contextEntity(binding, from: current), declared: false)
    }

    /// The context of `open`/`present` (screens.md: an entity id, or a binding): the entity whose id is the text
    /// exactly (a UUID or a code, in any loaded model) comes first; otherwise the text is a binding evaluated on
    /// the current screen's context (none: that context). A binding that does not parse says it was no id
    /// either; a long one is shown shortened.
    func contextEntity(_ binding: String?, from current: any ShellScreen) throws -> Entity? {
        guard let binding, !binding.isEmpty else { return current.context }
        if let e = engine.lookup(id: binding, from: current.context?.model) { return e }
        do {
            guard let e = try engine.get(current.context, binding).entity else { throw ShellError.noContext(binding) }
            return e
        } catch let e as BindingError {
            let long = e.binding.count > 60 || e.binding.contains(where: \.isNewline)
            throw BindingError(binding: long ? ShellError.brief(e.binding, 60) : e.binding, column: e.column,
                               message: ShellError.brief(e.message, 120) + " (the context is an entity id or a binding; no entity has this id)")
        }
    }

    /// Pushes a screen on the current stack (the top presented screen's, else the tab's).
    func push(_ id: String, context: Entity?, declared: Bool = true) throws {
        let opener = top
        if declared { try opener?.willOpenScreen() }
        let screen = try make(id, context: context, opener: opener)
        noteOpened(screen, over: screenUnderNext, presented: false)
        try navigate {
            if presented.isEmpty { stacks[tabIndex].append(screen) } else { presented[presented.count - 1].append(screen) }
        }
    }

    /// Presents a screen modally (a stack of its own), on a context.
    func presentScreen(_ id: String, context: Entity?, declared: Bool = true) throws {
        let opener = top
        if declared { try opener?.willOpenScreen() }
        let screen = try make(id, context: context, opener: opener)
        noteOpened(screen, over: screenUnderNext, presented: true)
        try navigate { presented.append([screen]) }
    }

    /// Opens a screen on an entity (or the current screen's context): navigation from host code (Lua actions).
    public func open(_ id: String, entity: Entity?) throws {
        try begin("open")
        guard let current = top else { throw ShellError.notStarted }
        try push(id, context: entity ?? current.context, declared: false)
    }

    /// Presents a screen on an entity (or the current screen's context): navigation from host code.
    public func present(_ id: String, entity: Entity?) throws {
        try begin("present")
        guard let current = top else { throw ShellError.notStarted }
        try presentScreen(id, context: entity ?? current.context, declared: false)
    }

    /// Presents a screen modally, with a context binding evaluated on the current screen's context.
    public func present(_ id: String, context binding: String? = nil) throws {
        try begin("present")
        guard let current = top else { throw ShellError.notStarted }
        try presentScreen(id, context: try contextEntity(binding, from: current), declared: false)
    }

    /// Goes back one screen (not past the first screen of the tab or of the presented stack).
    public func back() throws {
        try begin("back")
        if menuOpen { menuOpen = false; return }
        try navigate {
            if !presented.isEmpty {
                guard presented[presented.count - 1].count > 1 else { throw ShellError.atPresentedRoot }
                presented[presented.count - 1].removeLast()
            } else {
                guard !stacks.isEmpty, stacks[tabIndex].count > 1 else { throw ShellError.atHome }
                stacks[tabIndex].removeLast()
            }
        }
    }

    /// Dismisses the top presented screen (with its stack) and returns to exactly where the user was.
    public func close() throws {
        try begin("close")
        if menuOpen { menuOpen = false; return }
        guard !presented.isEmpty else { throw ShellError.nothingPresented }
        try navigate { presented.removeLast() }
    }

    /// Dismisses the presented screen that holds `screen`, if it is presented (selection `autoClose`).
    func dismiss(_ screen: any ShellScreen) throws {
        guard let i = presented.lastIndex(where: { $0.contains { $0 === screen } }) else { return }
        try navigate { presented.removeSubrange(i...) }
    }

    /// Switches to a tab by id (presented screens stay on top, as in UIKit).
    public func tab(_ id: String) throws {
        try begin("tab")
        let i = try tabIndex(of: id)
        try navigate {
            tabIndex = i
            menuOpen = false
        }
    }

    /// Turns edit mode on or off on the current screen.
    public func edit(_ on: Bool) throws {
        try begin("edit")
        guard let screen = top else { throw ShellError.notStarted }
        try screen.setEditing(on)
    }

    /// Puts the current screen's help text into the snapshot until the next command.
    public func help() throws {
        try requireNoAlert("help")
        guard let screen = top else { throw ShellError.notStarted }
        guard let text = screen.help() else { throw ShellError.noHelp(screen.id) }
        helpText = text
    }
}
