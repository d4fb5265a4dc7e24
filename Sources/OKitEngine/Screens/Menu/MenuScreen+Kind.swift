extension ScreenKind {
    /// Menu screens (`okit.menu`, screens.md "Menu screens"): a list whose choices show content; its toolbar
    /// items are `button`s (and the shell's `menuItem`).
    public static let menu = ScreenKind(name: "menu", commands: [
        .on(.tap) { (s: MenuScreen, a) in try s.tap(a.row()) },
        .on(.accessory) { (s: MenuScreen, a) in try s.accessory(a.row()) },
        .on(.select) { (s: MenuScreen, a) in try s.select(a.row()) },
        // A list's own commands (OKit's controller is a list controller): the + and Edit buttons and each row's
        // delete its snapshot shows work (they were refused, and only `button add` added).
        .on(.add) { (s: MenuScreen, a) in try s.list.add(text: a.optionalText("text")) },
        .on(.delete) { (s: MenuScreen, a) in try s.list.delete(a.row()) },
        .on(.move) { (s: MenuScreen, a) in try s.list.move(from: a.row("from"), to: a.row("to")) },
        .on(.more) { (s: MenuScreen, a) in try s.list.more(a.row()) },
        .on(.quick) { (s: MenuScreen, a) in try s.list.quick(a.row()) },
        .on(.search) { (s: MenuScreen, a) in try s.search(a.optionalText("text") ?? "", scope: a.optionalText("scope")) },
        .on(.button) { (s: MenuScreen, a) in try s.button(a.text("id")) },
        .on(.titleTap) { (s: MenuScreen, _) in try s.titleTap() },
    ])
}
