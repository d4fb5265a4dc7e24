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
