extension ScreenKind {
    /// The backups screen (`okit.backups`, storage.md "Backups"): `add` makes a backup, `tap` restores one,
    /// `delete` deletes one.
    public static let backups = ScreenKind(name: "backups", commands: [
        .on(.tap) { (s: BackupsScreen, a) in try s.tap(a.row()) },
        .on(.add) { (s: BackupsScreen, a) in try s.add(text: a.optionalText("text")) },
        .on(.delete) { (s: BackupsScreen, a) in try s.delete(a.row()) },
        .on(.button) { (s: BackupsScreen, a) in try s.button(a.text("id")) },
    ])
}
