/// A selection screen as declared (`okit.selection`, OKit's ModelSelectionTableController): a list whose rows are
/// candidates, selected into references held by another entity (screens.md "Selection screens").
///
/// The rows come from the list properties (`dataPath` on the screen's context, sorting, grouping, search, cell).
/// What is selected lives in the model: `selectionPath`, evaluated on the *selection context*, is a `ref` field
/// (single choice) or an array or set of refs (several); a row is checked when one of those refs points to it.
///
/// The selection context is the opening list's context when a list opens the screen (by a row's segue — the rows
/// then run on the row's entity — or a bar button), else the context handed over (a detail's or a cell's context,
/// the entity an `open` binding reaches), made relative by `selectionContextPath`. The selection's own
/// `contextPath` moves only its rows' context. Every flag below is a binding evaluated on the selection context; an empty
/// binding means the default shown.
public struct SelectionDeclaration: ScreenDeclaration {
    /// The list part: rows, cell, sorting, grouping, search, title, extra buttons, hooks (`onSelect` runs on the
    /// row's entity after each selection change).
    public var list: ListDeclaration
    /// The ref (single) or array/set of refs (several), on the selection context. Empty: the opening list's
    /// `dataPath` when a list opens the screen (a row's segue or a bar button: OKit's list segue), otherwise `.`.
    public var selectionPath = ""
    /// Makes the selection context relative to the context handed over.
    public var selectionContextPath = ""
    /// `unique` (default `#true`): a row is selected at most once; false lets an array hold several refs to it.
    /// A set is always unique.
    public var unique = "#true"
    /// `unselect` (default `#true`): tapping a selected row unselects it.
    public var unselect = "#true"
    /// `selectAppend` (default `#false`): several-choice refs go to the end instead of the front.
    public var selectAppend = "#false"
    /// The entity type stored for each selection (literal, OKit's ModelRef subclass): a declared type with a
    /// `refKey` field. Default: the field's own type (built-in refs for `ref T` and `[ref T]`).
    public var refType: String?
    /// `clear` (default `#true`): the Clear button, which unselects everything.
    public var clear = "#true"
    /// `close` (default `#true`): the Close button, shown while the screen is presented.
    public var close = "#true"
    /// `autoClose` (default `#false`, as in OKit): `#true` closes the screen after each selection (dismissed when
    /// presented, otherwise popped).
    public var autoClose = "#false"

    public var id: String { list.id }
    /// The row entity type.
    public var type: String? { list.type }
    public var kind: String { "selection" }

    public init(list: ListDeclaration) { self.list = list }

    /// Convenience: a selection with an empty list part.
    public init(id: String) { self.list = ListDeclaration(id: id) }

    /// The flag bindings with their defaults, by property name (for checks and the Lua bridge).
    public var flags: [(name: String, binding: String, default: Bool)] {
        [("unique", unique, true), ("unselect", unselect, true), ("selectAppend", selectAppend, false),
         ("clear", clear, true), ("close", close, true), ("autoClose", autoClose, false)]
    }

    public func open(in shell: AppShell, context: Entity?, opener: (any ShellScreen)?) throws -> any ShellScreen {
        // OKit's segue `prepare` (reference §5.1, §5.2): opened by a list (a row's segue or a bar button), the
        // selection context is the list's context and selectionPath defaults to the list's dataPath; opened from
        // a detail, a cell or a command, the context handed over with ".".
        let list = shell.openingList
        shell.openingList = nil
        let rows = try self.list.openList(in: shell, context: context, opener: opener)
        var path = selectionPath
        var base = context
        if let list {
            base = list.context
            if path.isEmpty { path = list.dataPath.isEmpty ? "." : list.dataPath }
        } else if path.isEmpty {
            path = "."
        }
        let screen = try SelectionScreen(declaration: self, list: rows, selectionBase: base, selectionPath: path)
        screen.shell = shell
        return screen
    }
}
