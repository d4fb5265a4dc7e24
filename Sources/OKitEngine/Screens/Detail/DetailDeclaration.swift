import Foundation

/// A cell of a detail (or settings) screen: its kind, its properties (each a binding string, except `segue` and
/// `present`, which name screens) and its actions (`tap`, `tapEdit`, `accyTap`, `accyEditTap`) (screens.md
/// "Detail").
public struct CellDeclaration {
    /// `table`, `text`, `multiline`, `switch`, `date`, `segment`, `picker`, `slider`, `stepper`, `progress`,
    /// `image` or `web`.
    public var kind: String
    /// The id for commands; nil: the `path`'s first part with `%`/`#` stripped (see `defaultId`).
    public var id: String?
    /// The binding properties by name (`path`, `textPath`, `heightEdit`, …) and `segue`/`present`/`contextPath`.
    public var properties: [String: String] { didSet { declaresAccessory = CellDeclaration.declaresAccessory(properties, actions) } }
    /// The cell's actions by name: `tap`, `tapEdit`, `accyTap`, `accyEditTap`.
    public var actions: [String: Action] { didSet { declaresAccessory = CellDeclaration.declaresAccessory(properties, actions) } }
    /// Whether any `accy…` property or action is declared: a cell without one has no accessory, known without
    /// looking up its ten accessory properties by name each time it is computed.
    private(set) var declaresAccessory: Bool

    /// A cell of a kind with its properties and actions.
    public init(kind: String, id: String? = nil, properties: [String: String] = [:], actions: [String: Action] = [:]) {
        self.kind = kind
        self.id = id
        self.properties = properties
        self.actions = actions
        declaresAccessory = CellDeclaration.declaresAccessory(properties, actions)
    }

    private static func declaresAccessory(_ properties: [String: String], _ actions: [String: Action]) -> Bool {
        properties.keys.contains { $0.hasPrefix("accy") } || actions.keys.contains { $0.hasPrefix("accy") }
    }

    /// Whether the cell has an accessory action of its own (`accyTap` or `accyEditTap`).
    var hasOwnAccessoryAction: Bool { actions["accyTap"] != nil || actions["accyEditTap"] != nil }

    /// A property's binding text ("" when not set).
    public subscript(_ name: String) -> String { properties[name] ?? "" }

    /// Every cell kind.
    public static let kinds = ["table", "text", "multiline", "switch", "date", "segment", "picker", "slider", "stepper",
                               "progress", "image", "web"]

    /// The kinds that take values (`set`).
    public static let editKinds: Set<String> = ["text", "multiline", "switch", "date", "segment", "picker", "slider", "stepper"]

    /// The action properties of every cell.
    public static let actionProperties: Set<String> = ["tap", "tapEdit", "accyTap", "accyEditTap"]

    /// Properties that are not bindings (screen ids), or are checked on another context.
    public static let literalProperties: Set<String> = ["segue", "present", "contextPath", "id"]

    /// The properties every cell has (OKit's ModelTableCell, plus the per-cell actions).
    public static let commonProperties: Set<String> = [
        "path", "detailPath", "editPath", "editDetailPath", "imagePath", "editImagePath", "ribbonColor", "editRibbonColor", "accyPath",
        "accyEditPath", "accyText", "accyIcon", "accyShow", "accyEnabled", "accyEditText", "accyEditIcon", "accyEditShow",
        "accyEditEnabled", "heightDisplay", "heightEdit", "heightSelect", "showDisplay", "showEdit", "selectNextRow",
        "selectNextAccent", "contextPath", "segue", "present", "id", "tap", "tapEdit", "accyTap", "accyEditTap",
    ]

    /// The properties of each kind beside the common ones.
    public static let kindProperties: [String: Set<String>] = [
        "table": [],
        "text": ["textPath", "placeholder", "secure", "readOnly", "controlInDisplay"],
        "multiline": ["textPath", "placeholder", "readOnly", "controlInDisplay"],
        "switch": ["onPath", "readOnly", "controlInDisplay"],
        "date": ["datePath", "minDatePath", "maxDatePath", "modePath", "readOnly", "controlInDisplay"],
        "segment": ["segmentsPath", "selectIndexPath", "byTitle", "width", "readOnly", "controlInDisplay"],
        "picker": ["dataPath", "namePath", "optionValues", "selectionPath", "readOnly", "controlInDisplay"],
        "slider": ["valuePath", "minValuePath", "maxValuePath", "minImagePath", "maxImagePath", "width", "readOnly", "controlInDisplay"],
        "stepper": ["valuePath", "minValuePath", "maxValuePath", "stepValuePath", "readOnly", "controlInDisplay"],
        "progress": ["valuePath"],
        "image": [],
        "web": ["urlPath", "htmlPath"],
    ]

    /// The properties a cell of `kind` knows (common and the kind's own).
    public static func knownProperties(_ kind: String) -> Set<String> {
        commonProperties.union(kindProperties[kind] ?? [])
    }

    /// The binding that holds the cell's value, by kind.
    public var valuePath: String {
        switch kind {
        case "text", "multiline": return self["textPath"]
        case "switch": return self["onPath"]
        case "date": return self["datePath"]
        case "slider", "stepper", "progress": return self["valuePath"]
        case "segment": return self["selectIndexPath"]
        case "picker": return self["selectionPath"]
        case "image": return self["imagePath"]
        case "web":   // the page: a URL, else HTML text, else the cell's path
            return !self["urlPath"].isEmpty ? self["urlPath"] : !self["htmlPath"].isEmpty ? self["htmlPath"] : self["path"]
        default: return ""
        }
    }

    /// A picker over texts (Action Data's text picker): `optionValues` set. Its options are texts and its
    /// `selectionPath` holds the chosen one's text, where a picker over `dataPath` holds a ref.
    public var isTextPicker: Bool { kind == "picker" && !self["optionValues"].isEmpty }

    /// `optionValues` written as plain texts (`"Dog,Cat,Bird"`: no `#`, `%`, `/`, `=`, brackets or quotes), taken
    /// literally as Action Data does — each part trimmed, stored as written, shown localized; nil when it is a
    /// binding (`"#Dog,#Cat"`, `"%Dog,%Cat"`, `"kinds"`), read like `segmentsPath`.
    public var plainOptionValues: [String]? { CellDeclaration.plainTexts(self["optionValues"]) }

    /// A property's text as plain texts, or nil when it is a binding: two or more parts and no binding marks.
    public static func plainTexts(_ text: String) -> [String]? { PlainTexts.parts(text, list: true) }

    /// Whether a property's value is no binding: a screen id (`segue`, `present`), the id, or plain
    /// `optionValues` texts.
    public static func isLiteral(_ property: String, _ text: String) -> Bool {
        property == "segue" || property == "present" || property == "id"
            || (property == "optionValues" && plainTexts(text) != nil)
    }

    /// True for kinds whose control appears when their row is selected (OKit's `selectEdit`: date and picker);
    /// their `heightSelect` defaults to `#216`.
    public var selectsToEdit: Bool { kind == "date" || kind == "picker" }

    /// The cell's id for commands: `id`, else its path's first part with `%`/`#` stripped, else its kind.
    public var defaultId: String {
        if let id { return id }
        let first = (try? BindingParser.partTexts(self["path"]).first) ?? nil
        var t = (first ?? "").trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("%") || t.hasPrefix("#") { t.removeFirst() }
        return t.isEmpty ? kind : t
    }
}

/// A section of cells: its own header, footer and visibility (beside the screen's multipart ones).
public struct SectionDeclaration {
    public var header = ""
    public var footer = ""
    public var showDisplay = ""
    public var showEdit = ""
    public var cells: [CellDeclaration] = []

    /// A section with a header, a footer and cells.
    public init(header: String = "", footer: String = "", showDisplay: String = "", showEdit: String = "",
                cells: [CellDeclaration] = []) {
        self.header = header
        self.footer = footer
        self.showDisplay = showDisplay
        self.showEdit = showEdit
        self.cells = cells
    }
}

/// A detail screen as declared (`okit.detail`), or a settings screen (`okit.settings`: kind `settings`).
public struct DetailDeclaration: ScreenDeclaration {
    /// Each cell's id for commands, section by section: its `defaultId`, a repeated one numbered (`Name#2`,
    /// `Name#3`); the ids a detail screen's rows carry.
    public var cellIds: [[String]] {
        var seen: [String: Int] = [:]
        return sections.map { section in
            section.cells.map { cell in
                let base = cell.defaultId
                let n = (seen[base] ?? 0) + 1
                seen[base] = n
                return n == 1 ? base : "\(base)#\(n)"
            }
        }
    }

    /// The cells with their ids, in order.
    public var identifiedCells: [(id: String, cell: CellDeclaration)] {
        zip(cellIds, sections).flatMap { ids, section in zip(ids, section.cells).map { (id: $0, cell: $1) } }
    }

    // The fields live in one object, copied on the first write after a copy (copy-on-write): every screen opened
    // from a declaration shares it, so 10,000 open screens read one declaration, hot in the cache, not 10,000
    // copies of 400 bytes each (performance.md, invalidate_10000).
    final class Storage {
        var id: String
        var kind: String = "detail"
        var type: String? = nil
        var contextPath: String = ""
        var titlePath: String = ""
        var subTitlePath: String = ""
        var titleCount: String = ""
        var subTitleObject: String = ""
        var subTitleObjectPlural: String = ""
        var subTitleSwap: String = "#false"
        var promptPath: String = ""
        var editAlways: String = "#false"
        var edit: String = "#true"
        var editInherit: String = "#false"
        var sections: [SectionDeclaration] = []
        var sectionHeaders: String = ""
        var sectionFooters: String = ""
        var sectionsShowDisplay: String = ""
        var sectionsShowEdit: String = ""
        var buttons: [BarButton] = []
        var help: String? = nil
        var titleTap: Action? = nil
        /// OKit's controller-level `tap`, `tapEdit`, `accyTap`, `accyEditTap`: for the cells without their own.
        var actions: [String: Action] = [:]
        var hooks: ScreenHooks = ScreenHooks()

        /// The cells' ids and where each section's cells start in a flat list, computed once for every screen
        /// opened from the declaration (arrays shared by them all); cleared by any write.
        var layout: DetailLayout?

        init(id: String) { self.id = id }

        init(copying o: Storage) {
            id = o.id
            kind = o.kind
            type = o.type
            contextPath = o.contextPath
            titlePath = o.titlePath
            subTitlePath = o.subTitlePath
            titleCount = o.titleCount
            subTitleObject = o.subTitleObject
            subTitleObjectPlural = o.subTitleObjectPlural
            subTitleSwap = o.subTitleSwap
            promptPath = o.promptPath
            editAlways = o.editAlways
            edit = o.edit
            editInherit = o.editInherit
            sections = o.sections
            sectionHeaders = o.sectionHeaders
            sectionFooters = o.sectionFooters
            sectionsShowDisplay = o.sectionsShowDisplay
            sectionsShowEdit = o.sectionsShowEdit
            buttons = o.buttons
            help = o.help
            titleTap = o.titleTap
            actions = o.actions
            hooks = o.hooks
        }
    }

    private(set) var storage: Storage

    /// Makes the storage this declaration's own before a write (DetailDeclaration+Screen.swift writes too).
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
        storage.layout = nil
    }

    /// The cells' ids (`cellIds`) and each section's first cell in a flat list of all cells.
    var layout: DetailLayout {
        if let l = storage.layout { return l }
        var starts: [Int] = []
        var n = 0
        for section in sections { starts.append(n); n += section.cells.count }
        let l = DetailLayout(ids: cellIds, cellStart: starts, cellCount: n)
        storage.layout = l
        return l
    }

    public var id: String {
        get { storage.id }
        _modify { makeUnique(); yield &storage.id }
    }
    /// `detail`, or `settings` for `okit.settings`.
    public var kind: String {
        get { storage.kind }
        _modify { makeUnique(); yield &storage.kind }
    }
    public var type: String? {
        get { storage.type }
        _modify { makeUnique(); yield &storage.type }
    }
    public var contextPath: String {
        get { storage.contextPath }
        _modify { makeUnique(); yield &storage.contextPath }
    }
    public var titlePath: String {
        get { storage.titlePath }
        _modify { makeUnique(); yield &storage.titlePath }
    }
    public var subTitlePath: String {
        get { storage.subTitlePath }
        _modify { makeUnique(); yield &storage.subTitlePath }
    }
    public var promptPath: String {
        get { storage.promptPath }
        _modify { makeUnique(); yield &storage.promptPath }
    }
    /// Keeps edit mode on (no Edit button).
    public var editAlways: String {
        get { storage.editAlways }
        _modify { makeUnique(); yield &storage.editAlways }
    }
    /// `edit` shows the Edit button (default true for detail screens, as in OKit); `editInherit` takes edit
    /// mode from the screen that pushed it.
    public var edit: String {
        get { storage.edit }
        _modify { makeUnique(); yield &storage.edit }
    }
    public var editInherit: String {
        get { storage.editInherit }
        _modify { makeUnique(); yield &storage.editInherit }
    }
    public var sections: [SectionDeclaration] {
        get { storage.sections }
        _modify { makeUnique(); yield &storage.sections }
    }
    /// Multipart section properties (one part per section), beside the per-section ones; a non-empty part wins.
    public var sectionHeaders: String {
        get { storage.sectionHeaders }
        _modify { makeUnique(); yield &storage.sectionHeaders }
    }
    public var sectionFooters: String {
        get { storage.sectionFooters }
        _modify { makeUnique(); yield &storage.sectionFooters }
    }
    public var sectionsShowDisplay: String {
        get { storage.sectionsShowDisplay }
        _modify { makeUnique(); yield &storage.sectionsShowDisplay }
    }
    public var sectionsShowEdit: String {
        get { storage.sectionsShowEdit }
        _modify { makeUnique(); yield &storage.sectionsShowEdit }
    }
    /// Extra bar buttons.
    public var buttons: [BarButton] {
        get { storage.buttons }
        _modify { makeUnique(); yield &storage.buttons }
    }
    /// Plain help text: the "?" button shows when it is set.
    public var help: String? {
        get { storage.help }
        _modify { makeUnique(); yield &storage.help }
    }
    /// Runs when the title is tapped.
    public var titleTap: Action? {
        get { storage.titleTap }
        _modify { makeUnique(); yield &storage.titleTap }
    }
    /// Controller hooks.
    public var hooks: ScreenHooks {
        get { storage.hooks }
        _modify { makeUnique(); yield &storage.hooks }
    }

    /// A detail screen with an id (set `kind = "settings"` for a settings screen).
    public init(id: String, kind: String = "detail") {
        storage = Storage(id: id)
        storage.kind = kind
    }
}

extension DetailDeclaration {
    /// Opens the screen on a context: edit mode from `editInherit` (when the opener is editing) or `editAlways`.
    public func open(in shell: AppShell, context: Entity?, opener: (any ShellScreen)?) throws -> any ShellScreen {
        // A settings screen (OKit's ModelSettingsTableController) opened from the menu, the app or a command runs on
        // the settings context (the settings model), as `okit-run check` checks it.
        var context = context
        if kind == "settings", type == nil, context == nil || context === shell.engine.defaultModel?.root {
            context = try shell.settingsScreenContext() ?? context
        }
        let screen = try DetailScreen(engine: shell.engine, declaration: self, context: context)
        screen.shell = shell
        if !editInherit.isEmpty, try shell.engine.get(screen.context, editInherit, mode: .display).truthy,
           let opener, opener.editing { screen.editing = true }
        if try screen.isEditAlways() { screen.editing = true }
        return screen
    }
}

/// Where a detail declaration's cells are (`DetailDeclaration.layout`).
struct DetailLayout {
    /// The cells' ids by section and cell (`cellIds`).
    let ids: [[String]]
    /// Each section's first cell in a flat list of the cells, section after section.
    let cellStart: [Int]
    let cellCount: Int
}
