import Testing
@testable import okit_run

/// When the terminal shell writes colours and other escape codes: the usual conventions (an outside tester got
/// 24-bit colour codes under TERM=dumb and in a file that stdout went to).
@Suite struct TerminalColorTests {
    @Test func coloursFollowNoColorTermDumbAndATerminalOnStdout() {
        let xterm = ["TERM": "xterm-256color"]
        #expect(TerminalShell.usesColor(noColor: false, environment: xterm, outputIsTerminal: true))
        #expect(!TerminalShell.usesColor(noColor: true, environment: xterm, outputIsTerminal: true), "--no-color")
        #expect(!TerminalShell.usesColor(noColor: false, environment: ["TERM": "xterm", "NO_COLOR": "1"], outputIsTerminal: true))
        #expect(TerminalShell.usesColor(noColor: false, environment: ["TERM": "xterm", "NO_COLOR": ""], outputIsTerminal: true),
                "NO_COLOR set to the empty text does not count (no-color.org)")
        #expect(!TerminalShell.usesColor(noColor: false, environment: ["TERM": "dumb"], outputIsTerminal: true), "TERM=dumb")
        #expect(!TerminalShell.usesColor(noColor: false, environment: xterm, outputIsTerminal: false), "stdout is a file or a pipe")
    }
}
