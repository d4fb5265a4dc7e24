import Foundation
import OKitLua
#if canImport(Glibc)
import Glibc
#endif

/// Passwords and passphrases from the user: one line from stdin (`--password-stdin`), or asked on the terminal
/// with echo off.
enum SecretInput {
    /// One line of stdin, without its line end; nil at end of input.
    static func line() -> String? {
        readLine(strippingNewline: true)
    }

    /// Whether stdin is a terminal (a prompt can be shown).
    static var interactive: Bool { isatty(0) == 1 }

    /// Asks on the terminal with echo off; nil when stdin is not a terminal or at end of input.
    static func ask(_ prompt: String) -> String? {
        guard interactive else { return nil }
        // Echo goes off before the prompt shows, and neither change discards what was typed: a person (or a paste)
        // typing as soon as the prompt appeared had the secret echoed, then thrown away by a TCSAFLUSH, and the
        // read waited for a line already typed.
        var saved = termios()
        let haveTerm = tcgetattr(0, &saved) == 0
        if haveTerm {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSANOW, &quiet)
        }
        StandardStreams.error(prompt)
        defer {
            if haveTerm { tcsetattr(0, TCSANOW, &saved) }
            StandardStreams.error("\n")
        }
        return readLine(strippingNewline: true)
    }

    /// A new secret, asked twice on the terminal (they must match) or read once from stdin.
    static func newSecret(_ what: String, fromStdin: Bool) throws -> String {
        if fromStdin {
            guard let s = line() else { throw RunFailure(code: 2, message: "okit-run: no \(what) on stdin") }
            return s
        }
        guard let a = ask("New \(what): ") else {
            throw RunFailure(code: 2, message: "okit-run: the \(what) is asked on a terminal; pass it on stdin with --password-stdin")
        }
        guard let b = ask("Confirm \(what): "), a == b else { throw RunFailure(code: 2, message: "okit-run: the two \(what)s do not match") }
        return a
    }
}

/// A progress bar on stderr when it is a terminal, redrawn at most once per whole percent.
final class ProgressBar {
    let label: String
    let enabled = isatty(2) == 1
    var lastPercent = -1

    init(_ label: String) { self.label = label }

    func update(_ done: Int64, _ total: Int64) {
        guard enabled, total > 0 else { return }
        let percent = Int(done * 100 / total)
        guard percent != lastPercent else { return }
        lastPercent = percent
        let width = 30, filled = width * percent / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let mb = Double(done) / 1_048_576
        StandardStreams.error("\r\(label) [\(bar)] \(percent)% \(String(format: "%.1f", mb)) MB")
    }

    func finish() {
        if enabled, lastPercent >= 0 { StandardStreams.error("\n") }
    }
}
