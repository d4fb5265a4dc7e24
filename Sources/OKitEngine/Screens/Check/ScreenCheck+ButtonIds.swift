/// Bar buttons and menu items one name reaches (a problem of `okit-run check` only): a button is pressed, an item
/// chosen, by its id — `id`, else its title as declared without `%`/`#` (`BarButton.defaultId`) — so two of one
/// screen declared with the same title and no id share a name, and `button Mark` (`menuItem Go`), a flow test's
/// press and the web's form all reach the first one shown. Two buttons whose `showPath`s may keep them apart (each
/// has one) are left alone: only one may show at a time.
extension ScreenCheckRun {
    /// What the second of two declarations one name reaches is called in the message.
    struct SharedName {
        let list: String          // "buttons", "items"
        let one: String           // "a button", "an item"
        let verb: String          // "pressed", "chosen"
        let command: String       // "button", "menuItem"
        let reaches: String       // "presses", "chooses"
    }

    func checkButtonIds(_ screen: String, _ buttons: [BarButton]) {
        guard thorough else { return }
        let words = SharedName(list: "buttons", one: "a button", verb: "pressed", command: "button", reaches: "presses")
        var first: [String: Int] = [:]
        for (i, b) in buttons.enumerated() {
            let id = b.id ?? b.defaultId
            guard let j = first[id] else { first[id] = i; continue }
            let other = buttons[j]
            if !b.showPath.isEmpty && !other.showPath.isEmpty { continue }
            let hidden = other.showPath.isEmpty ? "can never be pressed" : "cannot be pressed while buttons[\(j + 1)] shows"
            nameShared(screen, words, i, j, id: id, unreachable: hidden)
        }
    }

    /// Menu items one name chooses, as `checkButtonIds` for bar buttons (`menuItem Go`).
    func checkMenuItemIds(_ screen: String, _ items: [MenuItem]) {
        guard thorough else { return }
        let words = SharedName(list: "items", one: "an item", verb: "chosen", command: "menuItem", reaches: "chooses")
        var first: [String: Int] = [:]
        for (i, item) in items.enumerated() {
            var id = item.id ?? item.title
            if item.id == nil, let c = id.first, c == "%" || c == "#" { id.removeFirst() }
            guard let j = first[id] else { first[id] = i; continue }
            nameShared(screen, words, i, j, id: id, unreachable: "can never be chosen")
        }
    }

    /// The problem of declaration `i` that name `id` does not reach, as declaration `j` has it first.
    private func nameShared(_ screen: String, _ w: SharedName, _ i: Int, _ j: Int, id: String, unreachable: String) {
        let message = "\(w.list)[\(i + 1)] is \(w.verb) as \"\(id)\", as \(w.list)[\(j + 1)] is (\(w.one) without an id is "
            + "\(w.verb) by its title): \"\(w.command) \(id)\" \(w.reaches) \(w.list)[\(j + 1)], so \(w.list)[\(i + 1)] "
            + "\(unreachable); give one of them its own id = \"…\""
        issues.append(ScreenIssue(screen: screen, property: "\(w.list)[\(i + 1)]", column: 1, message: message,
                                  sites: [[.name(w.list), .index(i + 1), "id"], [.name(w.list), .index(i + 1), "title"],
                                          [.name(w.list), .index(i + 1)]]))
    }
}
