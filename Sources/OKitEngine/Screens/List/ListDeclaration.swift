import Foundation

/// A list screen as declared (`okit.list`): every property is a binding string except the literal ones.
/// Property names and defaults are OKit's (screens.md, reference §5.2): a declaration starts with OKit's defaults
/// (`add`, `delete`, `edit`, `search`, `refresh` shown; `#false` for the opt-in ones), and docs/migration.md's
/// table of defaults is checked against these values.
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
    public var search = "#true"
    public var searchPath = ""
    public var index = "#false"
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
    /// The screen a row tap presents (modally) with the row's entity, when there is no `segue`.
    public var present: String?
    /// `add` shows the add button; a new entity of `type` goes to the front (`addAppend`: the end).
    public var add = "#true"
    public var addAppend = "#false"
    /// The field a prompt asks for before adding (literal field name).
    public var addName: String?
    /// The type's name in prompts (literal; default: `type`).
    public var typeName: String?
    /// `delete` allows deleting rows; `deletePrompt` (default true) confirms first.
    public var delete = "#true"
    public var deletePrompt = "#true"
    /// `deleteEnabled` per row (default true).
    public var deleteEnabled = "#true"
    /// Row taps, quick action, more actions and the accessory.
    public var actions = RowActions()
    /// `addNav`: after adding, open the new entity's `segue` screen in edit mode.
    public var addNav = "#false"
    /// `reorder` allows moving rows in edit mode (without grouping); `reorderEnabled` per row.
    public var reorder = "#false"
    public var reorderEnabled = "#true"
    /// `editEnabled` (default `#true`), per row: in edit mode the row can be deleted and moved.
    public var editEnabled = "#true"
    /// `selectPath`: in edit mode `select` toggles this bool field of the row's entity.
    public var selectPath = ""
    /// `navEnabled` (default true): row taps follow the segue.
    public var navEnabled = "#true"
    /// Edit mode: `edit` shows the Edit button, `editAlways` keeps edit mode on, `editInherit` takes edit mode
    /// from the screen that pushed it.
    public var edit = "#true"
    public var editAlways = "#false"
    public var editInherit = "#false"
    /// The title's prompt line (`promptPath`), `subTitleSwap` swaps title and subtitle.
    public var promptPath = ""
    public var subTitleSwap = "#false"
    /// `titleTap`: an action on the context when the title is tapped.
    public var titleTap: Action?
    /// `searchFilters` (multipart scopes after "All") and `searchFilterPath` (the row text a scope compares).
    public var searchFilters = ""
    public var searchFilterPath = ""

    /// `searchFilters` written as plain titles (`"fruit,veg"`: no `#`, `%`, `/`, `=`, brackets or quotes), taken
    /// literally as OKit does — each part trimmed, shown localized, compared as written; nil when it is a binding
    /// (`"#Dog,#Cat"`, `"%Food,%Travel"`).
    public var plainSearchFilters: [String]? { PlainTexts.parts(searchFilters) }
    /// `groupSort` (default `#true`, as in OKit): sections are ordered by their group key (`groupSortAsc`); false keeps
    /// them in the order their first rows come in.
    public var groupSort = "#true"
    /// `groupHeader` / `groupFooter`: a line under each section's title and one at its end, evaluated on the
    /// section (`ListSection`: `rows`, `key`), e.g. `"%Total:,rows.@sum.amount"`.
    public var groupHeader = ""
    public var groupFooter = ""
    /// `footerPath`: the list's footer line, evaluated on a section of every row shown (`rows`; `key` is nil).
    public var footerPath = ""
    /// `refresh` (default `#true`): OKit's pull to refresh — `button refresh` recomputes the rows (not drawn as a
    /// bar button: a person pulls the list).
    public var refresh = "#true"
    /// Extra bar buttons (`buttons = { { title, tap, enabled } }`).
    public var buttons: [BarButton] = []
    /// Plain help text: the help button shows when it is set.
    public var help: String?
    /// Controller hooks.
    public var hooks = ScreenHooks()

    public init(id: String) { self.id = id }

    /// The title properties, as every table screen has them (`ScreenTitleProperties`).
    var titleProperties: ScreenTitleProperties {
        ScreenTitleProperties(titlePath: titlePath, subTitlePath: subTitlePath, titleCount: titleCount, subTitleObject: subTitleObject,
                              subTitleObjectPlural: subTitleObjectPlural, subTitleSwap: subTitleSwap)
    }
}

extension ListDeclaration {
    public func open(in shell: AppShell, context: Entity?, opener: (any ShellScreen)?) throws -> any ShellScreen {
        try openList(in: shell, context: context, opener: opener)
    }

    /// Opens the list itself (menus and selections are lists inside).
    func openList(in shell: AppShell, context: Entity?, opener: (any ShellScreen)?) throws -> ListScreen {
        let screen = try ListScreen.sharingRows(engine: shell.engine, declaration: self, context: context)
        screen.shell = shell
        if try screen.flag(editInherit, row: screen.context), let opener, opener.editing { screen.editing = true }
        if try screen.flag(editAlways, row: screen.context) { screen.editing = true }
        return screen
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
