import Foundation

extension FlowTestRunner {
    /// busted 2.1.1's terminal output, `-o plainTerminal` (`utf`: `utfTerminal`, without colours): a mark per test
    /// (`+` passed, `-` failed, `*` errored, `.` pending; `●`, `◼`, `✱`, `◌`), then
    /// `N successes / N failures / N errors / N pending : S seconds`, then each pending, failing and erroring test as
    /// busted writes it — `Failure -> spec/x_spec.lua @ 2` (where the test is declared), its name, its whole message
    /// with the `file:line: ` it was raised at (`Nil error` without one). `verbose` changes nothing here: okit keeps
    /// no traceback of a failure.
    /// `marks`: false when they were written as the tests ran (`terminalMark`); a hook's error (a spec's teardown) has none, as
    /// in busted's.
    public func terminalSummary(seconds: Double, verbose: Bool, utf: Bool = false, marks: Bool = true) -> String {
        let marks = marks ? results.filter { $0.descriptor == nil }.map { Self.terminalMark($0, utf: utf) }.joined() : ""
        let passed = results.filter { $0.status == .ok }.count
        let pending = results.filter { $0.status == .pending }.count
        let errors = results.filter { $0.status == .fail && $0.isError }.count
        let failures = results.filter { $0.status == .fail && !$0.isError }.count
        var out = marks + "\n"
        out += "\(passed) success\(passed == 1 ? "" : "es") / \(failures) failure\(failures == 1 ? "" : "s") / "
            + "\(errors) error\(errors == 1 ? "" : "s") / \(pending) pending : \(Self.bustedSeconds(seconds)) seconds\n"
        let arrow = utf ? " → " : " -> "
        for r in results where r.status == .pending {
            out += "\nPending" + arrow + r.tracePlace + "\n" + r.name + "\n"
            if r.message != nil { out += r.bustedMessage + "\n" }     // the reason, where `pending` was called
        }
        for (kind, isError) in [("Failure", false), ("Error", true)] {
            for r in results where r.status == .fail && r.isError == isError {
                // an error without a place (busted's while loading): its message, then its name (a file's path, or none)
                out += r.untraced ? "\n" + kind + arrow + r.bustedFailure + "\n" + r.name + "\n"
                    : "\n" + kind + arrow + r.declaredPlace + "\n" + r.name + "\n" + r.bustedFailure + "\n"
            }
        }
        return out
    }

    /// A result's mark: `+` passed, `-` failed, `*` errored, `.` pending (`●`, `◼`, `✱`, `◌` in utf).
    /// No mark for busted's error that belongs to no file (no spec file found).
    public static func terminalMark(_ r: FlowTestResult, utf: Bool) -> String {
        if r.untraced, r.file.isEmpty { return "" }
        switch r.status {
        case .ok: return utf ? "●" : "+"
        case .pending: return utf ? "◌" : "."
        case .fail: return r.isError ? (utf ? "✱" : "*") : (utf ? "◼" : "-")
        }
    }

    /// Seconds as busted writes them: six decimals, trailing zeros dropped (`0.0123`).
    static func bustedSeconds(_ seconds: Double) -> String {
        var text = String(format: "%.6f", seconds)
        while text.hasSuffix("0"), !text.hasSuffix(".0") { text.removeLast() }
        return text
    }
}
