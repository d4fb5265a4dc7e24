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
    /// Writes every command as a line of a flow test (`--record NAME_test.lua`), named by what the screen showed.
    public var flowRecorder: FlowTestRecorder?
    /// Gives a replay the secrets a session log left out, in order (`okit-run replay --secrets-stdin`).
    public var secretSupply: (() -> String?)?

    public init(shell: AppShell, host: DriverHost?) {
        self.shell = shell
        self.host = host
    }

    /// A command that could not be understood: an unknown name or a missing or mistyped argument.
    public typealias UsageError = CommandUsageError

    /// The built-in commands, with their arguments in the order of the Lua signatures (`Driver.builtIn`).
    public static let commands: [(name: String, arguments: [String])] = builtIn.map { ($0.description.name, $0.description.argumentNames) }

    /// This driver's commands: the built-in ones, then the commands of its shell's kinds that are none of them
    /// (a kind of one's own), by name.
    public private(set) lazy var table = CommandTable(kinds: shell.kinds)

    /// The descriptions of this driver's commands, in order (what front ends list and read arguments by).
    public var descriptions: [CommandDescription] { table.descriptions }

    /// Runs a command; true when the session ends (`quit`). Fails with a reason and no change.
    @discardableResult
    public func run(_ name: String, _ args: [String: Value]) throws -> Bool {
        let args = try revealed(name, args)
        let shown = redacted(name, args)
        recorder?.record(name, shown)
        defer { recorder?.settle() }
        let step = flowRecorder?.willRun(name, shown, description: table[name]?.description, shell: shell)
        host?.willRun(on: shell)
        do {
            // Another session (or the clock) removed the entity a screen shows: the person is taken back before
            // the command runs, and the command is not applied to a screen they did not see.
            if try shell.leaveRemovedEntities(), !Driver.queries.contains(name) { throw ShellError.screenClosed }
            let quit = try runCommand(name, args)
            // A command that removed the entity a screen shows (its own delete button) leaves that screen.
            do { try shell.leaveRemovedEntities() } catch { shell.engine.warn("\(error)") }
            try host?.afterCommand(shell)
            if let step { flowRecorder?.didRun(step, shell: shell) }
            return quit
        } catch {
            if let step { flowRecorder?.didFail(step, error) }
            throw error
        }
    }

    /// Commands that do not act on the screen shown: they run after the person was taken back from a screen of a
    /// removed entity (`AppShell.leaveRemovedEntities`); any other is refused then.
    static let queries: Set<String> = ["screen", "help", "store", "quit", "background", "foreground", "authenticate",
                                       "advance", "relaunch", "changes"]

    func runCommand(_ name: String, _ args: [String: Value]) throws -> Bool {
        guard let command = table[name] else {
            throw UsageError(message: "unknown command \"\(ShellError.brief(name))\" (commands: \(table.names.joined(separator: ", ")))")
        }
        return try command.run(self, CommandArguments(name, args))
    }

    func requireHost() throws -> DriverHost {
        guard let host else { throw ShellError.notYet("this command without a running app") }
        return host
    }
}
