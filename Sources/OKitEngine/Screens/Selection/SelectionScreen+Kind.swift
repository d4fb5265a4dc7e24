extension ScreenKind {
    /// Selection screens (`okit.selection`, screens.md "Selection screens"): `tap` and `select` toggle a row.
    public static let selection = ScreenKind(name: "selection", commands: [
        .on(.tap) { (s: SelectionScreen, a) in try s.tap(a.row()) },
        .on(.accessory) { (s: SelectionScreen, a) in try s.accessory(a.row()) },
        .on(.select) { (s: SelectionScreen, a) in try s.select(a.row()) },
        // A list's own commands (OKit's controller is a list controller): the + and Edit buttons and each row's
        // delete its snapshot shows work (they were refused, and only `button add` added).
        .on(.add) { (s: SelectionScreen, a) in try s.list.add(text: a.optionalText("text")) },
        .on(.delete) { (s: SelectionScreen, a) in try s.list.delete(a.row()) },
        .on(.move) { (s: SelectionScreen, a) in try s.list.move(from: a.row("from"), to: a.row("to")) },
        .on(.more) { (s: SelectionScreen, a) in try s.list.more(a.row()) },
        .on(.quick) { (s: SelectionScreen, a) in try s.list.quick(a.row()) },
        .on(.search) { (s: SelectionScreen, a) in try s.search(a.optionalText("text") ?? "", scope: a.optionalText("scope")) },
        .on(.button) { (s: SelectionScreen, a) in try s.button(a.text("id")) },
        .on(.titleTap) { (s: SelectionScreen, _) in try s.titleTap() },
    ])
}
