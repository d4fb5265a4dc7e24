/// Row actions of list screens: tap (`tap`, else the `segue`), the quick action, more actions (an action sheet)
/// and the accessory (screens.md "List").
extension AppShell {
    /// Taps a row: runs `tap` on the row's entity, else opens the `segue` screen with it.
    public func tap(row: String) throws {
        let list = try currentList("tap")
        let entity = try list.entity(row: row)
        if let action = list.declaration.actions.tap {
            try action.run(engine, on: entity)
            return
        }
        guard let segue = list.declaration.segue else { throw ShellError.noSegue(list.declaration.id) }
        try push(segue, context: entity)
    }

    /// Runs a row's quick action.
    public func quick(row: String) throws {
        let list = try currentList("quick")
        let entity = try list.entity(row: row)
        let a = list.declaration.actions
        guard !a.quickName.isEmpty, let action = a.quickTap else { throw ShellError.notAllowed("quick", list.declaration.id) }
        guard try list.flag(a.quickEnabled, row: entity, default: true) else { throw ShellError.disabled("quick action", row) }
        try action.run(engine, on: entity)
    }

    /// Taps a row's accessory.
    public func accessory(row: String) throws {
        let list = try currentList("accessory")
        let entity = try list.entity(row: row)
        let a = list.declaration.actions
        guard let action = a.accyTap, try list.flag(a.accyShow, row: entity, default: true) else {
            throw ShellError.notAllowed("accessory", list.declaration.id)
        }
        guard try list.flag(a.accyEnabled, row: entity, default: true) else { throw ShellError.disabled("accessory", row) }
        try action.run(engine, on: entity)
    }

    /// Shows a row's more actions: an action sheet with the enabled actions in order, then Cancel; the answer runs
    /// the aligned part of `moreActionsTap`.
    public func more(row: String) throws {
        let list = try currentList("more")
        let entity = try list.entity(row: row)
        let a = list.declaration.actions
        guard try list.flag(a.more, row: entity) else { throw ShellError.notAllowed("more", list.declaration.id) }
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
        present(PendingAlert(kind: "sheet", title: nil, message: nil, actions: shown.map(\.title) + ["Cancel"]) { [engine] choice, _ in
            guard choice <= shown.count, let action = shown[choice - 1].action else { return }
            try action.run(engine, on: entity)
        })
    }
}
