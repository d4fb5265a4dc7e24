/// Adding and deleting rows of list screens (screens.md "List": `add`, `addName`, `delete`, `deletePrompt`).
extension AppShell {
    func requireNoAlert(_ command: String) throws {
        if !alerts.isEmpty { throw ShellError.alertPending(command) }
    }

    func currentList(_ command: String) throws -> ListScreen {
        try requireNoAlert(command)
        guard case .list(let list)? = top else { throw ShellError.wrongKind(command, "detail") }
        return list
    }

    func flag(_ binding: String, on context: Entity?, default value: Bool) throws -> Bool {
        binding.isEmpty ? value : try engine.get(context, binding, mode: .display).truthy
    }

    /// Adds a new entity of the list's `type`: at the front (OKit's default) or the end (`addAppend`). With
    /// `addName` and no text, a prompt asks for the name first (OK is refused while it is empty).
    public func add(text: String? = nil) throws {
        let list = try currentList("add")
        let d = list.declaration
        guard try flag(d.add, on: list.context, default: false) else { throw ShellError.notAllowed("add", d.id) }
        guard let type = d.type else { throw ShellError.notAllowed("add (no type declared)", d.id) }
        guard case .collection(let c) = try engine.get(list.context, d.dataPath) else {
            throw ShellError.notAllowed("add (dataPath is not a collection)", d.id)
        }
        let append = try flag(d.addAppend, on: list.context, default: false)
        let typeName = d.typeName ?? type
        let insert: (String?) throws -> Void = { [engine] name in
            var fields: [String: Value] = [:]
            if let field = d.addName, let name { fields[field] = .string(name) }
            let e = try engine.make(type, fields)
            try engine.insert(.entity(e), into: c, append: append)
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
    public func delete(row: String) throws {
        let list = try currentList("delete")
        let d = list.declaration
        guard try flag(d.delete, on: list.context, default: false) else { throw ShellError.notAllowed("delete", d.id) }
        let entity = try list.entity(row: row)
        guard case .collection(let c) = try engine.get(list.context, d.dataPath) else {
            throw ShellError.notAllowed("delete (dataPath is not a collection)", d.id)
        }
        let remove: () throws -> Void = { [engine] in _ = try engine.remove(.entity(entity), from: c) }
        if try flag(d.deletePrompt, on: list.context, default: true) {
            present(PendingAlert(kind: "alert", title: "Confirm Deletion", message: nil, actions: ["Yes", "No"]) { choice, _ in
                if choice == 1 { try remove() }
            })
            return
        }
        try engine.asAction { try engine.transaction { try remove() } }
    }
}
