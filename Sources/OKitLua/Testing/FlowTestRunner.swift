import Foundation
import OKitEngine

/// `okit-run test`: finds `*_test.lua` files, runs each in its own Lua state, prints a TAP line per test and the
/// closing line `N passed, N failed` (`, N skipped` when any were pending), and writes JUnit XML on request.
public final class FlowTestRunner {
    public let options: FlowTestOptions
    public private(set) var results: [FlowTestResult] = []
    /// The files run, in their order, with how long each took (busted's gtest output names each file).
    public private(set) var fileRuns: [(name: String, seconds: Double)] = []

    public init(options: FlowTestOptions) {
        self.options = options
    }

    /// The test files under `paths` (files as given, folders searched for `*_test.lua`); with no path, every
    /// `*_test.lua` under `tests/` (an app project's), `apptests/` (this repository's, named so that it cannot
    /// collide with Swift's `Tests/` on a case-insensitive file system) and `examples/*/tests/` of `root`. Sorted,
    /// without duplicates.
    public static func discover(_ paths: [String], root: URL) throws -> [URL] {
        let fm = FileManager.default
        var roots: [URL] = []
        if paths.isEmpty {
            roots.append(root.appendingPathComponent("tests"))
            roots.append(root.appendingPathComponent("apptests"))
            let examples = root.appendingPathComponent("examples")
            for e in (try? fm.contentsOfDirectory(at: examples, includingPropertiesForKeys: nil)) ?? [] {
                roots.append(e.appendingPathComponent("tests"))
            }
        } else {
            for p in paths {
                let u = URL(fileURLWithPath: p, relativeTo: root).standardizedFileURL
                guard fm.fileExists(atPath: u.path) else {
                    throw FlowTestUsageError("no test file or folder at \(p)")
                }
                roots.append(u)
            }
        }
        var files: Set<String> = []
        for r in roots {
            var isFolder: ObjCBool = false
            guard fm.fileExists(atPath: r.path, isDirectory: &isFolder) else { continue }
            if !isFolder.boolValue { files.insert(r.path); continue }
            let walker = fm.enumerator(at: r, includingPropertiesForKeys: nil)
            while let f = walker?.nextObject() as? URL {
                if f.lastPathComponent == "__snapshots__" { walker?.skipDescendants(); continue }
                if f.lastPathComponent.hasSuffix("_test.lua") { files.insert(f.standardizedFileURL.path) }
            }
        }
        return files.sorted().map { URL(fileURLWithPath: $0) }
    }

    /// Runs the files (with a shuffle seed, in an order shuffled by it); `line` receives each output line (TAP:
    /// busted's lines for a spec's result), `note` okit's closing line `N passed, N failed` (the front end puts it
    /// last, on the stream its output leaves free), else `line` does; `events` the files and tests as they start and
    /// end (busted's terminal and gtest outputs write their lines then). A busted run loads its spec files first,
    /// as busted does: one that does not compile is an error before any test runs; `notFound` (busted's message
    /// when no spec file was found) is one too. Returns the totals.
    @discardableResult
    public func run(_ files: [URL], root: URL, line: @escaping (String) -> Void, note: ((String) -> Void)? = nil,
                    events: FlowTestEvents = FlowTestEvents(), notFound: String? = nil) -> (passed: Int, failed: Int, skipped: Int) {
        var passed = 0, failed = 0, skipped = 0
        var n = 0
        let base = root.standardizedFileURL.path + "/"
        let bustedRun = isBustedRun(files)
        func shown(_ f: URL) -> String { f.path.hasPrefix(base) ? String(f.path.dropFirst(base.count)) : f.path }
        let verbose = options.verbose
        let emit = { (r: FlowTestResult) in
            if self.options.suppressPending, r.status == .pending { return }
            n += 1
            switch r.status {
            case .ok: passed += 1
            case .fail: failed += 1
            case .pending: skipped += 1
            }
            self.results.append(r)
            events.result?(r)
            let lines = r.isSpec ? FlowTestRunner.bustedTAPLines(r, number: n, verbose: verbose)
                : FlowTestRunner.tapLines(r, number: n, verbose: verbose)
            for l in lines { line(l) }
        }
        let (runnable, loadErrors) = bustedRun ? compiled(files, display: shown) : (files, [])
        for r in loadErrors { emit(r) }
        if let notFound { emit(.untracedError(file: "", message: notFound)) }
        events.suiteStarted?()
        for f in ordered(runnable) {
            if options.stopOnFailure, failed > 0 { break }
            let display = shown(f)
            let started = Date()
            events.fileStarted?(display)
            do {
                let file = try FlowTestFile(url: f, displayPath: display, options: options)
                file.run(report: emit, started: events.testStarted)
            } catch {
                emit(FlowTestResult.loadFailure(display, message: Remedy.message(for: error, wording: options.remedyWording),
                                                isSpec: isSpec(f)))
            }
            fileRuns.append((display, Date().timeIntervalSince(started)))
            events.fileEnded?(display, Date().timeIntervalSince(started))
        }
        line("1..\(n)")
        let closing = "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
        if let note { note(closing) } else { line(closing) }
        return (passed, failed, skipped)
    }

    /// Whether the file is one of the run's busted specs.
    public func isSpec(_ file: URL) -> Bool {
        options.busted?.specFiles.contains(file.standardizedFileURL.path) == true
    }

    /// `--list`: one line per test a run would run, in its order, `file:line: full name` (`# pending` after a
    /// pending one); nothing runs but the files' top-level code. A file that does not load gives
    /// `file: cannot list its tests: message`, a spec's describe block whose body raises `file:line: block name:
    /// cannot list its tests: message`. Returns the number of such files and blocks.
    @discardableResult
    public func list(_ files: [URL], root: URL, line: @escaping (String) -> Void) -> Int {
        var broken = 0
        let base = root.standardizedFileURL.path + "/"
        for f in ordered(files) {
            let display = f.path.hasPrefix(base) ? String(f.path.dropFirst(base.count)) : f.path
            do {
                let file = try FlowTestFile(url: f, displayPath: display, options: options)
                for t in try file.list() where !(options.suppressPending && t.pending) {
                    let place = (t.location.map { $0 + ": " } ?? "") + t.name
                    if let message = t.broken {
                        // busted: a describe body that raises lists none of its tests, and the run fails
                        broken += 1
                        line(place + ": cannot list its tests: " + message.replacingOccurrences(of: "\n", with: " "))
                    } else {
                        line(place + (t.pending ? " # pending" : ""))
                    }
                }
            } catch {
                broken += 1
                line("\(display): cannot list its tests: " + Remedy.message(for: error, wording: options.remedyWording).replacingOccurrences(of: "\n", with: " "))
            }
        }
        return broken
    }

    /// The files in running order: as given, or shuffled by the seed: busted's specs as busted shuffles them
    /// (`BustedShuffle`), a run with flow tests by SplitMix64 (the same order for one seed).
    func ordered(_ files: [URL]) -> [URL] {
        guard var state = options.shuffleSeed, options.shuffleFiles else { return files }
        if !files.isEmpty, files.allSatisfy(isSpec) { return BustedShuffle.shuffled(files, seed: state) }
        var result = files
        func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
        var i = result.count - 1
        while i > 0 {
            let j = Int(next() % UInt64(i + 1))
            result.swapAt(i, j)
            i -= 1
        }
        return result
    }

    /// `ok 3 - name`, `not ok 4 - name` with the message and location as `#` lines, `ok 5 - name # SKIP`;
    /// `verbose` (`-v`) puts `# file:line: name`, where the test is declared, before a test's line.
    static func tapLines(_ r: FlowTestResult, number n: Int, verbose: Bool = false) -> [String] {
        let declared = verbose && !r.isBlockFailure ? r.declaredAt.map { ["# \($0): \(r.name)"] } ?? [] : []
        switch r.status {
        case .ok: return declared + ["ok \(n) - \(r.name)"]
        case .pending: return declared + ["ok \(n) - \(r.name) # SKIP pending"]
        case .fail:
            var lines = declared + ["not ok \(n) - \(r.name)"]
            var message = r.message ?? "failed"
            if let location = r.location {
                lines.append("# \(location)")
                if message.hasPrefix(location + ": ") { message.removeFirst(location.count + 2) }
            }
            for l in message.split(separator: "\n", omittingEmptySubsequences: false) { lines.append("# \(l)") }
            return lines
        }
    }

    /// JUnit XML: one testsuite per file, one testcase per test (failures with message and location; pending
    /// tests skipped).
    public func junit() -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failures = results.filter { $0.status == .fail }.count
        let skipped = results.filter { $0.status == .pending }.count
        let errors = results.filter { $0.status == .fail && $0.isError }.count
        // as busted's: an error outside a test (a describe body, a file that does not load) counts in `errors` and is
        // an <error> of its suite, not a test
        let tests = results.filter { !$0.isOutsideTests }.count
        xml += "<testsuites name=\"okit\" tests=\"\(tests)\" failures=\"\(failures - errors)\" errors=\"\(errors)\" skipped=\"\(skipped)\">\n"
        // busted's errors while loading (a spec that does not compile, no spec found): <error> of the whole run
        for r in results where r.untraced {
            let message = r.message ?? "failed"
            let first = message.split(separator: "\n").first.map(String.init) ?? message
            xml += "  <error message=\"\(Self.escape(first))\">\(Self.escape(message))</error>\n"
        }
        var order: [String] = []
        var byFile: [String: [FlowTestResult]] = [:]
        for r in results where !r.untraced {
            if byFile[r.file] == nil { order.append(r.file) }
            byFile[r.file, default: []].append(r)
        }
        for file in order {
            let rs = byFile[file] ?? []
            let time = rs.reduce(0) { $0 + $1.seconds }
            xml += "  <testsuite name=\"\(Self.escape(file))\" tests=\"\(rs.filter { !$0.isOutsideTests }.count)\" "
                + "failures=\"\(rs.filter { $0.status == .fail && !$0.isError }.count)\" "
                + "errors=\"\(rs.filter { $0.status == .fail && $0.isError }.count)\" skipped=\"\(rs.filter { $0.status == .pending }.count)\" "
                + "time=\"\(String(format: "%.3f", time))\">\n"
            for r in rs {
                if r.isOutsideTests {
                    let message = r.message ?? "failed"
                    let first = message.split(separator: "\n").first.map(String.init) ?? message
                    xml += "    <error message=\"\(Self.escape(first))\">\(Self.escape(r.name + "\n" + message))</error>\n"
                    continue
                }
                xml += "    <testcase classname=\"\(Self.escape(file))\" name=\"\(Self.escape(r.name))\" time=\"\(String(format: "%.3f", r.seconds))\""
                switch r.status {
                case .ok: xml += "/>\n"
                case .pending: xml += "><skipped/></testcase>\n"
                case .fail:
                    let message = r.message ?? "failed"
                    let first = message.split(separator: "\n").first.map(String.init) ?? message
                    xml += ">\n      <\(r.isError ? "error" : "failure") message=\"\(Self.escape(first))\">\(Self.escape((r.location.map { $0 + "\n" } ?? "") + message))</\(r.isError ? "error" : "failure")>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
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

/// What a run tells as it goes: a file starts (its path as shown), a test starts (its name and where it is declared,
/// before its `before_each` hooks), a result is reported, a file ends (with its seconds).
public struct FlowTestEvents {
    public var fileStarted: ((String) -> Void)?
    /// The run starts, after busted's loading of the files (gtest's header).
    public var suiteStarted: (() -> Void)?
    public var testStarted: ((FlowTestResult) -> Void)?
    public var result: ((FlowTestResult) -> Void)?
    public var fileEnded: ((String, Double) -> Void)?

    public init() {}
}

/// A wrong argument to `okit-run test`.
public struct FlowTestUsageError: Error, CustomStringConvertible {
    public let description: String
    /// The exit code: 2 (a wrong argument), or 1 where busted stops with 1 (a `-f` file or `-r` task not there).
    public let exitCode: Int32
    init(_ message: String, exitCode: Int32 = 2) {
        description = message
        self.exitCode = exitCode
    }
}
