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

    /// Runs a row's quick action (lists).
    public func quick(row: RowAddress) throws { try current("quick").quick(row) }
    /// Shows a row's more actions (lists).
    public func more(row: RowAddress) throws { try current("more").more(row) }
    /// Adds a row (lists: a new entity; backups: a new backup).
    public func add(text: String? = nil) throws { try current("add").add(text: text) }
    /// Deletes a row (lists: the row's entity; backups: the backup).
    public func delete(row: RowAddress) throws { try current("delete").delete(row) }
    /// Moves a row in edit mode (lists with `reorder`).
    public func move(from: RowAddress, to: RowAddress) throws { try current("move").move(from: from, to: to) }
}
