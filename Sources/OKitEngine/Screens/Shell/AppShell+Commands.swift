/// The driver's commands on the screen on top (screens.md "Commands"). Each starts by refusing to run while an
/// alert waits, and fails with a reason and no change when it is not possible. The shell knows no command of a
/// screen: `perform` finds it in the top screen's kind (`ScreenKind.commands`).
extension AppShell {
    func requireNoAlert(_ command: String) throws {
        if !alerts.isEmpty { throw ShellError.alertPending(command) }
    }

    func current(_ command: String) throws -> any ShellScreen {
        try begin(command)
        guard let screen = top else { throw ShellError.notStarted }
        return screen
    }

    /// Runs a command of the screen on top: refused while covered or while an alert waits, and by a screen whose
    /// kind does not take it ("X is not a command of <kind> screens").
    public func perform(_ name: String, _ arguments: CommandArguments) throws {
        let screen = try current(name)
        guard let command = kinds[screen.kind]?.command(named: name) else { throw ShellError.wrongKind(name, screen.kind) }
        try command.perform(screen, arguments)
    }

    /// Runs a command of the screen on top by its description, with named values.
    public func perform(_ command: CommandDescription, _ values: [String: Value] = [:]) throws {
        try perform(command.name, CommandArguments(command.name, values))
    }

    // The screen commands every kind names the same way, from Swift (the driver runs them by name).

    /// Taps a row (lists, selections, menus) or a cell (detail screens).
    public func tap(row: RowAddress) throws { try perform(.tap, ["row": row.value]) }
    /// Taps a row's or cell's accessory.
    public func accessory(row: RowAddress) throws { try perform(.accessory, ["row": row.value]) }
    /// Selects a row: edit-mode selection (`selectPath`) or a selection screen's row.
    public func select(row: RowAddress) throws { try perform(.select, ["row": row.value]) }
    /// Sets an edit cell's value.
    public func set(cell: RowAddress, value: Value) throws { try perform(.set, ["cell": cell.value, "value": value]) }
    /// Sets the search text (and scope, by title or 1-based position).
    public func search(_ text: String, scope: String? = nil) throws {
        try perform(.search, ["text": .string(text), "scope": scope.map { .string($0) } ?? .null])
    }
    /// Taps the title (`titleTap`).
    public func titleTap() throws { try perform(.titleTap) }
    /// Presses a bar button by id or title.
    public func button(_ id: String) throws { try perform(.button, ["id": .string(id)]) }

    /// Runs a row's quick action (lists).
    public func quick(row: RowAddress) throws { try perform(.quick, ["row": row.value]) }
    /// Shows a row's more actions (lists).
    public func more(row: RowAddress) throws { try perform(.more, ["row": row.value]) }
    /// Adds a row (lists: a new entity; backups: a new backup).
    public func add(text: String? = nil) throws { try perform(.add, ["text": text.map { .string($0) } ?? .null]) }
    /// Deletes a row (lists: the row's entity; backups: the backup).
    public func delete(row: RowAddress) throws { try perform(.delete, ["row": row.value]) }
    /// Moves a row in edit mode (lists with `reorder`).
    public func move(from: RowAddress, to: RowAddress) throws { try perform(.move, ["from": from.value, "to": to.value]) }
}
