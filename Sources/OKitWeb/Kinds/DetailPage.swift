import OKitEngine

/// Detail and settings screens: sections of cells, each edit cell a `set` form (PageRenderer+Detail.swift). A cell
/// that only opens a screen on the screen's own context is a link to that screen's URL; one that runs an action
/// is a tap button. On settings screens, the cells bound to the app's `encryption`, `protection` and
/// `protectionTimeout` settings change everyone's data and need the login token (the theme is each session's own).
public struct DetailPage: WebScreenKind {
    public var guardsSettings = false

    public init(guardsSettings: Bool = false) { self.guardsSettings = guardsSettings }

    public func body(_ page: PageRenderer) -> [HTMLNode] { page.detailBody() }

    public func prepare(_ context: inout PageContext, _ place: WebPagePlace) {
        guard let detail = place.shell.declaration(place.snapshot.screen.id) as? DetailDeclaration else { return }
        let location = place.location
        var tappable: Set<String> = []
        var links: [String: String] = [:]
        let editing = place.snapshot.screen.editing
        for (id, cell) in detail.identifiedCells {
            let action = detail.tapAction(of: cell, editing: editing)?.action   // the cell's, else the screen's
            let opens = !cell["segue"].isEmpty || !cell["present"].isEmpty
            if opens, action == nil, cell["contextPath"].isEmpty, cell["selectNextRow"].isEmpty, !location.stack.isEmpty {
                let entity = place.shell.top?.context?.id
                links[id] = LocationPath.path(cell["segue"].isEmpty
                    ? location.presenting(ShellLocation.Step(screen: cell["present"], entity: entity))
                    : location.pushing(ShellLocation.Step(screen: cell["segue"], entity: entity)))
            } else if opens || action != nil || !cell["selectNextRow"].isEmpty {
                tappable.insert(id)
            }
        }
        let found = tappable
        let cellLinks = links
        context.rowTaps = { _, _, row in
            guard row.control == nil else { return false }
            return row.id.map { found.contains($0) } ?? false
        }
        context.rowLink = { _, _, row in
            guard row.control == nil, let id = row.id else { return nil }
            return cellLinks[id]
        }
    }

    public func needsToken(_ command: String, _ place: WebCommandPlace) -> Bool {
        guard guardsSettings, command == "set" || command == "tap" else { return false }
        let shell = place.shell
        guard let detail = shell.declaration(place.snapshot.screen.id) as? DetailDeclaration,
              let cellId = place.field("cell") ?? place.field("row") else { return true }
        let guarded = ["encryption", "protection", "protectionTimeout"].compactMap { shell.settingsBindings[$0] }
            .map { DetailPage.firstStep($0) }
        for (index, c) in detail.identifiedCells.enumerated() where c.id == cellId || "\(index + 1)" == cellId {
            return c.cell.properties.values.contains { guarded.contains(DetailPage.firstStep($0)) }
        }
        return true      // a cell the form names but the screen has not: refuse rather than guess
    }

    /// The first step of a binding path (`protectionTimeout/ref/minutes` → `protectionTimeout`).
    static func firstStep(_ binding: String) -> String {
        String(binding.split(whereSeparator: { "/.>".contains($0) }).first ?? "")
    }
}
