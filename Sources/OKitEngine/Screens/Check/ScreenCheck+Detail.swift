extension DetailDeclaration {
    public func check(_ run: ScreenCheckRun) {
        let declared = type.flatMap { run.engine.schema.type(named: $0) }
        if let type, declared == nil { run.issue(id, "type", "unknown entity type \"\(type)\"") }
        // A settings screen nothing opens with a row is presented from the menu or a button: the root's context.
        let base = declared ?? run.openedWith[id] ?? (kind == "settings" ? run.root : nil)
        let context = contextPath.isEmpty ? base : run.entityType(after: contextPath, from: base)
        run.run(id, "contextPath", contextPath, base)
        run.run(id, "titlePath", titlePath, context)
        run.run(id, "subTitlePath", subTitlePath, context)
        run.run(id, "titleTap", titleTap, context)
        for (p, t) in [("promptPath", promptPath), ("edit", edit), ("editAlways", editAlways), ("editInherit", editInherit),
                       ("sectionHeaders", sectionHeaders), ("sectionFooters", sectionFooters),
                       ("sectionsShowDisplay", sectionsShowDisplay), ("sectionsShowEdit", sectionsShowEdit)] {
            run.run(id, p, t, context)
        }
        for s in sections {
            run.run(id, "header", s.header, context)
            run.run(id, "footer", s.footer, context)
            run.run(id, "showDisplay", s.showDisplay, context)
            run.run(id, "showEdit", s.showEdit, context)
            for c in s.cells {
                let cellContext = c["contextPath"].isEmpty ? context : run.entityType(after: c["contextPath"], from: context)
                run.run(id, "cell \(c.defaultId).contextPath", c["contextPath"], context)
                // A picker's option names are read on its options (the elements of `dataPath`).
                let options = c.kind == "picker" ? run.entityType(after: c["dataPath"], from: cellContext) : nil
                for (p, t) in c.properties.sorted(by: { $0.key < $1.key }) where !CellDeclaration.literalProperties.contains(p) {
                    run.run(id, "cell \(c.defaultId).\(p)", t, p == "namePath" && c.kind == "picker" ? options : cellContext)
                }
                for (p, action) in c.actions.sorted(by: { $0.key < $1.key }) {
                    run.run(id, "cell \(c.defaultId).\(p)", action, cellContext)
                }
                if let target = c.properties["segue"] ?? c.properties["present"], let cellContext { run.openedWith[target] = run.openedWith[target] ?? cellContext }
            }
        }
    }
}
