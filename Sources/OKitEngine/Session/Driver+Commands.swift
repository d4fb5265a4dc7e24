/// A command of the driver: its description and what it does; true when the session ends (`quit`).
public struct DriverCommand: Sendable {
    public let description: CommandDescription
    /// Whether the screen on top runs it (through its kind), rather than the driver itself.
    public let isScreenCommand: Bool
    let run: @Sendable (Driver, CommandArguments) throws -> Bool

    init(_ description: CommandDescription, screen: Bool = false, _ run: @escaping @Sendable (Driver, CommandArguments) throws -> Bool) {
        self.description = description
        self.isScreenCommand = screen
        self.run = run
    }

    /// A command of the shell or the session, run by the driver itself.
    static func own(_ name: String, _ arguments: [CommandArgument] = [], usage: String? = nil,
                    _ run: @escaping @Sendable (Driver, CommandArguments) throws -> Void) -> DriverCommand {
        DriverCommand(CommandDescription(name, arguments, usage: usage)) { d, a in try run(d, a); return false }
    }

    /// A command of the screen on top: its arguments are checked, then the screen's kind runs it (`AppShell.perform`).
    static func screen(_ description: CommandDescription) -> DriverCommand {
        DriverCommand(description, screen: true) { d, a in
            try a.check(description)
            try d.shell.perform(description.name, a)
            return false
        }
    }
}

/// The commands a driver takes, by name: `Driver.builtIn`, then the commands of the shell's kinds that are none
/// of them, in the order the kinds list them.
public struct CommandTable: Sendable {
    public let commands: [DriverCommand]
    private let byName: [String: Int]
    /// `kind: command` for each command of a kind that has the name of one of the driver's own (`open`, `back`,
    /// …) and so never reaches the kind (the session warns about them).
    public let shadowed: [String]

    public init(kinds: ScreenKinds) {
        var commands = Driver.builtIn
        let builtIn = Set(commands.map(\.description.name))
        for c in kinds.commands where !builtIn.contains(c.name) { commands.append(.screen(c)) }
        self.commands = commands
        let byName = Dictionary(commands.enumerated().map { ($1.description.name, $0) }, uniquingKeysWith: { a, _ in a })
        self.byName = byName
        shadowed = kinds.kinds.flatMap { kind in
            kind.commands.map(\.description.name).filter { byName[$0].map { !commands[$0].isScreenCommand } ?? false }
                .map { "\(kind.name): \($0)" }
        }
    }

    public subscript(_ name: String) -> DriverCommand? { byName[name].map { commands[$0] } }
    public var names: [String] { commands.map(\.description.name) }
    public var descriptions: [CommandDescription] { commands.map(\.description) }
}

extension Driver {
    /// The commands every app takes, in the order of screens.md: the shell's (navigation, alerts, help), the
    /// session's (lifecycle, clock, storing) and, in their places, the screen commands every kind names the same
    /// way (`CommandDescription.tap`, …), which the kind of the screen on top runs.
    public static let builtIn: [DriverCommand] = [
        .own("screen", [CommandArgument("offset", .number), CommandArgument("limit", .number)], usage: "screen [OFFSET LIMIT]") { d, a in
            // The window the front end shows: whole numbers ≥ 0, never a word dropped (`screen a b`).
            for key in ["offset", "limit"] {
                guard let v = a[key] else { continue }
                guard case .int(let n) = v, n >= 0 else {
                    throw UsageError(message: "screen: \(key) must be a whole number ≥ 0 (not \(ShellError.brief(v.displayString ?? "null")))")
                }
            }
            try d.shell.begin("screen", query: true)
        },
        .own("open", [.text("id"), .optionalText("context")]) { d, a in try d.shell.open(try a.text("id"), context: a.optionalText("context")) },
        .own("present", [.text("id"), .optionalText("context")]) { d, a in
            try d.shell.present(try a.text("id"), context: a.optionalText("context"))
        },
        .own("tab", [.text("id")]) { d, a in try d.shell.tab(try a.text("id")) },
        .screen(.tap), .screen(.accessory), .screen(.add), .screen(.delete), .screen(.move), .screen(.more), .screen(.quick),
        .own("edit", [CommandArgument("on", .flag)], usage: "edit on|off") { d, a in try d.shell.edit(d.flag(a, "on")) },
        .screen(.select), .screen(.set), .screen(.search), .screen(.button), .screen(.titleTap),
        .own("back") { d, _ in try d.shell.back() },
        .own("close") { d, _ in try d.shell.close() },
        .own("menu") { d, _ in try d.shell.openMenu() },
        .own("menuItem", [.text("title")]) { d, a in try d.shell.menuItem(try a.text("title")) },
        .own("respond", [.text("action"), CommandArgument("fields", .texts)]) { d, a in
            let fields = try a.texts("fields")
            try d.shell.respond(try a.text("action"), fields: fields)
        },
        .own("help") { d, _ in try d.shell.help() },
        .own("background") { d, _ in try d.requireHost().background(d.shell) },
        .own("foreground") { d, _ in try d.requireHost().foreground(d.shell) },
        .own("authenticate", [CommandArgument("ok", .flag), .optionalText("passphrase")], usage: "authenticate [fail]") { d, a in
            // The passphrase, or the driving program's answer (`ok`) in place of the device's own check; the app's
            // `authenticate` function decides either way when it declares one. Neither is refused: nothing is
            // taken as a success.
            if let p = a["passphrase"], !p.isNull {
                guard case .string(let text) = p else { throw UsageError(message: "authenticate: passphrase must be text") }
                guard a["ok"]?.isNull ?? true else { throw UsageError(message: "authenticate takes ok or passphrase, not both") }
                try d.requireHost().authenticate(d.shell, passphrase: text)
            } else {
                guard let ok = a["ok"], !ok.isNull else {
                    throw UsageError(message: "authenticate needs ok (true or false) or passphrase")
                }
                try d.requireHost().authenticate(d.shell, try d.flag(a, "ok"))
            }
        },
        .own("advance", [CommandArgument("seconds", .number)]) { d, a in
            // A number only: text (`"60"`) is refused as a negative number is, not read.
            let seconds: Double?
            switch a["seconds"] { case .int(let n)?: seconds = Double(n); case .double(let d)?: seconds = d; default: seconds = nil }
            guard let s = seconds, s >= 0 else { throw UsageError(message: "advance needs seconds (a number ≥ 0)") }
            guard s.isFinite else { throw UsageError(message: "advance: seconds must be finite") }
            try d.requireHost().advance(seconds: s)
        },
        .own("store") { d, _ in try d.requireHost().store() },
        .own("relaunch") { d, _ in try d.requireHost().relaunch() },
        DriverCommand(CommandDescription("quit")) { _, _ in true },
    ]
}

extension Driver {
    /// A switch argument read with the app's own Yes and No too (`ja`/`nein` in `de`), as a switch cell reads them.
    func flag(_ a: CommandArguments, _ key: String) throws -> Bool {
        let language = shell.engine.locale.language
        return try a.flag(key, yes: LanguageCase.lower(shell.engine.word(.yes), language: language),
                          no: LanguageCase.lower(shell.engine.word(.no), language: language))
    }
}
