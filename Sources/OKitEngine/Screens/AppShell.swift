/// The app shell (screens.md "App shell"): home screen or tabs, a navigation stack per tab, and the commands that
/// move between screens. Screens are declared once and opened with a context.
///
/// This first version knows list screens; detail, selection, menu and settings screens, alerts and the protection
/// cover join it.
public final class AppShell {
    public let engine: Engine
    private var lists: [String: ListDeclaration] = [:]
    private var details: [String: DetailDeclaration] = [:]
    /// The home screen ids: one screen, or tabs.
    public private(set) var home: [String] = []
    private var stacks: [[OpenScreen]] = []
    /// Alerts waiting for an answer, first shown first.
    var alerts: [PendingAlert] = []
    private var tabIndex = 0

    enum OpenScreen {
        case list(ListScreen)
        case detail(DetailScreen)

        var context: Entity? {
            switch self {
            case .list(let l): return l.context
            case .detail(let d): return d.context
            }
        }

        func snapshot(offset: Int, limit: Int) throws -> ScreenSnapshot {
            switch self {
            case .list(let l): return try l.snapshot(offset: offset, limit: limit)
            case .detail(let d): return try d.snapshot()
            }
        }
    }

    public init(engine: Engine) { self.engine = engine }

    /// Declares a list screen.
    public func declare(_ list: ListDeclaration) throws {
        if lists[list.id] != nil || details[list.id] != nil { throw ShellError.duplicateScreen(list.id) }
        lists[list.id] = list
    }

    /// Declares a detail screen.
    public func declare(_ detail: DetailDeclaration) throws {
        if lists[detail.id] != nil || details[detail.id] != nil { throw ShellError.duplicateScreen(detail.id) }
        details[detail.id] = detail
    }

    func listDeclaration(_ id: String) -> ListDeclaration? { lists[id] }
    func detailDeclaration(_ id: String) -> DetailDeclaration? { details[id] }

    /// The declared screen ids, sorted.
    public var screenIds: [String] { (Array(lists.keys) + Array(details.keys)).sorted() }

    /// Sets the home screen (or tabs) and opens it on the default model's root.
    public func start(home ids: [String]) throws {
        guard !ids.isEmpty else { throw ShellError.noHome }
        for id in ids where lists[id] == nil && details[id] == nil { throw ShellError.unknownScreen(id, known: screenIds) }
        home = ids
        stacks = try ids.map { [try make($0, context: engine.defaultModel?.root)] }
        tabIndex = 0
    }

    private func make(_ id: String, context: Entity?) throws -> OpenScreen {
        if let d = lists[id] { return .list(try ListScreen(engine: engine, declaration: d, context: context)) }
        if let d = details[id] { return .detail(try DetailScreen(engine: engine, declaration: d, context: context)) }
        throw ShellError.unknownScreen(id, known: screenIds)
    }

    var top: OpenScreen? { stacks.isEmpty ? nil : stacks[tabIndex].last }

    /// The current snapshot (lists show a window of their rows).
    public func snapshot(offset: Int = 0, limit: Int = 200) throws -> Snapshot {
        guard let screen = top else { throw ShellError.notStarted }
        var app = AppSnapshot()
        app.tab = home.isEmpty ? nil : home[tabIndex]
        app.tabs = home
        app.tabTitles = try stacks.map { stack in try stack.first?.snapshot(offset: 0, limit: 0).title ?? "" }
        app.depth = stacks[tabIndex].count
        return Snapshot(app: app, screen: try screen.snapshot(offset: offset, limit: limit), alert: alerts.first?.snapshot)
    }

    /// Opens a screen on the current tab's stack, with a context binding evaluated on the current screen's context.
    public func open(_ id: String, context binding: String? = nil) throws {
        try requireNoAlert("open")
        guard let current = top else { throw ShellError.notStarted }
        var ctx = current.context
        if let binding, !binding.isEmpty {
            guard let e = try engine.get(current.context, binding).entity else { throw ShellError.noContext(binding) }
            ctx = e
        }
        stacks[tabIndex].append(try make(id, context: ctx))
    }

    /// Pushes a screen on the current tab's stack.
    func push(_ id: String, context: Entity?) throws {
        stacks[tabIndex].append(try make(id, context: context))
    }

    /// Goes back one screen (not past the tab's home).
    public func back() throws {
        try requireNoAlert("back")
        guard !stacks.isEmpty, stacks[tabIndex].count > 1 else { throw ShellError.atHome }
        stacks[tabIndex].removeLast()
    }

    /// Switches to a tab by id.
    public func tab(_ id: String) throws {
        try requireNoAlert("tab")
        guard let i = home.firstIndex(of: id) else { throw ShellError.unknownTab(id, tabs: home) }
        tabIndex = i
    }

    /// Sets the current list's search text.
    public func search(_ text: String) throws {
        try requireNoAlert("search")
        guard case .list(let screen)? = top else { throw ShellError.wrongKind("search", "detail") }
        guard try engine.get(screen.context, screen.declaration.search.isEmpty ? "#false" : screen.declaration.search, mode: .display).truthy else {
            throw ShellError.noSearch(screen.declaration.id)
        }
        screen.search(text)
    }

    /// Turns edit mode on or off (detail screens).
    public func edit(_ on: Bool) throws {
        try requireNoAlert("edit")
        guard case .detail(let d)? = top else { throw ShellError.wrongKind("edit", "list") }
        d.setEditing(on)
    }

    /// Sets an edit cell's value (detail screens, in edit mode).
    public func set(cell: String, value: Value) throws {
        try requireNoAlert("set")
        guard case .detail(let d)? = top else { throw ShellError.wrongKind("set", "list") }
        try d.set(cell: cell, value: value)
    }
}

/// A command that is not possible now: says why; nothing changed.
public enum ShellError: Error, CustomStringConvertible {
    case duplicateScreen(String)
    case unknownScreen(String, known: [String])
    case unknownTab(String, tabs: [String])
    case noHome
    case notStarted
    case atHome
    case noContext(String)
    case noSearch(String)
    case noCell(String, cells: [String])
    case notEditable(String)
    case notEditing(String)
    case badValue(String, String)
    case noRow(String, count: Int)
    case noSegue(String)
    case wrongKind(String, String)
    case noAlert
    case noAction(String, actions: [String])
    case emptyField(String)
    case alertPending(String)
    case notAllowed(String, String)
    case disabled(String, String)

    public var description: String {
        switch self {
        case .duplicateScreen(let id): return "screen \"\(id)\" is declared twice"
        case .unknownScreen(let id, let known): return "no screen \"\(id)\" (declared: \(known.joined(separator: ", ")))"
        case .unknownTab(let id, let tabs): return "no tab \"\(id)\" (tabs: \(tabs.joined(separator: ", ")))"
        case .noHome: return "the app has no home screen (okit.app { home = \"screen id\" })"
        case .notStarted: return "the app shell has not started"
        case .atHome: return "already at the first screen of this tab"
        case .noContext(let b): return "the context binding \"\(b)\" does not reach an entity"
        case .noSearch(let id): return "screen \"\(id)\" has no search (set search = \"#true\")"
        case .noCell(let c, let cells): return "no cell \"\(c)\" (cells: \(cells.joined(separator: ", ")))"
        case .notEditable(let c): return "cell \"\(c)\" takes no value"
        case .notEditing(let c): return "cell \"\(c)\" takes values in edit mode only (edit first)"
        case .badValue(let c, let expected): return "cell \"\(c)\" takes \(expected)"
        case .noRow(let r, let count): return "no row \(r) (the list has \(count) rows)"
        case .noSegue(let id): return "rows of screen \"\(id)\" open nothing (set segue)"
        case .wrongKind(let cmd, let kind): return "\(cmd) is not a command of \(kind) screens"
        case .noAlert: return "no alert is waiting for an answer"
        case .noAction(let a, let actions): return "no action \"\(a)\" (actions: \(actions.joined(separator: ", ")))"
        case .emptyField(let a): return "\(a) needs every field filled in"
        case .alertPending(let cmd): return "an alert is waiting: answer it with respond before \(cmd)"
        case .notAllowed(let cmd, let id): return "screen \"\(id)\" does not allow \(cmd)"
        case .disabled(let what, let row): return "the \(what) of row \(row) is disabled"
        }
    }
}
