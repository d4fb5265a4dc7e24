/// The driver's commands on the screen on top (screens.md "Commands"). Each starts by refusing to run while an
/// alert waits, and fails with a reason and no change when it is not possible.
extension AppShell {
    func requireNoAlert(_ command: String) throws {
        if !alerts.isEmpty { throw ShellError.alertPending(command) }
    }

    func current(_ command: String) throws -> any ShellScreen {
        try begin(command)
        guard let screen = top else { throw ShellError.notStarted }
        return screen
    }

    func currentList(_ command: String) throws -> ListScreen {
        let screen = try current(command)
        guard let list = screen as? ListScreen else { throw ShellError.wrongKind(command, screen.kindName) }
        return list
    }

    func flag(_ binding: String, on context: Entity?, default value: Bool) throws -> Bool {
        try engine.flag(binding, on: context, default: value)
    }

    /// Taps a row (lists, selections, menus) or a cell (detail screens).
    public func tap(row: RowAddress) throws { try current("tap").tap(row) }
    /// Taps a row's or cell's accessory.
    public func accessory(row: RowAddress) throws { try current("accessory").accessory(row) }
    /// Selects a row: edit-mode selection (`selectPath`) or a selection screen's row.
    public func select(row: RowAddress) throws { try current("select").select(row) }
    /// Sets an edit cell's value.
    public func set(cell: RowAddress, value: Value) throws { try current("set").set(cell: cell, value: value) }
    /// Sets the search text (and scope, by title or 1-based position).
    public func search(_ text: String, scope: String? = nil) throws { try current("search").search(text, scope: scope) }
    /// Taps the title (`titleTap`).
    public func titleTap() throws { try current("titleTap").titleTap() }
    /// Presses a bar button by id or title.
    public func button(_ id: String) throws { try current("button").button(id) }

    /// Runs a row's quick action.
    public func quick(row: RowAddress) throws {
        let list = try currentList("quick")
        let entity = try list.entity(row: row)
        let a = list.declaration.actions
        guard !a.quickName.isEmpty || !a.quickImage.isEmpty, let action = a.quickTap else { throw ShellError.notAllowed("quick", list.id) }
        guard try list.flag(a.quickEnabled, row: entity, default: true) else { throw ShellError.disabled("quick action", row.description) }
        try action.run(engine, on: entity)
    }

    /// Shows a row's more actions: an action sheet with the enabled actions in order, then Cancel; the answer runs
    /// the aligned part of `moreActionsTap` (`moreTap` replaces the sheet).
    public func more(row: RowAddress) throws {
        let list = try currentList("more")
        let entity = try list.entity(row: row)
        let a = list.declaration.actions
        guard try list.flag(a.more, row: list.context) else { throw ShellError.notAllowed("more", list.id) }
        guard try list.flag(a.moreEnabled, row: entity, default: true) else { throw ShellError.disabled("more", row.description) }
        if let moreTap = a.moreTap { try moreTap.run(engine, on: entity); return }
        let titles = try engine.getAll(entity, a.moreActions, mode: .display)
        let enabledBinding = a.moreActionsEnabled.isEmpty ? nil : try engine.compile(a.moreActionsEnabled)
        let enabled = try enabledBinding.map { try engine.evaluateAll($0, entity, mode: .display) } ?? []
        var shown: [(title: String, action: Action?)] = []
        for (i, t) in titles.enumerated() {
            guard let title = t.displayString else { continue }
            // An empty part of moreActionsEnabled means "enabled"; a false part leaves the action out.
            if let eb = enabledBinding, i < eb.parts.count {
                if case .constant(.null) = eb.parts[i] {} else if !enabled[i].truthy { continue }
            }
            shown.append((title, i < a.moreActionsTap.count ? a.moreActionsTap[i] : nil))
        }
        // OKit's sheet: titled with the row's text (else the screen's title), "Select an action".
        let title = try list.rowText(entity) ?? (try list.currentHeader().title)
        present(PendingAlert(kind: "sheet", title: title, message: engine.localize("Select an action"),
                             actions: shown.map(\.title) + [engine.localize("Cancel")]) { [engine] choice, _ in
            guard choice <= shown.count, let action = shown[choice - 1].action else { return }
            try action.run(engine, on: entity)
        })
    }

    /// Adds a new entity of the list's `type`: at the front (OKit's default) or the end (`addAppend`). With
    /// `addName` and no text, a prompt asks for the name first (OK is refused while it is empty).
    public func add(text: String? = nil) throws {
        if let backups = try current("add") as? BackupsScreen { return try backups.add() }
        try addRow(try currentList("add"), text: text)
    }

    func addRow(_ list: ListScreen, text: String?) throws {
        let d = list.declaration
        guard try flag(d.add, on: list.context, default: true) else { throw ShellError.notAllowed("add", d.id) }
        guard let type = try list.addType() else {
            throw ShellError.notAllowed("add (dataPath reaches no collection of entities; declare type)", d.id)
        }
        guard case .collection(let c) = try engine.get(list.context, d.dataPath) else {
            throw ShellError.notAllowed("add (dataPath is not a collection)", d.id)
        }
        let append = try flag(d.addAppend, on: list.context, default: false)
        let nav = try flag(d.addNav, on: list.context, default: false)
        let typeName = d.typeName ?? type
        let insert: (String?) throws -> Void = { [engine, unowned self] name in
            var fields: [String: Value] = [:]
            // OKit writes the prompt's text trimmed.
            if let field = d.addName, let name { fields[field] = .string(name.trimmingCharacters(in: .whitespacesAndNewlines)) }
            let e = try engine.make(type, fields)
            try engine.insert(.entity(e), into: c, append: append)
            if let hook = d.hooks.onAdd { try hook.run(engine, on: e, screen: list.info) }
            if nav, let segue = d.segue {
                try push(segue, context: e)
                try top?.setEditing(true)
            }
        }
        if let field = d.addName, text == nil {
            present(PendingAlert(kind: "prompt", title: "New \(typeName)", message: "Enter \(field) for this \(typeName)",
                                 actions: ["OK", "Cancel"], fields: [AlertFieldSnapshot(placeholder: field.prefix(1).uppercased() + field.dropFirst(), value: "")],
                                 needsFields: [1]) { choice, values in
                if choice == 1 { try insert(values.first) }
            })
            return
        }
        try engine.asAction { try engine.transaction { try insert(text) } }
    }

    /// Deletes a row's entity, after a "Confirm Deletion" (Yes/No) unless `deletePrompt` is false.
    public func delete(row: RowAddress) throws {
        if let backups = try current("delete") as? BackupsScreen { return try backups.delete(row) }
        let list = try currentList("delete")
        let d = list.declaration
        guard try flag(d.delete, on: list.context, default: true) else { throw ShellError.notAllowed("delete", d.id) }
        let entity = try list.entity(row: row)
        guard try flag(d.deleteEnabled, on: entity, default: true), try flag(d.editEnabled, on: entity, default: true) else {
            throw ShellError.disabled("delete", row.description)
        }
        guard case .collection(let c) = try engine.get(list.context, d.dataPath) else {
            throw ShellError.notAllowed("delete (dataPath is not a collection)", d.id)
        }
        let remove: () throws -> Void = { [engine] in
            _ = try engine.remove(.entity(entity), from: c)
            if let hook = d.hooks.onDelete { try hook.run(engine, on: entity, screen: list.info) }
        }
        if try flag(d.deletePrompt, on: list.context, default: true) {
            present(PendingAlert(kind: "alert", title: engine.localize("Confirm Deletion"),
                                 message: engine.localize("Do you really want to delete entry?"),
                                 actions: [engine.localize("Yes"), engine.localize("No")]) { choice, _ in
                if choice == 1 { try remove() }
            })
            return
        }
        try engine.asAction { try engine.transaction { try remove() } }
    }

    /// Moves a row in edit mode (`reorder`, not with grouping or a search): writes the new order into the
    /// collection. Rows are addressed before the move; `to` is the row's position afterwards. With a `rowSort` the
    /// move is allowed as in OKit: the collection takes the new order and the sort puts the rows back in theirs.
    public func move(from: RowAddress, to: RowAddress) throws {
        let list = try currentList("move")
        let d = list.declaration
        guard try flag(d.reorder, on: list.context, default: false) else { throw ShellError.notAllowed("move (set reorder)", d.id) }
        guard list.editing else { throw ShellError.notAllowed("move outside edit mode (edit on first)", d.id) }
        guard d.group.isEmpty else { throw ShellError.notAllowed("move in a grouped list", d.id) }
        guard list.visible().count == list.rows.count else { throw ShellError.notAllowed("move while searching", d.id) }
        let entity = try list.entity(row: from)
        guard try flag(d.reorderEnabled, on: entity, default: true), try flag(d.editEnabled, on: entity, default: true) else {
            throw ShellError.disabled("move", from.description)
        }
        let target = try list.entity(row: to)
        guard case .collection(let c) = try engine.get(list.context, d.dataPath) else {
            throw ShellError.notAllowed("move (dataPath is not a collection)", d.id)
        }
        guard let i = c.items.firstIndex(where: { $0.entity === entity }), let j = c.items.firstIndex(where: { $0.entity === target }) else {
            throw ShellError.noRow(to.description, count: c.items.count)
        }
        try engine.asAction { try engine.transaction { try engine.move(in: c, from: i, to: j) } }
    }
}
