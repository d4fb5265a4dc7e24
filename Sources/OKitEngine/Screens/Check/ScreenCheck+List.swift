extension ListDeclaration {
    /// Checks the list on every context it is opened with (the root when nothing opens it).
    public func check(_ run: ScreenCheckRun) {
        for o in run.openers(of: id, fallback: run.unopenedContext) { check(run, receiving: o.context) }
    }

    /// Checks the list on a context it receives: screen flags and the title on the list's context (after
    /// `contextPath`), row flags, row actions and the cell on the row type (OKit §5.2). Returns both.
    @discardableResult
    func check(_ run: ScreenCheckRun, receiving base: EntityType?) -> (context: EntityType?, row: EntityType?) {
        run.run(id, "contextPath", contextPath, base)
        let context = run.context(base, after: contextPath)
        run.run(id, "dataPath", dataPath, context)
        run.checkCollection(id, "dataPath", dataPath, on: context, at: ["dataPath"], what: "a list's rows")
        for (p, t) in [("titlePath", titlePath), ("subTitlePath", subTitlePath), ("titleCount", titleCount),
                       ("subTitleObject", subTitleObject), ("subTitleObjectPlural", subTitleObjectPlural),
                       ("promptPath", promptPath), ("searchFilters", plainSearchFilters == nil ? searchFilters : ""),
                       ("search", search), ("index", index),
                       ("add", add), ("addAppend", addAppend), ("delete", delete), ("deletePrompt", deletePrompt),
                       ("addNav", addNav), ("reorder", reorder), ("edit", edit), ("editAlways", editAlways),
                       ("editInherit", editInherit), ("subTitleSwap", subTitleSwap), ("refresh", refresh),
                       ("rowSortAsc", rowSortAsc), ("groupSortAsc", groupSortAsc)] {
            run.run(id, p, t, context, flag: FlagProperties.list.contains(p))
        }
        run.run(id, "titleTap", titleTap, context)
        if let plain = plainSearchFilters { run.checkPlainTexts(id, "searchFilters", searchFilters, plain, sites: [["searchFilters"]]) }
        run.checkHelp(id, help)
        run.checkButtonIds(id, buttons)
        for (p, hook) in [("onAppear", hooks.onAppear), ("onDisappear", hooks.onDisappear), ("onEdit", hooks.onEdit)] {
            run.run(id, p, hook, context, at: [.name(p)])
        }
        let row = run.type(type, screen: id) ?? run.entityType(after: dataPath, from: context)
        checkRows(run, context: context, row: row)
        checkSectionLines(run, row: row)
        cell.check(run, screen: id, name: "cell", site: ["cell"], parent: row,
                   mayEdit: CellDeclaration.screenMayEdit(edit: edit, editAlways: editAlways, editInherit: editInherit))
        // A row's tap opens the segue, else the presented screen (ListScreen.tap), alike: the row's entity; a selection
        // gets the list's context and its dataPath (OKit's segue `prepare`).
        let rowOpener = Opener(context: row, selectionContext: context, defaultSelectionPath: dataPath.isEmpty ? "." : dataPath,
                               from: "list \(id)")
        if run.target(id, "segue", segue, at: ["segue"]) { run.open(segue, with: rowOpener) }
        if run.target(id, "present", present, at: ["present"]), segue == nil { run.open(present, with: rowOpener) }
        let buttonOpener = Opener(context: context, selectionContext: context, defaultSelectionPath: dataPath.isEmpty ? "." : dataPath,
                                  from: "list \(id)")
        for (i, b) in buttons.enumerated() { b.check(run, screen: id, index: i, on: context, opens: buttonOpener) }
        return (context, row)
    }

    /// Row flags and actions, on the row type; `groupSort` and `more` on the list's context or the row (OKit
    /// evaluates them on the context, okit on the row).
    func checkRows(_ run: ScreenCheckRun, context: EntityType?, row: EntityType?) {
        let a = actions
        var texts: [(String, String)] = [("rowSort", rowSort), ("group", group), ("groupName", groupName),
                                         ("searchPath", searchPath), ("searchFilterPath", searchFilterPath),
                                         ("selectPath", selectPath), ("reorderEnabled", reorderEnabled),
                                         ("navEnabled", navEnabled), ("deleteEnabled", deleteEnabled),
                                         ("editEnabled", editEnabled)]
        for (p, path) in RowActions.textKeys.sorted(by: { $0.key < $1.key }) where p != "more" { texts.append((p, a[keyPath: path])) }
        for (p, t) in texts {
            run.run(id, p, t, row, at: [.name(p)], or: [["cell", .name(p)]], flag: FlagProperties.list.contains(p))
        }
        run.runEither(id, "groupSort", groupSort, [context, row], at: ["groupSort"], flag: FlagProperties.list.contains("groupSort"))
        run.runEither(id, "more", a.more, [context, row], at: ["more"], flag: true)
        for (p, action) in [("tap", a.tap), ("quickTap", a.quickTap), ("accyTap", a.accyTap), ("tapEdit", a.tapEdit),
                            ("accyEditTap", a.accyEditTap), ("moreTap", a.moreTap), ("onAdd", hooks.onAdd),
                            ("onDelete", hooks.onDelete), ("onSelect", hooks.onSelect)] {
            run.run(id, p, action, row, at: [.name(p)], or: [["cell", .name(p)]])
        }
        checkMoreActionsTap(run, row: row)
        if let addName, let row, row.field(named: addName) == nil {
            let known = row.fields.map(\.name)
            run.issue(id, "addName", "\(row.name) has no field \"\(addName)\"" + NameSuggestion.hint(for: addName, in: known), at: ["addName"])
        }
    }

    /// `groupHeader`, `groupFooter` and `footerPath` on a section (`ListSection`): `rows` a collection of the row
    /// type, `key` the `group` binding's value (unknown for the footer, which has none).
    func checkSectionLines(_ run: ScreenCheckRun, row: EntityType?) {
        if !groupHeader.isEmpty || !groupFooter.isEmpty {
            let section = ListSection.checkedType(row: row, key: group.isEmpty ? nil : run.checker.value(of: group, on: row))
            run.run(id, "groupHeader", groupHeader, section)
            run.run(id, "groupFooter", groupFooter, section)
        }
        run.run(id, "footerPath", footerPath, ListSection.checkedType(row: row, key: nil))
    }

    /// `moreActionsTap`: one action per part of a multipart binding, or a table of actions (the site's `.part`
    /// is either).
    func checkMoreActionsTap(_ run: ScreenCheckRun, row: EntityType?) {
        for (i, action) in actions.moreActionsTap.enumerated() {
            run.run(id, "moreActionsTap", action, row, at: ["moreActionsTap", .part(i + 1)])
        }
        // An action chosen from the sheet runs the part of moreActionsTap at its place: titles past the last
        // part do nothing when chosen, as in OKit, which aligns them by index (okit-behaviour §1.7, §5.2). The app
        // runs so (a warning at load, a problem of `okit-run check`); an action whose moreActionsEnabled part is a
        // constant off (`",,#false"`) is never shown and needs no tap.
        let titles = (try? BindingParser.partTexts(actions.moreActions))?.count ?? 0
        let taps = actions.moreActionsTap.count
        guard actions.moreTap == nil, ScreenCheckRun.usedParts(actions.moreActions) > 0 else { return }
        let enabledParts = (try? BindingParser.partTexts(actions.moreActionsEnabled)) ?? []
        let untapped = taps > 0 && titles > taps
            ? (taps..<titles).filter { $0 >= enabledParts.count || !ListDeclaration.isConstantOff(enabledParts[$0]) } : []
        if !untapped.isEmpty {
            let n = untapped.count
            let message = "moreActions has \(titles) actions and moreActionsTap \(taps): " + (n == 1 ? "action \(untapped[0] + 1) does"
                : "actions " + untapped.map { "\($0 + 1)" }.joined(separator: ", ") + " do") + " nothing when chosen; "
                + "give each action its tap, in the same order (or disable it: moreActionsEnabled part \"#false\")"
            let issue = ScreenIssue(screen: id, property: "moreActionsTap", column: 1, message: message, sites: [["moreActionsTap"]])
            if run.thorough { run.issues.append(issue) } else { run.warnings.append(issue) }
        }
        // Parts past the last action belong to none: never offered, never asked (a missing moreActionsEnabled part
        // is OKit's "shown", so fewer is no problem).
        let enabled = ScreenCheckRun.usedParts(actions.moreActionsEnabled)
        for (p, n) in [("moreActionsTap", taps), ("moreActionsEnabled", enabled)] where n > titles {
            run.issue(id, p, "moreActions has \(titles) action\(titles == 1 ? "" : "s") and \(p) \(n) parts: "
                + (n - titles == 1 ? "the last belongs" : "the last \(n - titles) belong") + " to no action and "
                + (n - titles == 1 ? "is" : "are") + " never used; give one part per action, in the same order", at: [.name(p)])
        }
    }
}

extension BarButton {
    /// A bar button: its title, `enabled` flag and action on the screen's context; its segue or presented screen
    /// opened with that context.
    func check(_ run: ScreenCheckRun, screen: String, index i: Int, on context: EntityType?, opens opener: Opener) {
        let site: [DeclarationKey] = ["buttons", .index(i + 1)]
        let name = "buttons[\(i + 1)]"
        // The title is a binding as every text of a screen is (`title = "Add"` names a field "Add"): its problems
        // say how to write the text itself, as an alert's do. An icon of plain words is a name, shown as written.
        let before = run.issues.count
        run.run(screen, "\(name).title", title, context, at: site + ["title"], or: [site + ["titlePath"]])
        // A title already written as a text (`%Lend`, `#Lend`) needs no advice on how to write one: its problem is
        // another (a missing string); the advice repeated what was written.
        let writtenAsText = title.first == "%" || title.first == "#"
        for k in before..<run.issues.count where !writtenAsText {
            let i = run.issues[k]
            run.issues[k] = ScreenIssue(screen: i.screen, property: i.property, column: i.column,
                                        message: i.message + BarButton.titleRemedy(title), sites: i.sites)
        }
        func plainWords(_ t: String) -> Bool {
            t.unicodeScalars.allSatisfy({ $0 == " " || $0 == "_" || $0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0) })
        }
        if !plainWords(icon) { run.run(screen, "\(name).icon", icon, context, at: site + ["icon"], or: [site + ["iconPath"]]) }
        run.run(screen, "\(name).enabled", enabled, context, at: site + ["enabledPath"], or: [site + ["enabled"]],
                flag: FlagProperties.button.contains("enabled"))
        run.run(screen, "\(name).showPath", showPath, context, at: site + ["showPath"], or: [site + ["show"]],
                flag: FlagProperties.button.contains("showPath"))
        run.run(screen, "\(name).tap", tap, context, at: site + ["tapPath"], or: [site + ["tap"]])
        if run.target(screen, "\(name).segue", segue, at: site + ["segue"]) { run.open(segue, with: opener) }
        if run.target(screen, "\(name).present", present, at: site + ["present"]) { run.open(present, with: opener) }
    }
}

extension ScreenCheckRun {
    /// A list's or a picker's `dataPath` that reaches a text, number, bool or date, not a collection: the screen
    /// shows no rows (the picker no options); said, not left to be found. The message names the context's collections.
    func checkCollection(_ screen: String, _ property: String, _ text: String, on context: EntityType?,
                         at site: [DeclarationKey], what: String) {
        guard let value = checker.value(of: text, on: context) else { return }
        switch value {
        case .string, .number, .bool, .date: break
        default: return
        }
        let on = context.map { " on \($0.name)" } ?? ""
        let lists = context?.fields.filter { f in
            if case .map = f.type { return false }
            return f.type.isCollection
        }.map(\.name) ?? []
        let advice = lists.isEmpty ? "bind it to a list field (\"[T]\" or \"{T}\"), or a path to one (\"/authors\")"
            : "bind it to a list field, like " + lists.prefix(3).map { "\"\($0)\"" }.joined(separator: " or ")
        let message = "\(what) are the elements of a list; \"\(text)\"\(on) is \(value.described), not a list: \(advice)"
        // The screen runs (empty), as OKit's does: a warning at load, a problem of `okit-run check`.
        let found = ScreenIssue(screen: screen, property: property, column: 1, message: message, sites: [site])
        if thorough { issues.append(found) } else { warnings.append(found) }
    }
}

extension ListDeclaration {
    /// A part of a multipart flag that is a constant off (`#false`, `#no`, `#0`): the action it belongs to is never
    /// shown.
    static func isConstantOff(_ part: String) -> Bool {
        guard let b = try? BindingParser.parse(part), b.parts.count == 1, case .constant(let v) = b.parts[0] else { return false }
        if case .null = v { return false }
        return !v.truthy
    }
}
