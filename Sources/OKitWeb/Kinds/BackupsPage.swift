import OKitEngine

/// The backups screen: a create form, the backups with restore, download and delete, an upload form
/// (PageRenderer+Backups.swift). Creating, restoring and deleting need the login token (a backup is everyone's
/// data, and a secure one costs a key derivation); the create form answers the prompt `add` opens with its fields.
public struct BackupsPage: WebScreenKind {
    public init() {}

    public func body(_ page: PageRenderer) -> [HTMLNode] { page.backupsBody() }

    /// Every command of the screen acts on everyone's backups: `add` (and the bar's `button add`) creates one, `tap`
    /// restores, `delete` deletes, `respond` answers their dialogs.
    public func needsToken(_ command: String, _ place: WebCommandPlace) -> Bool {
        ["add", "button", "tap", "delete", "respond"].contains(command)
    }

    /// The create form carries the name and passwords as `fields`: the "New Backup" prompt `add` opens is answered
    /// with them, and nothing else — an alert that follows (a name taken, a failure) is the person's to read. Restore
    /// (`tap`) asks as OKit asks: the confirmation, then the password, each a dialog the person answers; a form's
    /// `fields` never answer them, so no single post replaces the data unconfirmed.
    public func afterCommand(_ command: String, fields: [String], _ driver: Driver) throws {
        guard command == "add", !fields.isEmpty, let prompt = try driver.shell.snapshot().alert, !prompt.fields.isEmpty else { return }
        try driver.run("respond", ["action": .int(1), "fields": .list(fields.map { .string($0) })])
    }
}
