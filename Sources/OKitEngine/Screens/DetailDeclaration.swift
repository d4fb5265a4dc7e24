import Foundation

/// A cell of a detail (or settings) screen: its kind and its properties, each a binding string (screens.md).
public struct CellDeclaration {
    public var kind: String
    public var id: String?
    public var properties: [String: String]

    public init(kind: String, id: String? = nil, properties: [String: String] = [:]) {
        self.kind = kind
        self.id = id
        self.properties = properties
    }

    public subscript(_ name: String) -> String { properties[name] ?? "" }

    /// Properties that are not bindings (screen ids), or are checked on another context.
    public static let literalProperties: Set<String> = ["segue", "present", "contextPath", "id"]

    /// The binding that holds the cell's value, by kind.
    public var valuePath: String {
        switch kind {
        case "text", "multiline": return self["textPath"]
        case "switch": return self["onPath"]
        case "date": return self["datePath"]
        case "slider", "stepper", "progress": return self["valuePath"]
        case "segment": return self["selectIndexPath"]
        case "picker": return self["selectionPath"]
        default: return ""
        }
    }

    /// The cell's id for commands: `id`, else its path's first part with `%`/`#` stripped.
    var defaultId: String {
        if let id { return id }
        let first = self["path"].split(separator: ",", maxSplits: 1).first.map(String.init) ?? ""
        var t = first.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("%") || t.hasPrefix("#") { t.removeFirst() }
        return t.isEmpty ? kind : t
    }
}

/// A section of cells.
public struct SectionDeclaration {
    public var header = ""
    public var footer = ""
    public var showDisplay = ""
    public var showEdit = ""
    public var cells: [CellDeclaration] = []

    public init(header: String = "", footer: String = "", cells: [CellDeclaration] = []) {
        self.header = header
        self.footer = footer
        self.cells = cells
    }
}

/// A detail screen as declared (`okit.detail`).
public struct DetailDeclaration: ScreenDeclaration {
    public var id: String
    /// `detail`, or `settings` for `okit.settings`.
    public var kind = "detail"
    public var type: String?
    public var contextPath = ""
    public var titlePath = ""
    public var subTitlePath = ""
    public var editAlways = ""
    /// `edit` shows the Edit button (default true for detail screens, as in OKit); `editInherit` takes edit
    /// mode from the screen that pushed it.
    public var edit = ""
    public var editInherit = ""
    public var sections: [SectionDeclaration] = []
    /// Multipart section properties (one part per section), beside the per-section ones.
    public var sectionHeaders = ""
    public var sectionFooters = ""
    public var sectionsShowDisplay = ""
    public var sectionsShowEdit = ""
    /// Extra bar buttons.
    public var buttons: [BarButton] = []
    /// Plain help text.
    public var help: String?
    /// Controller hooks.
    public var hooks = ScreenHooks()

    public init(id: String) { self.id = id }
}


extension DetailDeclaration {
    public func open(in shell: AppShell, context: Entity?, opener: (any ShellScreen)?) throws -> any ShellScreen {
        let screen = try DetailScreen(engine: shell.engine, declaration: self, context: context)
        screen.shell = shell
        if !editInherit.isEmpty, try shell.engine.get(screen.context, editInherit, mode: .display).truthy,
           let opener, opener.editing { screen.editing = true }
        if !editAlways.isEmpty, try shell.engine.get(screen.context, editAlways, mode: .display).truthy { screen.editing = true }
        return screen
    }
}
