extension ScreenKind {
    /// Selection screens (`okit.selection`, screens.md "Selection screens"): `tap` and `select` toggle a row.
    public static let selection = ScreenKind(name: "selection", commands: [
        .on(.tap) { (s: SelectionScreen, a) in try s.tap(a.row()) },
        .on(.accessory) { (s: SelectionScreen, a) in try s.accessory(a.row()) },
        .on(.select) { (s: SelectionScreen, a) in try s.select(a.row()) },
        .on(.search) { (s: SelectionScreen, a) in try s.search(a.optionalText("text") ?? "", scope: a.optionalText("scope")) },
        .on(.button) { (s: SelectionScreen, a) in try s.button(a.text("id")) },
        .on(.titleTap) { (s: SelectionScreen, _) in try s.titleTap() },
    ])
}
