extension ScreenKind {
    /// Detail screens (`okit.detail`, screens.md "Detail and settings screens"): cells of one entity.
    public static let detail = ScreenKind(name: "detail", commands: detailCommands)
    /// Settings screens (`okit.settings`): detail screens on the app's settings.
    public static let settings = ScreenKind(name: "settings", commands: detailCommands)

    static let detailCommands: [ScreenCommand] = [
        .on(.tap) { (s: DetailScreen, a) in try s.tap(a.row()) },
        .on(.accessory) { (s: DetailScreen, a) in try s.accessory(a.row()) },
        .on(.select) { (s: DetailScreen, a) in try s.select(a.row()) },
        .on(.set) { (s: DetailScreen, a) in try s.set(cell: a.row("cell"), value: a.value("value")) },
        .on(.button) { (s: DetailScreen, a) in try s.button(a.text("id")) },
        .on(.titleTap) { (s: DetailScreen, _) in try s.titleTap() },
    ]
}
