/// Bar buttons one name presses (a problem of `okit-run check` only): a button is pressed by its id — `id`, else its
/// title as declared without `%`/`#` (`BarButton.defaultId`) — so two buttons of one screen declared with the same
/// title and no id share a name, and `button Mark`, a flow test's press and the web's form all press the first one
/// shown. Two buttons whose `showPath`s may keep them apart (each has one) are left alone: only one may show at a time.
extension ScreenCheckRun {
    func checkButtonIds(_ screen: String, _ buttons: [BarButton]) {
        guard thorough else { return }
        var first: [String: Int] = [:]
        for (i, b) in buttons.enumerated() {
            let id = b.id ?? b.defaultId
            guard let j = first[id] else { first[id] = i; continue }
            let other = buttons[j]
            if !b.showPath.isEmpty && !other.showPath.isEmpty { continue }
            let hidden = other.showPath.isEmpty ? "can never be pressed" : "cannot be pressed while buttons[\(j + 1)] shows"
            let message = "buttons[\(i + 1)] is pressed as \"\(id)\", as buttons[\(j + 1)] is (a button without an id is "
                + "pressed by its title): \"button \(id)\" presses buttons[\(j + 1)], so buttons[\(i + 1)] \(hidden); "
                + "give one of them its own id = \"…\""
            issues.append(ScreenIssue(screen: screen, property: "buttons[\(i + 1)]", column: 1, message: message,
                                      sites: [["buttons", .index(i + 1), "id"], ["buttons", .index(i + 1), "title"],
                                              ["buttons", .index(i + 1)]]))
        }
    }

    /// Menu items one name chooses, as `checkButtonIds` for bar buttons: an item is chosen by its id — `id`, else
    /// its title's text — so two items with the same title and no id share a name, and `menuItem Go`, a flow test's
    /// choice and the web's form all choose the first.
    func checkMenuItemIds(_ screen: String, _ items: [MenuItem]) {
        guard thorough else { return }
        var first: [String: Int] = [:]
        for (i, item) in items.enumerated() {
            var id = item.id ?? item.title
            if item.id == nil, let c = id.first, c == "%" || c == "#" { id.removeFirst() }
            guard let j = first[id] else { first[id] = i; continue }
            let message = "items[\(i + 1)] is chosen as \"\(id)\", as items[\(j + 1)] is (an item without an id is "
                + "chosen by its title): \"menuItem \(id)\" chooses items[\(j + 1)], so items[\(i + 1)] can never be "
                + "chosen; give one of them its own id = \"…\""
            issues.append(ScreenIssue(screen: screen, property: "items[\(i + 1)]", column: 1, message: message,
                                      sites: [["items", .index(i + 1), "id"], ["items", .index(i + 1), "title"],
                                              ["items", .index(i + 1)]]))
        }
    }
}
