extension ScreenKind {
    /// Lists (`okit.list`, screens.md "List screens"): rows of entities, every screen command.
    public static let list = ScreenKind(name: "list", commands: [
        .on(.tap) { (s: ListScreen, a) in try s.tap(a.row()) },
        .on(.accessory) { (s: ListScreen, a) in try s.accessory(a.row()) },
        .on(.add) { (s: ListScreen, a) in try s.add(text: a.optionalText("text")) },
        .on(.delete) { (s: ListScreen, a) in try s.delete(a.row()) },
        .on(.move) { (s: ListScreen, a) in try s.move(from: a.row("from"), to: a.row("to")) },
        .on(.more) { (s: ListScreen, a) in try s.more(a.row()) },
        .on(.quick) { (s: ListScreen, a) in try s.quick(a.row()) },
        .on(.select) { (s: ListScreen, a) in try s.select(a.row()) },
        .on(.set) { (s: ListScreen, a) in try s.set(cell: a.row("cell"), value: a.value("value")) },
        .on(.search) { (s: ListScreen, a) in try s.search(a.optionalText("text") ?? "", scope: a.optionalText("scope")) },
        .on(.button) { (s: ListScreen, a) in try s.button(a.text("id")) },
        .on(.titleTap) { (s: ListScreen, _) in try s.titleTap() },
    ])
}
