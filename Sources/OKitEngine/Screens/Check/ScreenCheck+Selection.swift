extension SelectionDeclaration {
    /// Checks the selection on every way it is opened: its rows on the context it receives, `selectionPath`
    /// (or its default) and the flags on the selection context (OKit §5.1/§5.2 segue `prepare`).
    public func check(_ run: ScreenCheckRun) {
        for o in run.openers(of: id, fallback: run.unopenedContext) {
            list.check(run, receiving: o.context)
            run.run(id, "selectionContextPath", selectionContextPath, o.selectionContext)
            let selection = run.context(o.selectionContext, after: selectionContextPath)
            for f in flags { run.run(id, f.name, f.binding, selection, flag: true) }
            if selectionPath.isEmpty {
                if !o.assumed { checkDefaultPath(run, o, on: selection) }
            } else {
                run.run(id, "selectionPath", selectionPath, selection)
                if !o.assumed, let value = run.checker.value(of: selectionPath, on: selection), !SelectionDeclaration.holdsRefs(value) {
                    run.issue(id, "selectionPath", "\"\(selectionPath)\" is \(value.described)\(SelectionDeclaration.on(selection)), not a ref or a list of refs",
                              at: ["selectionPath"])
                }
            }
        }
        if let refType {
            if let t = run.engine.schema.type(named: refType) {
                if t.field(named: "refKey")?.type != .string {
                    run.issue(id, "refType", "\(refType) has no string field \"refKey\" (a selection stores the row's id there)", at: ["refType"])
                }
            } else {
                run.issue(id, "refType", "unknown entity type \"\(refType)\"" + NameSuggestion.hint(for: refType, in: run.engine.schema.types.keys),
                          at: ["refType"])
            }
        }
    }

    /// An omitted `selectionPath` takes the pushing list's `dataPath` (or `.`): it must reach refs there.
    func checkDefaultPath(_ run: ScreenCheckRun, _ o: Opener, on selection: EntityType?) {
        let path = o.defaultSelectionPath
        let problem: String?
        if let first = run.checker.check(path, context: selection).first {
            problem = first.message
        } else if let value = run.checker.value(of: path, on: selection), !SelectionDeclaration.holdsRefs(value) {
            problem = "it is \(value.described)"
        } else {
            problem = nil
        }
        guard let problem else { return }
        let from = o.from.isEmpty ? "" : " (opened from \(o.from))"
        run.issue(id, "selectionPath", "selectionPath omitted: the default \"\(path)\"\(SelectionDeclaration.on(selection))\(from) is not a ref or a list of refs (\(problem)); set selectionPath",
                  at: [])
    }

    static func holdsRefs(_ v: CheckedValue) -> Bool {
        switch v {
        case .ref: return true
        case .collection(let refs): return refs
        default: return false
        }
    }

    static func on(_ t: EntityType?) -> String { t.map { " on \($0.name)" } ?? "" }
}

extension MenuDeclaration {
    /// A menu is a list opened on the root: its items and `hideMenu` on its context; `rowIdentifier` shows a
    /// screen with a row's entity, items and `identifier` with the root.
    public func check(_ run: ScreenCheckRun) {
        run.checkMenuItemIds(id, items)
        for o in run.openers(of: id, fallback: run.unopenedContext) {
            let (context, row) = list.check(run, receiving: o.context)
            run.run(id, "hideMenu", hideMenu, context, flag: true)
            for (i, item) in items.enumerated() {
                let site: [DeclarationKey] = ["items", .index(i + 1)]
                run.run(id, "items.title", item.title, context, at: site + ["title"])
                run.run(id, "items.tap", item.tap, context, at: site + ["tapPath"], or: [site + ["tap"]])
                for (p, target) in [("identifier", item.identifier), ("present", item.present)]
                where run.target(id, "items.\(p)", target, at: site + [.name(p)]) {
                    run.open(target, with: .plain(run.root, from: "menu \(id)"))
                }
            }
            if run.target(id, "identifier", identifier, at: ["identifier"]) {
                run.open(identifier, with: .plain(run.root, from: "menu \(id)"))
            }
            if run.target(id, "rowIdentifier", rowIdentifier, at: ["rowIdentifier"]) {
                run.open(rowIdentifier, with: .plain(row, from: "menu \(id)"))
            }
        }
    }
}
