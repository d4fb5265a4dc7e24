import CLineEdit
import Foundation
import OKitEngine
import OKitLua

/// While the shell waits for a key, timers of the system clock (autosave, `okit.after`, `okit.every`) fire when
/// they fall due, as they do under the JSON-lines driver; what they print (an error, a warning, the screen when
/// they changed it) comes above the prompt, which is drawn again with what was typed so far. A stop signal ends
/// the wait: the line ends as at the end of input, and the caller stores the state.
extension TerminalShell {
    /// The shell whose line editor is waiting (libedit calls the hooks below from the main thread, on which the
    /// shell runs).
    // nonisolated(unsafe): set on the main thread before the line editor first runs and read only by the hooks,
    // which libedit calls on that same thread while it waits for a key.
    nonisolated(unsafe) static var waiting: TerminalShell?

    /// Hooks the shell into the line editor: timers, stop signals, and where the prompt goes (stderr when stdout is
    /// not a terminal, so a person whose screens go to a file still sees the prompt and what they type).
    func attachLineEditor() {
        TerminalShell.waiting = self
        okit_readline_output(isatty(STDOUT_FILENO) == 0 && isatty(STDERR_FILENO) == 1 ? 1 : 0)
        okit_readline_hooks({ TerminalShell.waiting?.millisecondsToNextTimer() ?? -1 },
                            { TerminalShell.waiting?.fireDueTimers() },
                            { StopSignals.received == nil ? 0 : 1 })
    }

    /// How long until the next timer of the system clock falls due, in milliseconds (0: now); -1 for none or on the
    /// virtual clock (which moves with `advance` only).
    func millisecondsToNextTimer() -> Int {
        guard session.virtualClock == nil, let due = session.nextTimerDue else { return -1 }
        let ms = (due.timeIntervalSinceNow * 1000).rounded(.up)
        return ms.isNaN || ms <= 0 ? 0 : Int(min(ms, Double(Int32.max)))
    }

    /// Fires the timers that fell due; their errors and warnings, and the screen when they changed what it shows,
    /// are printed above the line being typed.
    func fireDueTimers() {
        var lines = session.fireTimers().map { red(CommandLineAdvice.message(for: $0)) }
        if let screen = try? session.shell.snapshot() {
            let text = render(screen)
            if text != lastDrawn {
                lastDrawn = text
                lines.insert(text, at: 0)
            }
        }
        lines += warnings.fresh().map { yellow("warning: \($0)") }
        guard !lines.isEmpty else { return }
        okit_readline_print(lines.joined(separator: "\n") + "\n")
    }
}
