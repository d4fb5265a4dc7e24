/// A list screen as declared (`okit.list`): every property is a binding string except the literal ones.
/// Property names and defaults are OKit's (screens.md).
public struct ListDeclaration: ScreenDeclaration {
    public var id: String
    public var kind: String { "list" }
    /// The row entity type, for checks and `add`.
    public var type: String?
    public var contextPath = ""
    public var dataPath = ""
    public var titlePath = ""
    public var subTitlePath = ""
    public var titleCount = ""
    public var subTitleObject = ""
    public var subTitleObjectPlural = ""
    public var rowSort = ""
    public var rowSortAsc = "#true"
    public var group = ""
    public var groupName = ""
    public var groupSortAsc = "#true"
    public var search = ""
    public var searchPath = ""
    public var index = ""
    /// The row cell (OKit's table cell of the list's prototype): `path` (text), `detailPath` (detail), `contextPath`
    /// (moves the cell's bindings off the row entity), `imagePath`, `accyPath`, heights and show flags, ... — or an
    /// edit cell (`okit.cell.date { … }`) whose control takes `set` with a row address. Its bindings are evaluated
    /// on the row entity (after the cell's `contextPath`).
    public var cell = CellDeclaration(kind: "table")
    /// The cell's `path` (the row's text).
    public var cellPath: String {
        get { cell["path"] }
        set { cell.properties["path"] = newValue }
    }
    /// The cell's `detailPath` (the row's detail text).
    public var cellDetailPath: String {
        get { cell["detailPath"] }
        set { cell.properties["detailPath"] = newValue }
    }
    /// The screen a row tap opens with the row's entity (a screen id, not a binding).
    public var segue: String?
    /// `add` shows the add button; a new entity of `type` goes to the front (`addAppend`: the end).
    public var add = ""
    public var addAppend = ""
    /// The field a prompt asks for before adding (literal field name).
    public var addName: String?
    /// The type's name in prompts (literal; default: `type`).
    public var typeName: String?
    /// `delete` allows deleting rows; `deletePrompt` (default true) confirms first.
    public var delete = ""
    public var deletePrompt = "#true"
    /// `deleteEnabled` per row (default true).
    public var deleteEnabled = ""
    /// Row taps, quick action, more actions and the accessory.
    public var actions = RowActions()
    /// `addNav`: after adding, open the new entity's `segue` screen in edit mode.
    public var addNav = ""
    /// `reorder` allows moving rows in edit mode (without grouping); `reorderEnabled` per row.
    public var reorder = ""
    public var reorderEnabled = ""
    /// `selectPath`: in edit mode `select` toggles this bool field of the row's entity.
    public var selectPath = ""
    /// `navEnabled` (default true): row taps follow the segue.
    public var navEnabled = ""
    /// Edit mode: `edit` shows the Edit button, `editAlways` keeps edit mode on, `editInherit` takes edit mode
    /// from the screen that pushed it.
    public var edit = ""
    public var editAlways = ""
    public var editInherit = ""
    /// The title's prompt line (`promptPath`), `subTitleSwap` swaps title and subtitle.
    public var promptPath = ""
    public var subTitleSwap = ""
    /// `titleTap`: an action on the context when the title is tapped.
    public var titleTap: Action?
    /// `searchFilters` (multipart scopes after "All") and `searchFilterPath` (the row text a scope compares).
    public var searchFilters = ""
    public var searchFilterPath = ""
    /// `groupSort` (the sections' key; default the group key).
    public var groupSort = ""
    /// Button flags beyond `edit`/`add`/`search`: `refresh`.
    public var refresh = ""
    /// Extra bar buttons (`buttons = { { title, tap, enabled } }`).
    public var buttons: [BarButton] = []
    /// Plain help text: the help button shows when it is set.
    public var help: String?
    /// Controller hooks.
    public var hooks = ScreenHooks()

    public init(id: String) { self.id = id }
}

extension ListDeclaration {
    public func open(in shell: AppShell, context: Entity?, opener: (any ShellScreen)?) throws -> any ShellScreen {
        let screen = try ListScreen(engine: shell.engine, declaration: self, context: context)
        screen.shell = shell
        if try screen.flag(editInherit, row: screen.context), let opener, opener.editing { screen.editing = true }
        if try screen.flag(editAlways, row: screen.context) { screen.editing = true }
        return screen
    }
}

/// A bar button declared on a screen: a title (binding), an action and an `enabled` binding.
public struct BarButton {
    public var title: String
    public var tap: Action?
    public var enabled: String
    public var segue: String?
    public var present: String?

    public init(title: String, tap: Action? = nil, enabled: String = "", segue: String? = nil, present: String? = nil) {
        self.title = title
        self.tap = tap
        self.enabled = enabled
        self.segue = segue
        self.present = present
    }
}

/// Controller hooks (OKit's controller callbacks): each an action on the screen's context (or the new/removed
/// entity for `onAdd`/`onDelete`).
public struct ScreenHooks {
    public var onAppear: Action?
    /// When the screen stops being the top one (another opens over it, it is closed, another tab is shown).
    public var onDisappear: Action?
    public var onAdd: Action?
    public var onDelete: Action?
    public var onEdit: Action?
    public var onSelect: Action?

    public init() {}
}
