/// The screen an action or hook runs for (lua-api.md "Screens": hooks get the screen).
public struct ScreenInfo {
    public let id: String
    /// `list`, `detail`, `selection`, `menu`, `settings`.
    public let kind: String
    public let context: Entity?

    public init(id: String, kind: String, context: Entity?) {
        self.id = id
        self.kind = kind
        self.context = context
    }
}

/// An action property (`tap`, `quickTap`, `moreActionsTap` parts, `accyTap`, …) or a controller hook: a binding
/// evaluated as an action on the row's or screen's entity, or a host function (a Lua function from the bridge)
/// that also gets the screen it runs for.
public enum Action {
    case binding(String)
    case function((Entity?, ScreenInfo?) throws -> Void)

    /// Runs the action on a context: writes are allowed, one transaction.
    func run(_ engine: Engine, on context: Entity?, screen: ScreenInfo? = nil) throws {
        switch self {
        case .binding(let text):
            guard !text.isEmpty else { return }
            try engine.call(context, text)
        case .function(let fn):
            try engine.asAction { try engine.transaction { try fn(context, screen) } }
        }
    }

    /// Runs a screen's hook (`onAdd`, `onDelete`, `onSelect`, `onEdit`): its error names the hook and the screen
    /// (`onAdd hook of screen books failed: app.lua:9: boom`), as the navigation hooks' do.
    func runHook(_ name: String, _ engine: Engine, on context: Entity?, screen: ScreenInfo) throws {
        do { try run(engine, on: context, screen: screen) } catch {
            throw EngineError.hook(name: name, entity: "screen \(screen.id)", error: error)
        }
    }
}

/// Row actions of a list (screens.md "List": quick action, more actions, accessory).
public struct RowActions {
    public var tap: Action?
    /// The row tap in edit mode.
    public var tapEdit: Action?
    public var quickName = ""
    /// `quickImage`: an image alone shows the quick action too (OKit's leading swipe shows with a name or an image).
    public var quickImage = ""
    public var quickEnabled = "#true"
    public var quickTap: Action?
    public var more = "#false"
    /// `moreEnabled` (default `#true`), per row: the row offers "More..." (with `more` on the screen).
    public var moreEnabled = "#true"
    public var moreActions = ""
    public var moreActionsEnabled = ""
    /// Parts aligned with `moreActions` (bindings), or one function per part.
    public var moreActionsTap: [Action] = []
    /// `moreTap` replaces the action sheet.
    public var moreTap: Action?
    public var accyText = ""
    public var accyIcon = ""
    public var accyShow = ""
    public var accyEnabled = ""
    public var accyTap: Action?
    /// The accessory in edit mode (`accyEdit*`; unset parts fall back to the display ones).
    public var accyEditText = ""
    public var accyEditIcon = ""
    public var accyEditShow = ""
    public var accyEditEnabled = ""
    public var accyEditTap: Action?

    public init() {}

    /// The binding-text properties by name (for the declaration readers and the check).
    public static var textKeys: [String: WritableKeyPath<RowActions, String>] { [
        "quickName": \.quickName, "quickImage": \.quickImage, "quickEnabled": \.quickEnabled, "more": \.more,
        "moreEnabled": \.moreEnabled, "moreActions": \.moreActions, "moreActionsEnabled": \.moreActionsEnabled,
        "accyText": \.accyText, "accyIcon": \.accyIcon, "accyShow": \.accyShow, "accyEnabled": \.accyEnabled,
        "accyEditText": \.accyEditText, "accyEditIcon": \.accyEditIcon, "accyEditShow": \.accyEditShow,
        "accyEditEnabled": \.accyEditEnabled,
    ] }

    /// Sets a binding-text property by name (unknown names are ignored).
    public mutating func setText(_ key: String, _ text: String) {
        if let path = RowActions.textKeys[key] { self[keyPath: path] = text }
    }
}
