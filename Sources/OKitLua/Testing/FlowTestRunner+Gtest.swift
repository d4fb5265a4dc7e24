import Foundation

extension FlowTestRunner {
    /// busted's `-o gtest` output (busted 2.1.1's handler, without colours), in the pieces it writes as the run goes:
    /// the header, per file a `Running tests from` line, `[ RUN      ]` as a test starts, then its message (a failure's,
    /// unless `deferPrint`) and `[       OK ]`/`[ SKIPPED  ]`/`[  FAILED  ]`/`[  ERROR   ]` with its time as it ends,
    /// the file's count; then the totals and the skipped, failed and erroring tests (`gtestFooter`). A block failure
    /// (a describe body, a file that does not load) prints its message and counts as an error, not as a test.
    public func gtestHeader() -> String {
        var out = ""
        if let seed = options.shuffleSeed, options.shuffleTests { out += "Note: Randomizing test order with a seed of \(seed).\n" }
        return out + "[==========] Running tests from scanned files.\n[----------] Global test environment setup.\n"
    }

    public static func gtestFileStart(_ file: String) -> String { "[----------] Running tests from \(file)\n" }

    public static func gtestTestStart(_ r: FlowTestResult) -> String { "[ RUN      ] \(gtestName(r))\n" }

    /// A result's lines; `started`: its RUN line is out already (a test declared pending never starts).
    public static func gtestResult(_ r: FlowTestResult, started: Bool, deferPrint: Bool) -> String {
        if r.isBlockFailure { return r.bustedFailure + "\n" }
        var out = started ? "" : gtestTestStart(r)
        if r.status == .fail, !deferPrint { out += r.bustedFailure + "\n" }
        return out + "\(gtestMark(r)) \(gtestName(r)) (\(String(format: "%.2f", r.seconds * 1000)) ms)\n"
    }

    public func gtestFileEnd(_ file: String, seconds: Double) -> String {
        let count = results.filter { $0.file == file && !$0.isBlockFailure }.count
        return "[----------] \(count) \(count == 1 ? "test" : "tests") from \(file) (\(String(format: "%.2f", seconds * 1000)) ms total)\n\n"
    }

    /// The closing lines (`seconds`: the whole run's).
    public func gtestFooter(seconds: Double, deferPrint: Bool) -> String {
        let tests = results.filter { !$0.isBlockFailure }.count
        let files = fileRuns.count
        return "[----------] Global test environment teardown.\n"
            + "[==========] \(tests) \(tests == 1 ? "test" : "tests") from \(files) test \(files == 1 ? "file" : "files") ran. "
            + "(\(String(format: "%.2f", seconds * 1000)) ms total)\n" + gtestSummary(deferPrint: deferPrint)
    }

    /// The closing lines: how many passed, then each skipped, failed and erroring test (with its message under
    /// `deferPrint`), then their counts.
    private func gtestSummary(deferPrint: Bool) -> String {
        let passed = results.filter { $0.status == .ok }.count
        let skipped = results.filter { $0.status == .pending }
        let failed = results.filter { $0.status == .fail && !$0.isError }
        let errors = results.filter { $0.status == .fail && $0.isError }
        var out = "[  PASSED  ] \(passed) \(passed == 1 ? "test" : "tests").\n"
        for (mark, list, noun) in [("[ SKIPPED  ]", skipped, "test"), ("[  FAILED  ]", failed, "test"), ("[  ERROR   ]", errors, "error")]
        where !list.isEmpty {
            out += "\(mark) \(list.count) \(noun)\(list.count == 1 ? "" : "s"), listed below:\n"
            for r in list {
                out += "\(mark) \(Self.gtestName(r))\n"
                if deferPrint, r.status == .fail || r.message != nil { out += (r.status == .fail ? r.bustedFailure : r.bustedMessage) + "\n" }
            }
        }
        if !(skipped.isEmpty && failed.isEmpty && errors.isEmpty) { out += "\n" }
        if !skipped.isEmpty { out += " \(skipped.count) SKIPPED TEST\(skipped.count == 1 ? "" : "S")\n" }
        if !failed.isEmpty { out += " \(failed.count) FAILED TEST\(failed.count == 1 ? "" : "S")\n" }
        if !errors.isEmpty { out += " \(errors.count) ERROR\(errors.count == 1 ? "" : "S")\n" }
        return out
    }

    /// `file @ line: full name`.
    static func gtestName(_ r: FlowTestResult) -> String { r.untraced ? r.name : "\(r.declaredPlace): \(r.name)" }

    static func gtestMark(_ r: FlowTestResult) -> String {
        switch r.status {
        case .ok: return "[       OK ]"
        case .pending: return "[ SKIPPED  ]"
        case .fail: return r.isError ? "[  ERROR   ]" : "[  FAILED  ]"
        }
    }
}
