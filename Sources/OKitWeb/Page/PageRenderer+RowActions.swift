import OKitEngine

/// A list row's actions, placed as OKit places them (issue 36 item 15): what OKit shows on the row itself stays on
/// the row — the accessory, and in edit mode Select, Move up/Move down and the red Delete — and what OKit keeps
/// behind a swipe (the quick action, More, Delete outside edit mode) sits behind one row menu, a
/// `<details class=okit-row-menu>` whose `<summary>` is named "Actions: <row text>" for screen readers (in the
/// app's language, French `Actions : Loyer`). The menu
/// opens with a click, Enter or Space and needs no script; every action in it is a POST form as before.
extension PageRenderer {
    /// The row's actions after its main part: the accessory and edit-mode buttons in `div.okit-row-actions`, then
    /// the row menu (when the row has anything behind a swipe).
    func rowActions(_ row: RowSnapshot, address: String, section s: Int, index r: Int, _ rows: ListRows) -> [HTMLNode] {
        var shown: [HTMLNode] = []
        if let a = row.accessory { shown.append(accessory(a, address: address)) }
        let editing = screen.editing && rows.editActions
        // In edit mode a list with `selectPath` selects many rows and shows no Delete (OKit's editing style
        // `.none` under multiple selection); without it, each deletable row shows its Delete, as on iOS.
        let multiSelect = screen.editing && context.selectableInEdit
        if editing, context.selectableInEdit {
            shown.append(commandButton("select", [("row", address)], title: row.selected ? "Deselect" : "Select",
                                       pressed: row.selected, class: "okit-select"))
        }
        // Move up and Move down on the rows `move` takes now (the row's `move`: not a row its reorderEnabled or
        // editEnabled holds in place, none while grouped or searching), as OKit shows no reorder control there.
        if editing, context.reorderableInEdit, row.move ?? true { shown += moveButtons(address, section: s, index: r) }
        if row.delete, screen.editing, !multiSelect {
            shown.append(commandButton("delete", [("row", address)], title: words(.delete), class: "okit-delete"))
        }
        var behind: [HTMLNode] = []
        if let q = row.quick {
            // An image alone (no quickName) is named by the image: a page has no named icons to show.
            let title = q.title.isEmpty ? (q.image ?? "") : q.title
            behind.append(commandButton("quick", [("row", address)], title: title, enabled: q.enabled, class: "okit-quick"))
        }
        if row.more { behind.append(commandButton("more", [("row", address)], title: words(.more), class: "okit-more")) }
        if row.delete, !screen.editing {
            behind.append(commandButton("delete", [("row", address)], title: words(.delete), class: "okit-menu-delete"))
        }
        var out: [HTMLNode] = []
        if !shown.isEmpty { out.append(.el("div", [.classes("okit-row-actions")], shown)) }
        if !behind.isEmpty { out.append(rowMenu(row, behind)) }
        return out
    }

    /// One row menu: a disclosure whose summary ("⋯", named "Actions: <row text>") shows the actions inside.
    func rowMenu(_ row: RowSnapshot, _ actions: [HTMLNode]) -> HTMLNode {
        let text = row.text.flatMap { $0.isEmpty ? nil : $0 }
        let name = text.map { words(.labelled, words(.actions), $0) } ?? words(.actions)
        return .el("details", [.classes("okit-row-menu")], [
            .el("summary", [.attr("aria-label", name), .attr("title", words(.actions))], text: "⋯"),
            .el("div", [.classes("okit-row-menu-items")], actions),
        ])
    }

    /// Move up and Move down: `move` with `from` the row and `to` the position above or below.
    func moveButtons(_ address: String, section s: Int, index r: Int) -> [HTMLNode] {
        let p = position(section: s, index: r)
        let total = max(screen.rowCount, context.rowOffset + screen.sections.reduce(0) { $0 + $1.rows.count })
        return [
            commandButton("move", [("from", address), ("to", String(p - 1))], title: words(.moveUp), enabled: p > 1, class: "okit-move"),
            commandButton("move", [("from", address), ("to", String(p + 1))], title: words(.moveDown), enabled: p < total, class: "okit-move"),
        ]
    }

    /// An accessory: a button (`accessory` command) when it can be tapped, else its text or mark.
    func accessory(_ a: AccessorySnapshot, address: String) -> HTMLNode {
        switch a.kind {
        case "button", "detail", "detailDisclosure":
            let title = a.text ?? "Info"
            return commandButton("accessory", [("row", address)], title: title, enabled: a.enabled, class: "okit-accessory")
        case "checkmark":
            return .el("span", [.classes("okit-accessory", "okit-checkmark"), .attr("aria-label", words(.checked))], text: "✓")
        case "disclosure":
            return .empty
        default:
            return a.text.map { .el("span", [.classes("okit-accessory")], text: $0) } ?? .empty
        }
    }
}
