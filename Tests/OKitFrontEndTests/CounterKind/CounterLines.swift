import OKitEngine
@testable import okit_run     // TerminalScreenKind and TerminalShell are the okit-run executable's own

// The terminal part of the kind. okit-run is an executable, so its types cannot be imported by another module:
// a real kind's terminal lines are a file in Sources/okit-run/ (docs/engine.md "Where to put a new screen kind",
// step 3); this test target reaches them only through @testable.

/// The terminal's lines of a counter.
struct CounterLines: TerminalScreenKind {
    func lines(_ screen: ScreenSnapshot, _ shell: TerminalShell) -> [String] {
        let counter = screen.section as? CounterSection
        return ["  = \(counter?.value ?? 0)" + shell.dim("   (bump [BY] · reset)")]
    }
}
