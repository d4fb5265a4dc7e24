import Foundation

extension FlowTestRunner {
    /// This run's JUnit XML (`junit(runs:of:seconds:)`); `seconds`: the run's, else its files' added up.
    public func junit(seconds: Double? = nil) -> String {
        Self.junit(runs: [results], seconds: seconds ?? fileRuns.reduce(0) { $0 + $1.seconds })
    }

    /// JUnit XML: one testsuite per file, one testcase per test (failures and errors with their message and
    /// location; a pending test `<skipped>`, with its reason as busted writes it: `spec/p_spec.lua:1: needs the v2
    /// API`). `runs`: each run's results, all in one document (`--repeat`: busted's one report of every run, a
    /// file's suite named `spec/x_spec.lua (run 1 of 2)`); `total`: the runs asked for (`--no-keep-going` may stop
    /// before); `seconds`: `<testsuites time=…>`, the whole run's. A spec's `classname` is busted's, where the test
    /// is declared (`spec/a_spec.lua:2`); a flow test's is its file.
    public static func junit(runs: [[FlowTestResult]], of total: Int? = nil, seconds: Double) -> String {
        let all = runs.flatMap { $0 }
        let failures = all.filter { $0.status == .fail }.count
        let skipped = all.filter { $0.status == .pending }.count
        let errors = all.filter { $0.status == .fail && $0.isError }.count
        // as busted's: an error outside a test (a describe body, a file that does not load) counts in `errors` and is
        // an <error> of its suite, not a test
        let tests = all.filter { !$0.isOutsideTests }.count
        // busted counts pending tests in `skip=`; flow tests' report keeps JUnit's usual `skipped=`
        let skip = all.contains { $0.isSpec } ? "skip" : "skipped"
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"okit\" tests=\"\(tests)\" failures=\"\(failures - errors)\" errors=\"\(errors)\" \(skip)=\"\(skipped)\" "
            + "time=\"\(String(format: "%.3f", seconds))\">\n"
        let count = max(total ?? runs.count, runs.count)
        for (index, results) in runs.enumerated() {
            // busted's errors while loading (a spec that does not compile, no spec found): <error> of the whole run
            for r in results where r.untraced {
                let message = r.message ?? "failed"
                xml += "  <error message=\"\(escape(summary(message)))\">\(escape(message))</error>\n"
            }
            var order: [String] = []
            var byFile: [String: [FlowTestResult]] = [:]
            for r in results where !r.untraced {
                if byFile[r.file] == nil { order.append(r.file) }
                byFile[r.file, default: []].append(r)
            }
            for file in order {
                xml += suite(file, byFile[file] ?? [], name: count > 1 ? "\(file) (run \(index + 1) of \(count))" : file, skip: skip)
            }
        }
        return xml + "</testsuites>\n"
    }

    /// One file's `<testsuite>` of one run.
    private static func suite(_ file: String, _ rs: [FlowTestResult], name: String, skip: String) -> String {
        let time = rs.reduce(0) { $0 + $1.seconds }
        var xml = "  <testsuite name=\"\(escape(name))\" tests=\"\(rs.filter { !$0.isOutsideTests }.count)\" "
            + "failures=\"\(rs.filter { $0.status == .fail && !$0.isError }.count)\" "
            + "errors=\"\(rs.filter { $0.status == .fail && $0.isError }.count)\" \(skip)=\"\(rs.filter { $0.status == .pending }.count)\" "
            + "time=\"\(String(format: "%.3f", time))\">\n"
        for r in rs {
            if r.isOutsideTests {
                let message = r.message ?? "failed"
                xml += "    <error message=\"\(escape(summary(message)))\">\(escape(r.name + "\n" + message))</error>\n"
                continue
            }
            let classname = r.isSpec ? r.declaredAt ?? file : file
            xml += "    <testcase classname=\"\(escape(classname))\" name=\"\(escape(r.name))\" time=\"\(String(format: "%.3f", r.seconds))\""
            switch r.status {
            case .ok: xml += "/>\n"
            case .pending:
                xml += r.message == nil ? "><skipped/></testcase>\n" : "><skipped>\(escape(r.bustedMessage))</skipped></testcase>\n"
            case .fail:
                let message = r.message ?? "failed"
                let tag = r.isError ? "error" : "failure"
                xml += ">\n      <\(tag) message=\"\(escape(summary(message)))\">\(escape((r.location.map { $0 + "\n" } ?? "") + message))</\(tag)>\n    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n"
    }

    /// A failure's `message` attribute: the message's first line (`assert.equal failed`), or, when that line only
    /// opens a table as busted writes an error value (`{`, `  code = 1`, `}`), the whole table on one line
    /// (`{ code = 1 }`).
    static func summary(_ message: String) -> String {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: true)
        guard let first = lines.first else { return message }
        guard first.hasSuffix("{"), lines.count > 1 else { return String(first) }
        return lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// Text for XML 1.0 content and attributes: markup characters escaped, CR as `&#13;` (kept through parsing),
    /// and characters XML 1.0 does not allow even as references (other control characters, U+FFFE, U+FFFF)
    /// replaced by U+FFFD.
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n", "\t": out.unicodeScalars.append(c)
            case "\r": out += "&#13;"
            default:
                if c.value < 0x20 || c.value == 0xFFFE || c.value == 0xFFFF {
                    out.unicodeScalars.append("\u{FFFD}")
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }
}
