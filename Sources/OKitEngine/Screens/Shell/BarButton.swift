import Foundation

/// A bar button declared on a screen (OKit's ModelBarButtonItem): a title (binding) or an icon, an action, an
/// `enabled` and a `showPath` binding on the screen's context, and the screen it opens.
public struct BarButton {
    /// The id `button ID` presses (default: `defaultId`).
    public var id: String?
    public var title: String
    /// An icon name (binding), shown as the title when there is none.
    public var icon: String
    public var tap: Action?
    public var enabled: String
    /// `showPath` (default `#true`): the button is shown.
    public var showPath: String
    public var segue: String?
    public var present: String?

    public init(id: String? = nil, title: String, icon: String = "", tap: Action? = nil, enabled: String = "",
                showPath: String = "", segue: String? = nil, present: String? = nil) {
        self.id = id
        self.title = title
        self.icon = icon
        self.tap = tap
        self.enabled = enabled
        self.showPath = showPath
        self.segue = segue
        self.present = present
    }

    /// The id of a button declared without one: its title as declared, else its icon, without a leading `%` or
    /// `#` (`%Add` → `Add`, `name` → `name`) — never what the title shows, which follows the data and the language.
    public var defaultId: String {
        var text = title.isEmpty ? icon : title
        if let first = text.first, first == "%" || first == "#" { text.removeFirst() }
        return text
    }

    /// What `okit-run check` and a load that stops say about a title that is no binding of the context: a title is a
    /// binding, and how to write the text itself.
    public static func titleRemedy(_ title: String) -> String {
        "; a bar button's title is a binding: write " + BindingParser.asText(title)
    }
}

extension BindingParser {
    /// How a text is written as a binding that shows it: `"%Delete it?" (localized) or "#Delete it?" (as it is)`,
    /// a comma as `\,` (a comma splits a binding into parts).
    public static func asText(_ text: String) -> String {
        var body = text
        if let first = body.first, first == "%" || first == "#" { body.removeFirst() }
        body = body.replacingOccurrences(of: "\\,", with: ",").replacingOccurrences(of: ",", with: "\\,")
        return "\"%\(body)\" (localized) or \"#\(body)\" (as it is)"
    }
}

extension Engine {
    /// The declared bar buttons shown now on a context, each with its snapshot (hidden ones left out).
    func shownButtons(_ buttons: [BarButton], on context: Entity?) throws -> [(declared: BarButton, shown: ButtonSnapshot)] {
        var out: [(BarButton, ButtonSnapshot)] = []
        for b in buttons {
            if !(try flag(b.showPath, on: context, default: true)) { continue }
            var title = b.title.isEmpty ? nil : try text(context, b.title)
            if title == nil, !b.icon.isEmpty { title = try text(context, b.icon) ?? b.icon }
            let shownTitle = title ?? b.title
            let enabled = try flag(b.enabled, on: context, default: true)
            out.append((b, ButtonSnapshot(id: b.id ?? b.defaultId, title: shownTitle, enabled: enabled)))
        }
        return out
    }
}

extension AppShell {
    /// Runs a declared bar button: its action, then its segue or presented screen.
    func runButton(_ b: BarButton, on context: Entity?) throws {
        if let tap = b.tap { try tap.run(engine, on: context) }
        if let segue = b.segue { try push(segue, context: context) }
        if let present = b.present { try presentScreen(present, context: context) }
    }

    /// Presses the declared button whose snapshot id is `id` (after the built-in ones were tried).
    func pressDeclared(_ id: String, among buttons: [BarButton], on context: Entity?, list: OpeningList? = nil) throws {
        guard let b = try engine.shownButtons(buttons, on: context).first(where: { $0.shown.id == id }) else { return }
        try opening(from: list) { try runButton(b.declared, on: context) }
    }

    /// Runs `body` with `openingList` set to a list (nil: unchanged), as a list's segue does.
    func opening(from list: OpeningList?, _ body: () throws -> Void) throws {
        guard let list else { return try body() }
        let before = openingList
        openingList = list
        defer { openingList = before }
        try body()
    }
}

/// The list a screen is opened from by a row's segue or a bar button (OKit's list `prepare`): its context and
/// `dataPath`, which a selection opened then takes as its selection context and default `selectionPath`.
struct OpeningList {
    let context: Entity?
    let dataPath: String
}

extension Array where Element == BarButton {
    /// Whether one of these buttons, pressed on `context`, opens `screen` on `entity` (its `segue`, or its `present` when
    /// `presenting`): the place a URL may name after the button's screen (`ShellScreen.opens`).
    func open(_ screen: String, entity: String?, presenting: Bool, on context: Entity?) -> Bool {
        entity == context?.id && contains { (presenting ? $0.present : $0.segue) == screen }
    }
}
