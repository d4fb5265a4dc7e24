import OKitEngine

/// How the web front end shows one screen kind and takes its forms (web.md "Pages and forms"). The page around
/// it — bar, title, help, messages, alert, tabs — is the same for every kind. The built-in kinds' pages are in
/// this folder; a kind of one's own brings its page in its `ScreenKind.renderers["web"]`.
public protocol WebScreenKind: Sendable {
    /// The screen's own content, under its title, help and messages.
    func body(_ page: PageRenderer) -> [HTMLNode]
    /// A bar button of the screen's own (not `edit`, `add`, `help`, `search`, `clear`, `close`, `refresh`).
    func barButton(_ button: ButtonSnapshot, _ page: PageRenderer) -> HTMLNode
    /// Whether the bar offers the Menu button on the kind's screens (when the app has a menu).
    var showsMenuButton: Bool { get }
    /// What the page needs from the screen's declaration (row links, tappable cells, edit-mode row actions).
    /// The server has set the page's language, words and breadcrumb titles before (`adoptLanguage`).
    func prepare(_ context: inout PageContext, _ place: WebPagePlace)
    /// Whether a command on the kind's screen changes everyone's data, so it needs the login token.
    func needsToken(_ command: String, _ place: WebCommandPlace) -> Bool
    /// After a command from the kind's page ran, with the form's `fields`: a compound form answers the prompts
    /// the command opened.
    func afterCommand(_ command: String, fields: [String], _ driver: Driver) throws
}

extension WebScreenKind {
    public func barButton(_ b: ButtonSnapshot, _ page: PageRenderer) -> HTMLNode {
        page.commandButton("button", [("id", b.id)], title: b.title, enabled: b.enabled)
    }
    public var showsMenuButton: Bool { true }
    public func prepare(_ context: inout PageContext, _ place: WebPagePlace) {}
    public func needsToken(_ command: String, _ place: WebCommandPlace) -> Bool { false }
    public func afterCommand(_ command: String, fields: [String], _ driver: Driver) throws {}
}

/// Where a page is rendered: the person's shell, its snapshot and place.
public struct WebPagePlace {
    public let shell: AppShell
    public let snapshot: Snapshot
    public let location: ShellLocation
}

/// A command posted from a page: the shell it runs on, the snapshot the page showed, the form's fields.
public struct WebCommandPlace {
    public let shell: AppShell
    public let snapshot: Snapshot
    public let field: (String) -> String?
}

/// The web pages of the screen kinds, by kind name: the built-in ones (`builtIn`), and the ones an app's own
/// kinds bring (`init(_:)`). A kind without a page is shown as a list.
public struct WebKinds: Sendable {
    public private(set) var pages: [String: any WebScreenKind]
    /// The page of a kind that has none of its own.
    public var fallback: any WebScreenKind = ListPage(rows: .init())

    public init(pages: [String: any WebScreenKind]) { self.pages = pages }

    /// The built-in pages, with those of `kinds` (their `renderers["web"]`) over them.
    public init(_ kinds: ScreenKinds) {
        self = .builtIn
        for kind in kinds.kinds {
            if let page = kind.renderer("web", as: (any WebScreenKind).self) { pages[kind.name] = page }
        }
    }

    public mutating func register(_ kind: String, _ page: any WebScreenKind) { pages[kind] = page }

    /// The page of a kind.
    public func page(for kind: String) -> any WebScreenKind { pages[kind] ?? fallback }

    public static let builtIn = WebKinds(pages: [
        "list": ListPage(rows: .init(main: .tap, editActions: true)),
        "selection": ListPage(rows: .init(main: .select)),
        "menu": MenuPage(),
        "detail": DetailPage(),
        "settings": DetailPage(guardsSettings: true),
        "backups": BackupsPage(),
    ])
}
