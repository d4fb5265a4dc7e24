/// The list-only commands (screens.md "List"): a row's quick and more actions, add, delete and reorder. The shell
/// forwards them to the screen on top; other kinds refuse them (ScreenKind.swift).
extension ListScreen {
    /// Runs a row's quick action.
    public func quick(_ row: RowAddress) throws {
        let entity = try self.entity(row: row)
        let a = declaration.actions
        guard !a.quickName.isEmpty || !a.quickImage.isEmpty, let action = a.quickTap else { throw ShellError.notAllowed("quick", id) }
        guard try flag(a.quickEnabled, row: entity, default: true) else { throw ShellError.disabled("quick", row.description) }
        try action.run(engine, on: entity)
    }

    /// Shows a row's more actions: an action sheet with the enabled actions in order, then Cancel; the answer runs
    /// the aligned part of `moreActionsTap` (`moreTap` replaces the sheet).
    public func more(_ row: RowAddress) throws {
        let app = try app
        let entity = try self.entity(row: row)
        let a = declaration.actions
        guard try flag(a.more, row: context) else { throw ShellError.notAllowed("more", id) }
        guard try flag(a.moreEnabled, row: entity, default: true) else { throw ShellError.disabled("more", row.description) }
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
        let title = try rowText(entity) ?? (try currentHeader().title)
        let sheet = PendingAlert(kind: "sheet", title: title, message: engine.word(.selectAnAction),
                                 actions: shown.map(\.title) + [engine.word(.cancel)]) { [engine] choice, _ in
            guard choice <= shown.count, let action = shown[choice - 1].action else { return }
            try action.run(engine, on: entity)
        }
        sheet.entry = entity
        app.present(sheet)
    }

    /// Adds a new entity of the list's `type`: at the front (OKit's default) or the end (`addAppend`). With
    /// `addName` and no text, a prompt asks for the name first (OK is refused while it is empty). A name the
    /// field's rules refuse fails with the rule's message (the prompt stays) and nothing is added.
    public func add(text: String?) throws {
        let app = try app
        let d = declaration
        guard try flag(d.add, row: context, default: true) else { throw ShellError.notAllowed("add", d.id) }
        guard let type = try addType() else {
            throw ShellError.notAllowed("add (dataPath reaches no collection of entities; declare type)", d.id)
        }
        guard let c = try engine.collectionBehind(context, d.dataPath) else {
            throw ShellError.notAllowed("add (dataPath is not a collection)", d.id)
        }
        // A name given to a list without `addName` would be dropped without a word (cli.md): refused instead.
        if d.addName == nil, let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ShellError.notAllowed("add with a name (it has no addName: send add alone, then set the new row's fields)", d.id)
        }
        let append = try flag(d.addAppend, row: context, default: false)
        let nav = try flag(d.addNav, row: context, default: false)
        let typeName = d.typeName ?? type
        let insert: (String?) throws -> Void = { [engine, unowned app] name in
            // OKit writes the prompt's text trimmed.
            let given = d.addName.flatMap { field in name.map { (field, Value.string($0.trimmingCharacters(in: .whitespacesAndNewlines))) } }
            let e = try engine.make(type, [:])
            // The name a person gave is checked by the field's rules before the entity is added.
            if let (field, value) = given { try engine.checkCommandWrite(e, field, value) }
            try engine.insert(.entity(e), into: c, append: append)
            // Then written, as OKit's add does (okit-behaviour §5.2: the entity is added — its `managed` hook runs —
            // and the name set after): the field's `didSet` runs, and a default `managed` gives does not replace it.
            if let (field, value) = given { try engine.set(e, field, value) }
            if let hook = d.hooks.onAdd { try hook.runHook("onAdd", engine, on: e, screen: self.info) }
            if nav, let segue = d.segue {
                try app.push(segue, context: e)
                try app.top?.setEditing(true)
            }
        }
        if let field = d.addName, text == nil {
            let spec = engine.schema.type(named: type)?.field(named: field) ?? FieldSpec(field, .string)
            let type = engine.localize(typeName), name = engine.fieldName(spec)
            // One name in the message, the placeholder and a refusal (`Shelf code is required`); inside the
            // sentence a derived one in lower case (`Enter shelf code for this Book`, OKit's `Enter name …`).
            let inSentence = name.derived ? name.name.prefix(1).lowercased() + name.name.dropFirst() : name.name
            // A required field's rule words a blank answer (`OK is refused: Title is required`); else any blank is.
            let required = spec.rules?.required == true
            // An OKit app's strings key these two by the whole English text (`"New Book"`, `"Enter name for this Book"`:
            // OKit localizes the interpolated text): such a key wins over the built-in word's.
            let own = { (key: String) in self.engine.strings.own(key, language: self.engine.locale.language) }
            let title = own("New \(typeName)") ?? engine.word(.newEntry, type)
            let message = own("Enter \(field) for this \(typeName)") ?? engine.word(.enterField, inSentence, type)
            let prompt = PendingAlert(kind: "prompt", title: title, message: message,
                                      actions: [engine.word(.ok), engine.word(.cancel)],
                                      fields: [AlertFieldSnapshot(placeholder: name.name, value: "")],
                                      needsFields: required ? [] : [1]) { choice, values in
                if choice == 1 { try insert(values.first) }
            }
            // Only as a prompt again: a list that now adds without one would add a row nobody named.
            prompt.reopen = { screen in
                guard let list = screen as? ListScreen, list.declaration.addName != nil else { return }
                try list.add(text: nil)
            }
            app.present(prompt)
            return
        }
        try engine.asAction { try engine.transaction { try insert(text) } }
    }

    /// Deletes a row's entity, after a "Confirm Deletion" (Yes/No) unless `deletePrompt` is false.
    public func delete(_ row: RowAddress) throws {
        let app = try app
        let d = declaration
        guard try flag(d.delete, row: context, default: true) else { throw ShellError.notAllowed("delete", d.id) }
        // OKit's multi-select edit mode has no delete controls: rows are selected, not deleted.
        guard !(editing && !d.selectPath.isEmpty) else {
            throw ShellError.notAllowed("delete while selecting rows (edit mode with selectPath; edit off first)", d.id)
        }
        let entity = try self.entity(row: row)
        guard try flag(d.deleteEnabled, row: entity, default: true), try flag(d.editEnabled, row: entity, default: true) else {
            throw ShellError.disabled("delete", row.description)
        }
        guard let c = try engine.collectionBehind(context, d.dataPath) else {
            throw ShellError.notAllowed("delete (dataPath is not a collection)", d.id)
        }
        // Where the row was in the data when the rows last read it: the entity is found from there.
        let near = (keeper ?? self).follow.inPlace ? rows.slot(of: entity).map { ListScreen.position(seq: rows.row(slot: $0).seq) } : nil
        let remove: () throws -> Void = { [engine] in
            _ = try engine.remove(.entity(entity), from: c, near: near)
            if let hook = d.hooks.onDelete { try hook.runHook("onDelete", engine, on: entity, screen: self.info) }
        }
        if try flag(d.deletePrompt, row: context, default: true) {
            let confirm = PendingAlert(kind: "alert", title: engine.word(.confirmDeletion), message: engine.word(.reallyDelete),
                                       actions: [engine.word(.yes), engine.word(.no)]) { choice, _ in
                if choice == 1 { try remove() }
            }
            // Only as a question again: a list that now deletes without one would delete what nobody confirmed.
            confirm.reopen = { [id = entity.id] screen in
                guard let id, let list = screen as? ListScreen, try list.flag(list.declaration.deletePrompt, row: list.context, default: true) else { return }
                try list.delete(.key(id))
            }
            app.present(confirm)
            return
        }
        try engine.asAction { try engine.transaction { try remove() } }
    }

    /// Moves a row in edit mode (`reorder`, not with grouping or a search): writes the new order into the
    /// collection. Rows are addressed before the move; `to` is the row's position afterwards. With a `rowSort` the
    /// move is allowed as in OKit: the collection takes the new order and the sort puts the rows back in theirs.
    public func move(from: RowAddress, to: RowAddress) throws {
        let d = declaration
        guard try flag(d.reorder, row: context, default: false) else { throw ShellError.notAllowed("move (set reorder)", d.id) }
        guard editing else { throw ShellError.notAllowed("move outside edit mode (edit on first)", d.id) }
        guard d.group.isEmpty else { throw ShellError.notAllowed("move in a grouped list", d.id) }
        guard visible().count == rows.count else { throw ShellError.notAllowed("move while searching", d.id) }
        let entity = try self.entity(row: from)
        guard try flag(d.reorderEnabled, row: entity, default: true), try flag(d.editEnabled, row: entity, default: true) else {
            throw ShellError.disabled("move", from.description)
        }
        let target = try self.entity(row: to)
        guard let c = try engine.collectionBehind(context, d.dataPath) else {
            throw ShellError.notAllowed("move (dataPath is not a collection)", d.id)
        }
        guard let i = c.items.firstIndex(where: { $0.entity === entity }), let j = c.items.firstIndex(where: { $0.entity === target }) else {
            throw ShellError.noRow(to.description, count: c.items.count)
        }
        try engine.asAction { try engine.transaction { try engine.move(in: c, from: i, to: j) } }
    }

    /// A row's `seq` (its position in the data at the last full pass, between its neighbours' for rows added
    /// since) as a position to search from.
    static func position(seq: Double) -> Int {
        seq.isFinite ? Int(Swift.min(Swift.max(seq, 0), Double(Int32.max))) : 0
    }
}
