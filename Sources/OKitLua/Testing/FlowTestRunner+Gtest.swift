import Foundation

extension FlowTestRunner {
    /// busted's `-o gtest` output after a run (busted 2.1.1's handler, without colours): per file a `Running tests
    /// from` line, `[ RUN      ]` and `[       OK ]`/`[ SKIPPED  ]`/`[  FAILED  ]`/`[  ERROR   ]` per test with its
    /// time, a failure's message under its RUN line, the file's count; then the totals, the skipped, failed and
    /// erroring tests listed, and their counts. A block failure (a describe body, a file that does not load) prints
    /// its message and counts as an error, not as a test.
    public func gtest(seconds: Double) -> String {
        var out = ""
        if let seed = options.shuffleSeed { out += "Note: Randomizing test order with a seed of \(seed).\n" }
        out += "[==========] Running tests from scanned files.\n[----------] Global test environment setup.\n"
        var tests = 0
        for file in fileRuns {
            out += "[----------] Running tests from \(file.name)\n"
            var count = 0
            for r in results where r.file == file.name {
                if r.isBlockFailure { out += r.bustedMessage + "\n"; continue }
                count += 1
                let ms = String(format: "%.2f", r.seconds * 1000)
                out += "[ RUN      ] \(Self.gtestName(r))\n"
                if r.status == .fail { out += r.bustedMessage + "\n" }
                out += "\(Self.gtestMark(r)) \(Self.gtestName(r)) (\(ms) ms)\n"
            }
            tests += count
            out += "[----------] \(count) \(count == 1 ? "test" : "tests") from \(file.name) (\(String(format: "%.2f", file.seconds * 1000)) ms total)\n\n"
        }
        let files = fileRuns.count
        out += "[----------] Global test environment teardown.\n"
        out += "[==========] \(tests) \(tests == 1 ? "test" : "tests") from \(files) test \(files == 1 ? "file" : "files") ran. "
            + "(\(String(format: "%.2f", seconds * 1000)) ms total)\n"
        return out + gtestSummary()
    }

    /// The closing lines: how many passed, then each skipped, failed and erroring test, then their counts.
    private func gtestSummary() -> String {
        let passed = results.filter { $0.status == .ok }.count
        let skipped = results.filter { $0.status == .pending }
        let failed = results.filter { $0.status == .fail && !$0.isError }
        let errors = results.filter { $0.status == .fail && $0.isError }
        var out = "[  PASSED  ] \(passed) \(passed == 1 ? "test" : "tests").\n"
        for (mark, list, noun) in [("[ SKIPPED  ]", skipped, "test"), ("[  FAILED  ]", failed, "test"), ("[  ERROR   ]", errors, "error")]
        where !list.isEmpty {
            out += "\(mark) \(list.count) \(noun)\(list.count == 1 ? "" : "s"), listed below:\n"
            for r in list { out += "\(mark) \(Self.gtestName(r))\n" }
        }
        if !(skipped.isEmpty && failed.isEmpty && errors.isEmpty) { out += "\n" }
        if !skipped.isEmpty { out += " \(skipped.count) SKIPPED TEST\(skipped.count == 1 ? "" : "S")\n" }
        if !failed.isEmpty { out += " \(failed.count) FAILED TEST\(failed.count == 1 ? "" : "S")\n" }
        if !errors.isEmpty { out += " \(errors.count) ERROR\(errors.count == 1 ? "" : "S")\n" }
        return out
    }

    /// `file @ line: full name`.
    static func gtestName(_ r: FlowTestResult) -> String { "\(r.declaredPlace): \(r.name)" }

    private static func gtestMark(_ r: FlowTestResult) -> String {
        switch r.status {
        case .ok: return "[       OK ]"
        case .pending: return "[ SKIPPED  ]"
        case .fail: return r.isError ? "[  ERROR   ]" : "[  FAILED  ]"
        }
    }
}
