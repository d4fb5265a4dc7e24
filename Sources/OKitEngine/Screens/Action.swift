/// An action property (`tap`, `quickTap`, `moreActionsTap` parts, `accyTap`, …): a binding evaluated as an
/// action on the row's or screen's entity, or a host function (a Lua function from the bridge).
public enum Action {
    case binding(String)
    case function((Entity?) throws -> Void)

    /// Runs the action on a context: writes are allowed, one transaction.
    func run(_ engine: Engine, on context: Entity?) throws {
        switch self {
        case .binding(let text):
            guard !text.isEmpty else { return }
            try engine.call(context, text)
        case .function(let fn):
            try engine.asAction { try engine.transaction { try fn(context) } }
        }
    }
}

/// Row actions of a list (screens.md "List": quick action, more actions, accessory).
public struct RowActions {
    public var tap: Action?
    /// The row tap in edit mode.
    public var tapEdit: Action?
    public var quickName = ""
    public var quickEnabled = ""
    public var quickTap: Action?
    public var more = ""
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
}
