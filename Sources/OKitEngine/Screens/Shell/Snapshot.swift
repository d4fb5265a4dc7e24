/// What a person sees (screens.md "Snapshot"): plain values computed from bindings, as a Lua table or JSON. Each
/// part names its fields once (Snapshot+Fields.swift); the encoders (SnapshotEncoding.swift) write them out.
public struct Snapshot: Equatable, Sendable {
    public var app: AppSnapshot
    public var screen: ScreenSnapshot
    public var alert: AlertSnapshot?

    public init(app: AppSnapshot, screen: ScreenSnapshot, alert: AlertSnapshot? = nil) {
        self.app = app
        self.screen = screen
        self.alert = alert
    }
}

/// The app shell: tabs, menu, protection cover, theme, navigation depth.
public struct AppSnapshot: Equatable, Sendable {
    public var tab: String?
    public var tabs: [String] = []
    public var tabTitles: [String] = []
    public var menuOpen = false
    public var covered = false
    public var cover: String?
    public var theme = "default"
    public var themeValues: [(key: String, value: String)] = []
    public var depth = 1
    public var presented = false
    /// A shared (postgres) model's database is out of reach: reads go on, stores wait (storage.md). Nil for an app
    /// without shared models (its snapshots have no `offline`).
    public var offline: Bool?

    public init() {}

    public static func == (a: AppSnapshot, b: AppSnapshot) -> Bool {
        a.tab == b.tab && a.tabs == b.tabs && a.tabTitles == b.tabTitles && a.menuOpen == b.menuOpen
            && a.covered == b.covered && a.cover == b.cover && a.theme == b.theme && a.depth == b.depth
            && a.presented == b.presented && a.offline == b.offline && a.themeValues.map(\.key) == b.themeValues.map(\.key)
            && a.themeValues.map(\.value) == b.themeValues.map(\.value)
    }
}

/// One screen: title, buttons, search, index, sections of rows or cells.
public struct ScreenSnapshot: Equatable, Sendable {
    public var id: String
    public var kind: String
    public var context: String?
    public var title: String?
    public var subtitle: String?
    public var prompt: String?
    public var editing = false
    /// A list in edit mode: whether its rows can be moved now (`reorder`, no `group`, no search); each row's
    /// `move` says it of the row. Nil outside edit mode and on other screens.
    public var reorder: Bool?
    public var buttons: [ButtonSnapshot] = []
    public var search: SearchSnapshot?
    public var index: [String] = []
    public var sections: [SectionSnapshot] = []
    public var help: String?
    /// All rows of a list (the sections hold a window of them).
    public var rowCount: Int = 0
    /// A list's footer line (`footerPath`, over the rows shown).
    public var footer: String?
    /// The kind's own part of the snapshot (a kind of one's own: `ScreenSection`), under the kind's name.
    public var section: (any ScreenSection)? {
        get { sectionBox?.value }
        set { sectionBox = newValue.map(SectionBox.init) }
    }
    private var sectionBox: SectionBox?

    public init(id: String, kind: String, context: String? = nil) {
        self.id = id
        self.kind = kind
        self.context = context
    }
}

/// A button of the screen's bar (a list's `add`, a detail's buttons, …). A kind of one's own that shows buttons
/// fills `ScreenSnapshot.buttons` with these and takes the shared `button` command (`CommandDescription.button`).
public struct ButtonSnapshot: Equatable, Sendable {
    public var id: String
    public var title: String
    public var enabled: Bool

    /// `id`: what the `button` command names it by (its title too); `enabled`: false shows it greyed and refuses it.
    public init(id: String, title: String, enabled: Bool = true) {
        self.id = id
        self.title = title
        self.enabled = enabled
    }
}

public struct SearchSnapshot: Equatable, Sendable {
    public var visible: Bool
    public var text: String
    public var scopes: [String] = []
    public var scope: String = "All"

    public init(visible: Bool, text: String, scopes: [String] = [], scope: String = "All") {
        self.visible = visible
        self.text = text
        self.scopes = scopes
        self.scope = scope
    }
}

/// A section of rows (a list's group, a detail's section): what every kind shares, drawn by every front end as
/// numbered rows. A kind of one's own fills `ScreenSnapshot.sections` with these; `tap ROW` and the other row
/// commands count its rows from 1 across the sections.
public struct SectionSnapshot: Equatable, Sendable {
    public var header: String?
    public var footer: String?
    public var rows: [RowSnapshot]
    /// A list section's line under its title (`groupHeader`); its `footer` is `groupFooter`'s.
    public var subheader: String? = nil

    /// A section with its title line (`header`), its rows and its line under the rows (`footer`).
    public init(header: String? = nil, footer: String? = nil, rows: [RowSnapshot], subheader: String? = nil) {
        self.header = header
        self.footer = footer
        self.rows = rows
        self.subheader = subheader
    }
}

/// A row of a list or a cell of a detail screen.
public struct RowSnapshot: Equatable, Sendable {
    public var id: String?
    /// For detail cells: `table`, `text`, `switch`, …
    public var kind: String?
    public var text: String?
    public var detail: String?
    public var image: String?
    public var ribbon: String?
    public var accessory: AccessorySnapshot?
    public var quick: QuickSnapshot?
    public var more = false
    public var delete = false
    /// A list row in edit mode: whether `move` takes it now (OKit's `canMoveRowAt`: the list's `reorder`, no
    /// `group`, no search, the row's `reorderEnabled` and `editEnabled`); nil outside edit mode and for detail cells.
    public var move: Bool?
    public var checked: Bool?
    public var selected = false
    /// The cell's control (edit cells), kept in an object of its own: most rows have none, and a row without it
    /// inline is half the size (a screen keeps its rows: 10,000 open screens, a list's 100,000 rows).
    public var control: ControlSnapshot? {
        get { controlBox?.value }
        set { controlBox = newValue.map(ControlBox.init) }
    }
    private var controlBox: ControlBox?
    /// For edit cells: the message of the rule the current value breaks (lua-api.md "Validation"); nil when valid.
    public var invalid: String?

    /// A row with its id (an entity's, a cell's; nil for none), its text and its second line (`detail`); the other
    /// properties (`image`, `accessory`, `checked`, …) are set on it after.
    public init(id: String?, text: String?, detail: String? = nil) {
        self.id = id
        self.text = text
        self.detail = detail
    }
}

/// A row's control, boxed (`RowSnapshot.control`): immutable, compared by value.
final class ControlBox: Equatable, Sendable {
    let value: ControlSnapshot
    init(_ value: ControlSnapshot) { self.value = value }
    static func == (a: ControlBox, b: ControlBox) -> Bool { a === b || a.value == b.value }
}

public struct AccessorySnapshot: Equatable, Sendable {
    public var kind: String
    public var text: String?
    public var enabled: Bool

    /// A row's accessory: `kind` as the list declares it (`detail`, `checkmark`, `button`, …), its text, whether
    /// the `accessory` command takes it.
    public init(kind: String, text: String? = nil, enabled: Bool = true) {
        self.kind = kind
        self.text = text
        self.enabled = enabled
    }
}

public struct QuickSnapshot: Equatable, Sendable {
    /// `quickName`'s text; empty when the action has only an image (OKit shows the image alone then).
    public var title: String
    public var enabled: Bool
    /// `quickImage`'s text (an image's name), when the list gives one.
    public var image: String?

    public init(title: String, enabled: Bool, image: String? = nil) {
        self.title = title
        self.enabled = enabled
        self.image = image
    }
}

/// An alert, action sheet or prompt waiting for an answer.
public struct AlertSnapshot: Equatable, Sendable {
    public var kind: String
    public var title: String?
    public var message: String?
    public var actions: [String]
    public var fields: [AlertFieldSnapshot] = []
}

public struct AlertFieldSnapshot: Equatable, Sendable {
    public var placeholder: String?
    public var value: String?
    public var secure = false

    public init(placeholder: String? = nil, value: String? = nil, secure: Bool = false) {
        self.placeholder = placeholder
        self.value = value
        self.secure = secure
    }
}

extension ButtonSnapshot {
    /// The shown button a person pressed, by id or title; an unknown or disabled one fails with the reason.
    static func pressed(_ name: String, among shown: [ButtonSnapshot]) throws -> ButtonSnapshot {
        guard let b = shown.first(where: { $0.id == name || $0.title == name }) else {
            throw ShellError.noButton(name, buttons: shown.map(\.id))
        }
        guard b.enabled else { throw ShellError.disabledButton(b.title.isEmpty ? name : b.title) }
        return b
    }
}
