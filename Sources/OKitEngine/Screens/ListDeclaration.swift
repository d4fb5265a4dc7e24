/// A list screen as declared (`okit.list`): every property is a binding string except the literal ones.
/// Property names and defaults are OKit's (screens.md).
public struct ListDeclaration {
    public var id: String
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
    /// The row cell: `path` (text), `detailPath` (detail).
    public var cellPath = ""
    public var cellDetailPath = ""
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
    /// Row taps, quick action, more actions and the accessory.
    public var actions = RowActions()

    public init(id: String) { self.id = id }
}
