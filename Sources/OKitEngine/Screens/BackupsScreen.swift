/// The backups screen (`okit.backups`, storage.md "Backups"). This declares it and opens it with its title;
/// listing, creating, restoring and deleting backups come with the storage issue, and until then its commands
/// answer that backups are not available yet.
public struct BackupsDeclaration: ScreenDeclaration {
    public var id: String
    public var type: String? { nil }
    public var kind: String { "backups" }
    /// `secure`: backups are encrypted with a password (a binding, default `#false`).
    public var secure = ""
    public var titlePath = "%Backups"
    public var help: String?

    public init(id: String) { self.id = id }

    public func open(in shell: AppShell, context: Entity?, opener: (any ShellScreen)?) throws -> any ShellScreen {
        BackupsScreen(declaration: self, engine: shell.engine, context: context)
    }

    public func check(_ run: ScreenCheckRun) {
        run.run(id, "secure", secure, run.root)
        run.run(id, "titlePath", titlePath, run.root)
    }
}

/// An open backups screen.
public final class BackupsScreen: ShellScreen {
    public let declaration: BackupsDeclaration
    let engine: Engine
    public let context: Entity?

    init(declaration: BackupsDeclaration, engine: Engine, context: Entity?) {
        self.declaration = declaration
        self.engine = engine
        self.context = context
    }

    public var id: String { declaration.id }
    public var editing: Bool { false }

    public func setEditing(_ on: Bool) throws { throw ShellError.notAllowed("edit", id) }

    public func snapshot(offset: Int, limit: Int) throws -> ScreenSnapshot {
        var snap = ScreenSnapshot(id: id, kind: "backups", context: context?.debugName)
        snap.title = try engine.text(context, declaration.titlePath)
        return snap
    }

    public func tap(_ row: RowAddress) throws { throw ShellError.notYet("restoring backups") }
}
