/// The app shell (screens.md "App shell"): home screen or tabs, a navigation stack per tab, and the commands that
/// move between screens. Screens are declared once and opened with a context.
///
/// This first version knows list screens; detail, selection, menu and settings screens, alerts and the protection
/// cover join it.
public final class AppShell {
    public let engine: Engine
    private var lists: [String: ListDeclaration] = [:]
    /// The home screen ids: one screen, or tabs.
    public private(set) var home: [String] = []
    private var stacks: [[ListScreen]] = []
    private var tabIndex = 0

    public init(engine: Engine) { self.engine = engine }

    /// Declares a list screen.
    public func declare(_ list: ListDeclaration) throws {
        if lists[list.id] != nil { throw ShellError.duplicateScreen(list.id) }
        lists[list.id] = list
    }

    /// The declared screen ids, sorted.
    public var screenIds: [String] { lists.keys.sorted() }

    /// Sets the home screen (or tabs) and opens it on the default model's root.
    public func start(home ids: [String]) throws {
        guard !ids.isEmpty else { throw ShellError.noHome }
        for id in ids where lists[id] == nil { throw ShellError.unknownScreen(id, known: screenIds) }
        home = ids
        stacks = try ids.map { [try make($0, context: engine.defaultModel?.root)] }
        tabIndex = 0
    }

    private func make(_ id: String, context: Entity?) throws -> ListScreen {
        guard let d = lists[id] else { throw ShellError.unknownScreen(id, known: screenIds) }
        return try ListScreen(engine: engine, declaration: d, context: context)
    }

    var top: ListScreen? { stacks.isEmpty ? nil : stacks[tabIndex].last }

    /// The current snapshot (a window of the list).
    public func snapshot(offset: Int = 0, limit: Int = 200) throws -> Snapshot {
        guard let screen = top else { throw ShellError.notStarted }
        var app = AppSnapshot()
        app.tab = home.isEmpty ? nil : home[tabIndex]
        app.tabs = home
        app.tabTitles = try stacks.map { stack in try stack.first.flatMap { try $0.snapshot(offset: 0, limit: 0).title } ?? "" }
        app.depth = stacks[tabIndex].count
        return Snapshot(app: app, screen: try screen.snapshot(offset: offset, limit: limit))
    }

    /// Opens a screen on the current tab's stack, with a context binding evaluated on the current screen's context.
    public func open(_ id: String, context binding: String? = nil) throws {
        guard let current = top else { throw ShellError.notStarted }
        var ctx = current.context
        if let binding, !binding.isEmpty {
            guard let e = try engine.get(current.context, binding).entity else { throw ShellError.noContext(binding) }
            ctx = e
        }
        stacks[tabIndex].append(try make(id, context: ctx))
    }

    /// Goes back one screen (not past the tab's home).
    public func back() throws {
        guard !stacks.isEmpty, stacks[tabIndex].count > 1 else { throw ShellError.atHome }
        stacks[tabIndex].removeLast()
    }

    /// Switches to a tab by id.
    public func tab(_ id: String) throws {
        guard let i = home.firstIndex(of: id) else { throw ShellError.unknownTab(id, tabs: home) }
        tabIndex = i
    }

    /// Sets the current list's search text.
    public func search(_ text: String) throws {
        guard let screen = top else { throw ShellError.notStarted }
        guard try engine.get(screen.context, screen.declaration.search.isEmpty ? "#false" : screen.declaration.search, mode: .display).truthy else {
            throw ShellError.noSearch(screen.declaration.id)
        }
        screen.search(text)
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
        }
    }
}
