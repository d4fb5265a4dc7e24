/// `okit-run check`: every binding of every declared screen checked against the schema, with the screen's context
/// type inferred from `type`, `contextPath`, `dataPath` and segues.
public struct ScreenIssue: Equatable, Sendable {
    public let screen: String
    public let property: String
    public let column: Int
    public let message: String
}

/// One check of all screens: collects issues, and the row types segues carry to the screens they open.
public final class ScreenCheckRun {
    public let engine: Engine
    let checker: BindingChecker
    /// The default model's root type (the context of home screens).
    public let root: EntityType?
    public private(set) var issues: [ScreenIssue] = []
    /// The context type a screen receives from the rows or cells that open it.
    public var openedWith: [String: EntityType] = [:]

    init(engine: Engine) {
        self.engine = engine
        checker = BindingChecker(engine: engine)
        root = engine.defaultModel?.rootType
    }

    /// Checks one binding on a context type.
    public func run(_ screen: String, _ property: String, _ text: String, _ context: EntityType?) {
        guard !text.isEmpty else { return }
        for i in checker.check(text, context: context) {
            issues.append(ScreenIssue(screen: screen, property: property, column: i.column, message: i.message))
        }
    }

    /// Checks an action property when it is a binding.
    public func run(_ screen: String, _ property: String, _ action: Action?, _ context: EntityType?) {
        if case .binding(let t)? = action { run(screen, property, t, context) }
    }

    func clearIssues() { issues = [] }

    /// Records a problem that is not a binding's (an unknown type, a field name).
    public func issue(_ screen: String, _ property: String, _ message: String) {
        issues.append(ScreenIssue(screen: screen, property: property, column: 1, message: message))
    }

    /// The entity type a binding reaches from a context type, if it reaches one.
    public func entityType(after binding: String, from context: EntityType?) -> EntityType? {
        checker.entityType(after: binding, from: context)
    }

    /// A declared type by name, recording an issue when it does not exist.
    public func type(_ name: String?, screen: String) -> EntityType? {
        guard let name else { return nil }
        guard let t = engine.schema.type(named: name) else {
            issue(screen, "type", "unknown entity type \"\(name)\"")
            return nil
        }
        return t
    }

    /// The context type of a screen: its declared type, else what opens it, else (home screens) the root.
    public func contextType(of d: any ScreenDeclaration, contextPath: String) -> EntityType? {
        let base = d.type.flatMap { engine.schema.type(named: $0) } ?? openedWith[d.id] ?? root
        return contextPath.isEmpty ? base : entityType(after: contextPath, from: base)
    }
}

extension AppShell {
    /// The problems of every screen's bindings. Screens that open others by rows (lists, selections, menus) are
    /// checked first so that the screens they open know their context type; selections last (detail cells open them).
    ///
    /// A screen can be declared before the screen that opens it (a list opened from a detail cell, a menu's
    /// content), so the passes repeat until the context types screens receive stop changing (at most 4), and only
    /// the last pass's issues count.
    public func check() -> [ScreenIssue] {
        let run = ScreenCheckRun(engine: engine)
        let all = declarationOrder.compactMap { declaration($0) }
        let rowScreens: Set<String> = ["list", "menu"]
        for _ in 0..<4 {
            let before = run.openedWith.mapValues(ObjectIdentifier.init)
            run.clearIssues()
            for d in all where rowScreens.contains(d.kind) { d.check(run) }
            for d in all where !rowScreens.contains(d.kind) && d.kind != "selection" { d.check(run) }
            for d in all where d.kind == "selection" { d.check(run) }
            if run.openedWith.mapValues(ObjectIdentifier.init) == before { break }
        }
        // okit.app's settings bindings, on the default model's root after the app's contextPath.
        let settings = settingsContextPath.isEmpty ? run.root : run.entityType(after: settingsContextPath, from: run.root)
        run.run(AppShell.appCheckName, "contextPath", settingsContextPath, run.root)
        for key in AppShell.settingsKeys {
            if let b = settingsBindings[key] { run.run(AppShell.appCheckName, key, b, settings) }
        }
        return run.issues
    }

    /// The name the check gives `okit.app`'s properties ("screen okit.app, property themeName: …").
    public static let appCheckName = "okit.app"

    /// The settings bindings `okit.app` takes.
    public static let settingsKeys = ["themeName", "encryption", "protection", "protectionTimeout", "protectionCover",
                                      "protectionText", "protectionImage"]
}

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
