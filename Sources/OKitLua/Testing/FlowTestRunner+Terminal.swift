import Foundation

extension FlowTestRunner {
    /// busted's terminal output (`-o plainTerminal`, `utfTerminal`): a character per test (`+` passed, `-` failed,
    /// `*` errored, `.` pending), `N successes / N failures / N errors / N pending : S seconds`, then each pending,
    /// failing and erroring test with its file:line and message (`verbose`: the whole message, else its first
    /// lines), and okit's closing line.
    public func terminalSummary(seconds: Double, verbose: Bool) -> String {
        let marks = results.map { r -> String in
            switch r.status {
            case .ok: return "+"
            case .pending: return "."
            case .fail: return r.isError ? "*" : "-"
            }
        }.joined()
        let passed = results.filter { $0.status == .ok }.count
        let pending = results.filter { $0.status == .pending }.count
        let errors = results.filter { $0.status == .fail && $0.isError }.count
        let failures = results.filter { $0.status == .fail && !$0.isError }.count
        var out = marks + "\n"
        out += "\(passed) success\(passed == 1 ? "" : "es") / \(failures) failure\(failures == 1 ? "" : "s") / "
            + "\(errors) error\(errors == 1 ? "" : "s") / \(pending) pending : \(String(format: "%.6f", seconds)) seconds\n"
        for (kind, picked) in [("Pending", results.filter { $0.status == .pending }),
                               ("Failure", results.filter { $0.status == .fail && !$0.isError }),
                               ("Error", results.filter { $0.status == .fail && $0.isError })] {
            for r in picked {
                out += "\n\(kind) -> \(r.location ?? r.file)\n\(r.name)\n"
                let lines = (r.message ?? "").split(separator: "\n", omittingEmptySubsequences: false)
                if !lines.isEmpty, r.message != nil { out += (verbose ? lines : Array(lines.prefix(8))).joined(separator: "\n") + "\n" }
            }
        }
        return out + "\(passed) passed, \(failures + errors) failed" + (pending > 0 ? ", \(pending) skipped" : "") + "\n"
    }
}
