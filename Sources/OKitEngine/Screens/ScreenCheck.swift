/// `okit-run check`: every binding of every declared screen checked against the schema, with the screen's context
/// type inferred from `type`, `contextPath`, `dataPath` and segues.
public struct ScreenIssue: Equatable, Sendable {
    public let screen: String
    public let property: String
    public let column: Int
    public let message: String
}

extension AppShell {
    /// The problems of every screen's bindings, in declaration order of screens and properties.
    public func check() -> [ScreenIssue] {
        let checker = BindingChecker(engine: engine)
        let root = engine.defaultModel?.rootType
        var issues: [ScreenIssue] = []
        var rowTypes: [String: EntityType] = [:]
        func run(_ screen: String, _ property: String, _ text: String, _ context: EntityType?) {
            guard !text.isEmpty else { return }
            for i in checker.check(text, context: context) {
                issues.append(ScreenIssue(screen: screen, property: property, column: i.column, message: i.message))
            }
        }
        for id in screenIds {
            guard let d = listDeclaration(id) else { continue }
            let context = d.contextPath.isEmpty ? root : checker.entityType(after: d.contextPath, from: root)
            run(id, "contextPath", d.contextPath, root)
            run(id, "dataPath", d.dataPath, context)
            for (p, t) in [("titlePath", d.titlePath), ("subTitlePath", d.subTitlePath), ("titleCount", d.titleCount),
                           ("subTitleObject", d.subTitleObject), ("search", d.search), ("index", d.index),
                           ("add", d.add), ("delete", d.delete)] { run(id, p, t, context) }
            let row = d.type.flatMap { engine.schema.type(named: $0) } ?? checker.entityType(after: d.dataPath, from: context)
            if let t = d.type, engine.schema.type(named: t) == nil {
                issues.append(ScreenIssue(screen: id, property: "type", column: 1, message: "unknown entity type \"\(t)\""))
            }
            if let row, let segue = d.segue { rowTypes[segue] = row }
            let a = d.actions
            for (p, t) in [("rowSort", d.rowSort), ("group", d.group), ("groupName", d.groupName), ("searchPath", d.searchPath),
                           ("cell.path", d.cellPath), ("cell.detailPath", d.cellDetailPath), ("quickName", a.quickName),
                           ("quickEnabled", a.quickEnabled), ("more", a.more), ("moreActions", a.moreActions),
                           ("moreActionsEnabled", a.moreActionsEnabled), ("accyText", a.accyText), ("accyShow", a.accyShow),
                           ("accyEnabled", a.accyEnabled)] { run(id, p, t, row) }
            for (p, action) in [("tap", a.tap), ("quickTap", a.quickTap), ("accyTap", a.accyTap)] {
                if case .binding(let t)? = action { run(id, p, t, row) }
            }
            for action in a.moreActionsTap { if case .binding(let t) = action { run(id, "moreActionsTap", t, row) } }
            if let addName = d.addName, let row, row.field(named: addName) == nil {
                issues.append(ScreenIssue(screen: id, property: "addName", column: 1, message: "\(row.name) has no field \"\(addName)\""))
            }
        }
        for id in screenIds {
            guard let d = detailDeclaration(id) else { continue }
            let declared = d.type.flatMap { engine.schema.type(named: $0) }
            let base = declared ?? rowTypes[id]
            let context = d.contextPath.isEmpty ? base : checker.entityType(after: d.contextPath, from: base)
            run(id, "titlePath", d.titlePath, context)
            run(id, "subTitlePath", d.subTitlePath, context)
            for s in d.sections {
                run(id, "header", s.header, context)
                for c in s.cells {
                    let cellContext = c["contextPath"].isEmpty ? context : checker.entityType(after: c["contextPath"], from: context)
                    for (p, t) in c.properties.sorted(by: { $0.key < $1.key }) where p != "segue" && p != "present" && p != "contextPath" {
                        run(id, "cell \(c.defaultId).\(p)", t, cellContext)
                    }
                }
            }
        }
        return issues
    }
}
