import CLineEdit
import Foundation
import OKitEngine
import OKitLua

/// The terminal shell: draws the current snapshot as text, reads a command line (libedit: editing, history),
/// applies it, redraws. Errors are one line and the session goes on; `quit` or end of input stores the state.
/// Warnings the command produced follow the redraw as `warning: …` lines; `warnings` lists them all.
final class TerminalShell {
    let session: AppSession
    let color: Bool
    let warnings: WarningFeed
    /// The store at `quit`, before the shell ends (`QuitStore`).
    let quitStore: QuitStore
    /// The ANSI colour of buttons and accents: the theme's `tintColor` (24-bit), else blue.
    var tintCode = "\u{1B}[34m"
    /// How each screen kind's content is drawn: the built-in kinds', then those of the app's own kinds.
    let kinds: TerminalKinds
    /// The screen as last drawn: a timer that changes it while the shell waits draws it again.
    var lastDrawn = ""

    /// The warnings printed while the app loaded count as shown.
    init(session: AppSession, color: Bool, warnings: WarningFeed? = nil, quitStore: QuitStore? = nil) {
        self.session = session
        self.color = color
        self.quitStore = quitStore ?? QuitStore { [session] in _ = try session.storeAtExit() }
        self.warnings = warnings ?? WarningFeed(engine: session.engine, alreadyShown: session.engine.warnings.count)
        kinds = TerminalKinds(session.shell.kinds)
    }

    /// The commands the shell answers itself (the others go to the driver).
    static let shellCommands = ["commands", "warnings"]

    /// Whether the shell draws with colours and other escape codes: not with `--no-color`, nor when `NO_COLOR` is
    /// set to anything but the empty text, nor on a terminal that is `TERM=dumb`, nor when stdout is not a terminal
    /// (a file or a pipe gets plain text).
    static func usesColor(noColor: Bool, environment: [String: String], outputIsTerminal: Bool) -> Bool {
        !noColor && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb" && outputIsTerminal
    }

    func bold(_ s: String) -> String { color ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    func tint(_ s: String) -> String { color ? "\(tintCode)\(s)\u{1B}[0m" : s }

    /// Takes the tint from the snapshot's theme (`#RRGGBB`).
    func useTheme(_ app: AppSnapshot) {
        guard let hex = app.themeValues.first(where: { $0.key == "tintColor" })?.value, hex.count == 7, hex.hasPrefix("#"),
              let rgb = Int(hex.dropFirst(), radix: 16) else { tintCode = "\u{1B}[34m"; return }
        tintCode = "\u{1B}[38;2;\((rgb >> 16) & 0xFF);\((rgb >> 8) & 0xFF);\(rgb & 0xFF)m"
    }
    /// One of okit's words in the app's language.
    func word(_ w: BuiltInWord, _ arguments: String...) -> String {
        session.engine.word(w, arguments: arguments)
    }

    func dim(_ s: String) -> String { color ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
    func red(_ s: String) -> String { color ? "\u{1B}[31m\(s)\u{1B}[0m" : s }
    func yellow(_ s: String) -> String { color ? "\u{1B}[33m\(s)\u{1B}[0m" : s }

    /// Reads and runs command lines until `quit` (stored), `quit!`, the end of input or a stop signal.
    func run() -> SessionEnd {
        attachLineEditor()
        draw()
        showNewWarnings()
        var end = SessionEnd.ended
        while StopSignals.received == nil, let raw = okit_readline("> ") {
            let line = String(cString: raw)
            free(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { draw(); showNewWarnings(); continue }
            if trimmed == QuitStore.force { end = .quitWithoutStoring; break }
            guard trimmed.utf8.count <= LineReader.maxLineBytes else { print(red(LineReader.tooLongMessage(trimmed.utf8.count))); continue }
            let parsed: [String: Any]?
            do {
                parsed = try CommandSyntax.parse(trimmed, commands: session.driver.descriptions)
            } catch {
                // A text pasted with a line break inside quotes: its first line is refused, and the lines pasted
                // after it are not run as commands either.
                let pasted = okit_input_waiting(1) != 0
                print(red("\(error)" + (pasted ? " — the lines pasted after it were not run either" : "")))
                okit_add_history(trimmed)
                continue
            }
            guard var cmd = parsed, let name = cmd["cmd"] as? String else { continue }
            // A line that types a secure field's value (a password) is refused, and kept out of the history.
            if let refusal = secretsTypedOnLine(name, cmd) { print(red(refusal)); continue }
            okit_add_history(trimmed)
            if name == "respond", !askSecureFields(&cmd) { continue }
            let quit = runCommand(name, cmd)
            showNewWarnings()
            if quit { end = .quit; break }
        }
        // A stop signal ended the line being typed: what okit-run says next starts on a line of its own.
        if StopSignals.received != nil { print("") }
        // What storing at quit logged.
        warnings.printUnshown()
        return end
    }

    /// Runs one command and redraws (an error is one red line); true when the session ends.
    func runCommand(_ name: String, _ cmd: [String: Any]) -> Bool {
        switch name {
        case "commands":
            print(help)
            return false
        case "warnings":
            let all = warnings.all
            print(all.isEmpty ? dim("no warnings") : all.map { yellow("warning: \($0)") }.joined(separator: "\n"))
            _ = warnings.fresh()
            return false
        case "authenticate" where cmd["ok"] as? Bool != false:
            // The shell's answer to the cover: the app's authenticate function, or the passphrase, asked with
            // echo off.
            let passphrase = session.authenticatesByPassphrase ? SecretInput.ask("Passphrase: ") : nil
            // A recorded flow test answers the cover as a test does: app:authenticate(true).
            let driver = session.driver
            let step = driver.flowRecorder?.willRun("authenticate", ["ok": .bool(true)],
                                                    description: driver.table["authenticate"]?.description, shell: session.shell)
            do {
                try session.authenticate(session.shell, passphrase: passphrase)
                if let step { driver.flowRecorder?.didRun(step, shell: session.shell) }
                draw()
            } catch {
                if let step { driver.flowRecorder?.didFail(step, error) }
                print(red(CommandLineAdvice.message(for: error, in: session.shell.engine)))
            }
            return false
        default:
            do {
                if try DriverCommands.run(session.driver, name, cmd, alsoKnown: TerminalShell.shellCommands) {
                    // `quit` ends the shell once the state is stored; when that fails the shell stays.
                    guard let refusal = quitStore.attempt() else { return true }
                    print(red(refusal))
                    return false
                }
                draw()
            } catch let e as DriverCommands.Unread {
                session.driver.flowRecorder?.recordUnread(e.message)
                print(red(CommandLineAdvice.message(for: e, in: session.shell.engine)))
            } catch {
                print(red(CommandLineAdvice.message(for: error, in: session.shell.engine)))
            }
            return false
        }
    }

    /// The warnings logged since the last command, one dim yellow line each.
    func showNewWarnings() {
        for w in warnings.fresh() { print(yellow("warning: \(w)")) }
    }

    /// The commands by group, the groups' names and the notes in the app's language (the commands as typed); a
    /// screen kind's own commands (a kind registered for the app) follow on a line of their own per kind.
    var help: String {
        let builtIn = Set(Driver.builtIn.map(\.description.name))
        let own = session.shell.kinds.kinds.compactMap { kind -> (String, [String])? in
            let usages = kind.commands.map(\.description).filter { !builtIn.contains($0.name) }.map(\.usage)
            guard !usages.isEmpty else { return nil }
            return (kind.name.prefix(1).uppercased() + kind.name.dropFirst() + ":", [usages.joined(separator: " · ")])
        }
        let groups = builtInHelp + own
        // The commands start in one column, after the longest group's name (at least 12 wide, as in English).
        let width = max(12, (groups.map { $0.0.count }.max() ?? 0) + 1)
        let lines = groups.flatMap { name, commands in
            commands.enumerated().map { i, line in (i == 0 ? name : "").padding(toLength: width, withPad: " ", startingAt: 0) + line }
        }
        return (lines + [word(.helpRowIs)]).joined(separator: "\n")
    }

    /// The built-in commands by group: the group's name and its lines of commands.
    var builtInHelp: [(String, [String])] {
        [
            (word(.helpRows), ["tap ROW · select ROW · accessory ROW · quick ROW · more ROW · delete ROW · move FROM TO"]),
            (word(.helpScreen), ["add [TEXT] · search TEXT [@SCOPE] · edit on|off · set CELL VALUE · button ID · titleTap · help"]),
            (word(.helpNavigation), ["open ID [CONTEXT] · present ID [CONTEXT] · back · close · tab ID · menu · menuItem TITLE"]),
            (word(.helpAlerts), ["respond ACTION [FIELD…]"]),
            (word(.helpApp), ["screen [OFFSET LIMIT] · advance SECONDS · background · foreground · authenticate [fail]",
                              "store · relaunch · warnings · quit · quit! \(word(.helpWithoutStoring))"]),
        ]
    }

    func draw() {
        guard let snap = try? session.shell.snapshot() else { print(red("(no screen)")); return }
        useTheme(snap.app)
        lastDrawn = render(snap)
        print(lastDrawn)
    }
}
