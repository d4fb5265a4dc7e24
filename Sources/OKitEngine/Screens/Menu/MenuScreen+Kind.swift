extension ScreenKind {
    /// Menu screens (`okit.menu`, screens.md "Menu screens"): a list whose choices show content; its toolbar
    /// items are `button`s (and the shell's `menuItem`).
    public static let menu = ScreenKind(name: "menu", commands: [
        .on(.tap) { (s: MenuScreen, a) in try s.tap(a.row()) },
        .on(.accessory) { (s: MenuScreen, a) in try s.accessory(a.row()) },
        .on(.select) { (s: MenuScreen, a) in try s.select(a.row()) },
        .on(.search) { (s: MenuScreen, a) in try s.search(a.optionalText("text") ?? "", scope: a.optionalText("scope")) },
        .on(.button) { (s: MenuScreen, a) in try s.button(a.text("id")) },
        .on(.titleTap) { (s: MenuScreen, _) in try s.titleTap() },
    ])
}
