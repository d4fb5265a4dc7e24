/// A screen kind as data (like `StorageKind`): its name (as in snapshots, `okit.<name>`), the commands its screens
/// take, each bound to the kind's own method, and what front ends draw it with. The shell dispatches a command
/// to the screen on top through its kind's `commands`; a command the kind does not list is refused with
/// "X is not a command of <kind> screens". A kind lives in its own folder (`Screens/List/ListScreen+Kind.swift`
/// for the built-in ones) and is registered in `ScreenKinds` (`ScreenKinds.builtIn`, or
/// `SessionOptions.screenKinds` for one app).
public struct ScreenKind: Sendable {
    public let name: String
    /// The commands the kind's screens take, in the order a front end lists them.
    public let commands: [ScreenCommand]
    /// What front ends draw the kind with, by front end (`"web"`, `"terminal"`): a front end takes a kind's
    /// renderer from here first, then from its own table of the built-in kinds. The engine never looks inside.
    public var renderers: [String: any Sendable]
    /// How a declaring side reads the kind's declarations, by language (`"lua"`: `okit.<name>(id, { … })`, an
    /// OKitLua `LuaScreenReader`); the built-in kinds' readers are the declaring side's own.
    public var readers: [String: any Sendable]

    public init(name: String, commands: [ScreenCommand], renderers: [String: any Sendable] = [:],
                readers: [String: any Sendable] = [:]) {
        self.name = name
        self.commands = commands
        self.renderers = renderers
        self.readers = readers
    }

    /// The command of this kind named `name`.
    public func command(named name: String) -> ScreenCommand? { commands.first { $0.description.name == name } }

    /// The renderer a front end registered for the kind (`renderers[frontEnd]`) as the type it expects.
    public func renderer<R>(_ frontEnd: String, as type: R.Type = R.self) -> R? { renderers[frontEnd] as? R }

    /// The reader a declaring side registered for the kind (`readers[language]`) as the type it expects.
    public func reader<R>(_ language: String, as type: R.Type = R.self) -> R? { readers[language] as? R }
}

/// A command of a screen kind: its description and what it does on an open screen of the kind.
public struct ScreenCommand: Sendable {
    public let description: CommandDescription
    let perform: @Sendable (any ShellScreen, CommandArguments) throws -> Void

    /// Binds a description to a method of the kind's screen type: `.on(.tap) { (s: ListScreen, a) in try s.tap(a.row()) }`.
    public static func on<Screen: ShellScreen & SendableMetatype>(_ description: CommandDescription,
                                               _ perform: @escaping @Sendable (Screen, CommandArguments) throws -> Void) -> ScreenCommand {
        ScreenCommand(description: description) { screen, arguments in
            guard let s = screen as? Screen else { throw ShellError.wrongKind(description.name, screen.kind) }
            try perform(s, arguments)
        }
    }
}

/// The screen kinds an app's shells know, in registration order (the built-in ones: `ScreenKinds.builtIn`).
/// Commands of one name are one command: a kind that takes `tap` takes it with the arguments every kind's `tap`
/// has (`CommandDescription.tap`), so front ends read one description per name.
public struct ScreenKinds: Sendable {
    public private(set) var kinds: [ScreenKind] = []
    private var byName: [String: Int] = [:]

    /// The kinds given, in order. They must agree (no command of one kind with another's name and other
    /// arguments, as the built-in kinds do: ScreenKindTests); use `register` for a kind that may not.
    public init(_ kinds: [ScreenKind] = []) {
        for k in kinds {
            do { try register(k) } catch {
                preconditionFailure("screen kind \"\(k.name)\" conflicts with a kind given before it: \(error)")
            }
        }
    }

    /// The names of the commands the driver runs itself, whatever the screen on top (the shell's navigation and
    /// help, the session's lifecycle, clock and storing: the session's `Driver.builtIn` less the screen commands
    /// like `tap` that every kind may take). A kind's command of one of these names could never reach the kind,
    /// so `register` refuses it.
    public static let reservedCommandNames: [String] = [
        "screen", "open", "present", "tab", "edit", "back", "close", "menu", "menuItem", "respond", "help",
        "background", "foreground", "authenticate", "advance", "store", "relaunch", "quit",
    ]

    /// Adds a kind, or replaces the one of its name. Refused when one of its commands has another kind's
    /// name with other arguments, or a name the driver keeps for its own command (`reservedCommandNames`).
    public mutating func register(_ kind: ScreenKind) throws {
        for c in kind.commands {
            if Self.reservedCommandNames.contains(c.description.name) {
                throw ScreenKindError.reservedCommand(c.description.name, kind: kind.name)
            }
            if let other = command(named: c.description.name, except: kind.name), other != c.description {
                throw ScreenKindError.conflictingCommand(c.description.name, kind: kind.name)
            }
        }
        if let i = byName[kind.name] { kinds[i] = kind } else {
            byName[kind.name] = kinds.count
            kinds.append(kind)
        }
    }

    /// The kind named `name`.
    public subscript(_ name: String) -> ScreenKind? { byName[name].map { kinds[$0] } }

    /// The names of the registered kinds, in order.
    public var names: [String] { kinds.map(\.name) }

    /// Every command description of the kinds, one per name, in the order the kinds list them.
    public var commands: [CommandDescription] {
        var seen: Set<String> = []
        var out: [CommandDescription] = []
        for k in kinds {
            for c in k.commands where seen.insert(c.description.name).inserted { out.append(c.description) }
        }
        return out
    }

    func command(named name: String, except kind: String) -> CommandDescription? {
        for k in kinds where k.name != kind {
            if let c = k.command(named: name) { return c.description }
        }
        return nil
    }
}

/// A kind that cannot be registered.
public enum ScreenKindError: Error, CustomStringConvertible {
    case conflictingCommand(String, kind: String)
    /// A command named as one the driver runs itself (`ScreenKinds.reservedCommandNames`).
    case reservedCommand(String, kind: String)

    public var description: String {
        switch self {
        case .reservedCommand(let name, let kind):
            return "screen kind \(kind): its command \(name) has the name of a command the driver runs itself, so it could "
                + "never run; rename it (the names kept: \(ScreenKinds.reservedCommandNames.joined(separator: ", ")))"
        case .conflictingCommand(let name, let kind):
            return "screen kind \(kind): its command \(name) has other arguments than another kind's \(name)"
        }
    }
}
