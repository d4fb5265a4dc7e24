/// What the driver needs from the session that runs the app: storing, relaunching from storage, moving the
/// virtual clock, the app lifecycle of the driver's shell. Commands the host cannot do answer with a reason.
public protocol DriverHost: AnyObject {
    func store() throws
    func relaunch() throws
    func advance(seconds: Double) throws
    func background(_ shell: AppShell) throws
    func foreground(_ shell: AppShell) throws
    func authenticate(_ shell: AppShell, _ ok: Bool) throws
    /// Answers the cover with a passphrase (the shell's way; the host checks it).
    func authenticate(_ shell: AppShell, passphrase: String?) throws
    /// Before a command of the shell runs.
    func willRun(on shell: AppShell)
    /// After every command that ran (settings that act on storage, such as encryption, apply here).
    func afterCommand(_ shell: AppShell) throws
}

extension DriverHost {
    public func willRun(on shell: AppShell) {}
    public func afterCommand(_ shell: AppShell) throws {}
    public func authenticate(_ shell: AppShell, passphrase: String?) throws { try authenticate(shell, passphrase != nil) }
}

/// The driver (screens.md "Commands"): every command by name with named arguments. The JSON-lines protocol, the
/// terminal shell and the Lua `app` object are front ends for it, so all three accept the same commands and fail
/// with the same messages.
public final class Driver {
    public let shell: AppShell
    public weak var host: DriverHost?
    /// Records every command (`--record`, `app:record`); secrets are left out (`Driver+Secrets`).
    public var recorder: SessionRecorder?
    /// Gives a replay the secrets a session log left out, in order (`okit-run replay --secrets-stdin`).
    public var secretSupply: (() -> String?)?

    public init(shell: AppShell, host: DriverHost?) {
        self.shell = shell
        self.host = host
    }

    /// The commands, with their arguments in the order of the Lua signatures.
    public static let commands: [(name: String, arguments: [String])] = [
        ("screen", ["offset", "limit"]), ("open", ["id", "context"]), ("present", ["id", "context"]), ("tab", ["id"]),
        ("tap", ["row"]), ("accessory", ["row"]), ("add", ["text"]), ("delete", ["row"]), ("move", ["from", "to"]),
        ("more", ["row"]), ("quick", ["row"]), ("edit", ["on"]), ("select", ["row"]), ("set", ["cell", "value"]),
        ("search", ["text", "scope"]), ("button", ["id"]), ("titleTap", []), ("back", []), ("close", []),
        ("menu", []), ("menuItem", ["title"]), ("respond", ["action", "fields"]), ("help", []), ("background", []),
        ("foreground", []), ("authenticate", ["ok", "passphrase"]), ("advance", ["seconds"]), ("store", []), ("relaunch", []),
        ("quit", []),
    ]

    static let names = Set(commands.map(\.name))

    /// A command that could not be understood: an unknown name or a missing or mistyped argument.
    public struct UsageError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Runs a command; true when the session ends (`quit`). Fails with a reason and no change.
    @discardableResult
    public func run(_ name: String, _ args: [String: Value]) throws -> Bool {
        let args = try revealed(name, args)
        recorder?.record(name, redacted(name, args))
        defer { recorder?.settle() }
        host?.willRun(on: shell)
        let quit = try runCommand(name, args)
        try host?.afterCommand(shell)
        return quit
    }

    func runCommand(_ name: String, _ args: [String: Value]) throws -> Bool {
        func text(_ key: String) throws -> String {
            guard let v = args[key], !v.isNull else { throw UsageError(message: "\(name) needs \(key)") }
            guard let s = v.displayString else { throw UsageError(message: "\(name): \(key) must be text") }
            return s
        }
        func optionalText(_ key: String) -> String? { args[key].flatMap { $0.isNull ? nil : $0.displayString } }
        func row(_ key: String = "row") throws -> RowAddress {
            guard let v = args[key], !v.isNull else { throw UsageError(message: "\(name) needs \(key) (a position, {section, row}, an id or a row's text)") }
            guard let r = RowAddress(v) else { throw UsageError(message: "\(name): \(key) must be a position, {section, row}, an id or a row's text") }
            return r
        }
        switch name {
        case "screen": try shell.begin("screen", query: true)
        case "open": try shell.open(try text("id"), context: optionalText("context"))
        case "present": try shell.present(try text("id"), context: optionalText("context"))
        case "tab": try shell.tab(try text("id"))
        case "tap": try shell.tap(row: try row())
        case "accessory": try shell.accessory(row: try row())
        case "add": try shell.add(text: optionalText("text"))
        case "delete": try shell.delete(row: try row())
        case "move": try shell.move(from: try row("from"), to: try row("to"))
        case "more": try shell.more(row: try row())
        case "quick": try shell.quick(row: try row())
        case "edit": try shell.edit(args["on"].map { $0.isNull ? true : $0.truthy } ?? true)
        case "select": try shell.select(row: try row())
        case "set":
            guard let v = args["value"] else { throw UsageError(message: "set needs value") }
            try shell.set(cell: try row("cell"), value: v)
        case "search": try shell.search(optionalText("text") ?? "", scope: optionalText("scope"))
        case "button": try shell.button(try text("id"))
        case "titleTap": try shell.titleTap()
        case "back": try shell.back()
        case "close": try shell.close()
        case "menu": try shell.openMenu()
        case "menuItem": try shell.menuItem(try text("title"))
        case "respond":
            let fields: [String]
            switch args["fields"] {
            case .list(let l)?: fields = l.map { $0.displayString ?? "" }
            case .string(let s)?: fields = [s]
            default: fields = []
            }
            try shell.respond(try text("action"), fields: fields)
        case "help": try shell.help()
        case "background": try requireHost().background(shell)
        case "foreground": try requireHost().foreground(shell)
        case "authenticate":
            if case .string(let p)? = args["passphrase"] { try requireHost().authenticate(shell, passphrase: p) } else {
                try requireHost().authenticate(shell, args["ok"].map { $0.isNull ? true : $0.truthy } ?? true)
            }
        case "advance":
            guard let s = args["seconds"]?.doubleValue, s >= 0 else { throw UsageError(message: "advance needs seconds (a number ≥ 0)") }
            guard s.isFinite else { throw UsageError(message: "advance: seconds must be finite") }
            try requireHost().advance(seconds: s)
        case "store": try requireHost().store()
        case "relaunch": try requireHost().relaunch()
        case "quit": return true
        default:
            throw UsageError(message: "unknown command \"\(ShellError.brief(name))\" (commands: \(Driver.commands.map(\.name).joined(separator: ", ")))")
        }
        return false
    }

    func requireHost() throws -> DriverHost {
        guard let host else { throw ShellError.notYet("this command without a running app") }
        return host
    }
}
