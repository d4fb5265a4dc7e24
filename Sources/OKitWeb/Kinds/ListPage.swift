import OKitEngine

/// Lists and selection screens: search, index, sections of rows, footer, "More rows". A list's row whose tap only
/// opens its segue screen is a link to that screen's URL; in edit mode rows offer Select (`selectPath`) and Move
/// (`reorder`).
public struct ListPage: WebScreenKind {
    public var rows: PageRenderer.ListRows

    public init(rows: PageRenderer.ListRows) { self.rows = rows }

    public func body(_ page: PageRenderer) -> [HTMLNode] { page.listBody(rows) }

    public func prepare(_ context: inout PageContext, _ place: WebPagePlace) {
        guard let list = place.shell.declaration(place.snapshot.screen.id) as? ListDeclaration else { return }
        context.selectableInEdit = !list.selectPath.isEmpty
        context.reorderableInEdit = list.reorder != "#false"
        // A row whose tap only opens its segue screen is a link to that screen's URL.
        if let segue = list.segue, list.actions.tap == nil, list.navEnabled == "#true", !place.snapshot.screen.editing,
           !place.location.stack.isEmpty {
            let base = place.location
            context.rowLink = { _, _, row in
                guard let id = row.id else { return nil }
                return LocationPath.path(base.pushing(ShellLocation.Step(screen: segue, entity: id)))
            }
        }
    }
}

/// Menu screens: the list in a `<nav>`, its toolbar items as bar buttons running `menuItem`, no Menu button.
public struct MenuPage: WebScreenKind {
    public init() {}

    public func body(_ page: PageRenderer) -> [HTMLNode] {
        [.el("nav", [.classes("okit-menu"), .attr("aria-label", page.words(.menu))], page.listBody())]
    }

    public func barButton(_ b: ButtonSnapshot, _ page: PageRenderer) -> HTMLNode {
        page.commandButton("menuItem", [("title", b.title)], title: b.title, enabled: b.enabled)
    }

    public var showsMenuButton: Bool { false }
}
