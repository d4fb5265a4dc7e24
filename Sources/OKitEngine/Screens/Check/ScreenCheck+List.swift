extension ListDeclaration {
    public func check(_ run: ScreenCheckRun) {
        let context = contextPath.isEmpty ? (run.openedWith[id] ?? run.root) : run.entityType(after: contextPath, from: run.openedWith[id] ?? run.root)
        run.run(id, "contextPath", contextPath, run.openedWith[id] ?? run.root)
        run.run(id, "dataPath", dataPath, context)
        for (p, t) in [("titlePath", titlePath), ("subTitlePath", subTitlePath), ("titleCount", titleCount),
                       ("subTitleObject", subTitleObject), ("search", search), ("index", index), ("add", add),
                       ("delete", delete), ("promptPath", promptPath), ("searchFilters", searchFilters), ("edit", edit),
                       ("editAlways", editAlways), ("reorder", reorder), ("refresh", refresh)] { run.run(id, p, t, context) }
        run.run(id, "titleTap", titleTap, context)
        let row = run.type(type, screen: id) ?? run.entityType(after: dataPath, from: context)
        if let row, let segue { run.openedWith[segue] = row }
        let a = actions
        for (p, t) in [("rowSort", rowSort), ("group", group), ("groupName", groupName), ("groupSort", groupSort),
                       ("searchPath", searchPath), ("searchFilterPath", searchFilterPath), ("cell.path", cellPath),
                       ("cell.detailPath", cellDetailPath), ("quickName", a.quickName), ("quickEnabled", a.quickEnabled),
                       ("more", a.more), ("moreActions", a.moreActions), ("moreActionsEnabled", a.moreActionsEnabled),
                       ("accyText", a.accyText), ("accyShow", a.accyShow), ("accyEnabled", a.accyEnabled),
                       ("reorderEnabled", reorderEnabled), ("selectPath", selectPath)] { run.run(id, p, t, row) }
        for (p, action) in [("tap", a.tap), ("quickTap", a.quickTap), ("accyTap", a.accyTap), ("tapEdit", a.tapEdit)] {
            run.run(id, p, action, row)
        }
        for action in a.moreActionsTap { run.run(id, "moreActionsTap", action, row) }
        if let addName, let row, row.field(named: addName) == nil {
            run.issue(id, "addName", "\(row.name) has no field \"\(addName)\"")
        }
    }
}

extension SelectionDeclaration {
    public func check(_ run: ScreenCheckRun) {
        list.check(run)
        let base = run.openedWith[id] ?? run.root
        run.run(id, "selectionContextPath", selectionContextPath, base)
        let selection = selectionContextPath.isEmpty ? base : run.entityType(after: selectionContextPath, from: base)
        run.run(id, "selectionPath", selectionPath, selection)
        for f in flags { run.run(id, f.name, f.binding, selection) }
        if let refType {
            if let t = run.engine.schema.type(named: refType) {
                if t.field(named: "refKey")?.type != .string {
                    run.issue(id, "refType", "\(refType) has no string field \"refKey\" (a selection stores the row's id there)")
                }
            } else {
                run.issue(id, "refType", "unknown entity type \"\(refType)\"")
            }
        }
    }
}

extension MenuDeclaration {
    public func check(_ run: ScreenCheckRun) {
        list.check(run)
        run.run(id, "hideMenu", hideMenu, run.root)
        for item in items {
            run.run(id, "items.title", item.title, run.root)
            run.run(id, "items.tap", item.tap, run.root)
        }
        if let rowIdentifier, !rowIdentifier.isEmpty {
            let context = list.contextPath.isEmpty ? run.root : run.entityType(after: list.contextPath, from: run.root)
            if let row = run.type(list.type, screen: id) ?? run.entityType(after: list.dataPath, from: context) {
                run.openedWith[rowIdentifier] = row
            }
        }
    }
}
