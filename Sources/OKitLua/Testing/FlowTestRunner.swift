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
        // under -v a test's `# file @ line: name` comes as it starts, before what it prints (busted's TAP); a test
        // that never starts (declared pending) gets it with its result
        var testStarted = false
        let emit = { (r: FlowTestResult) in
            let commented = testStarted
            testStarted = false
            if self.options.suppressPending, r.status == .pending { return }
            n += 1
            switch r.status {
            case .ok: passed += 1
            case .fail: failed += 1
            case .pending: skipped += 1
            }
            self.results.append(r)
            events.result?(r)
            let lines = r.isSpec ? FlowTestRunner.bustedTAPLines(r, number: n, verbose: verbose && !commented)
                : FlowTestRunner.tapLines(r, number: n, verbose: verbose && !commented)
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
                file.run(report: emit, started: verbose || events.testStarted != nil ? { r in
                    if verbose, let at = r.isSpec ? r.declaredPlace : r.declaredAt {
                        testStarted = true
                        line("# \(at): \(r.name)")
                    }
                    events.testStarted?(r)
                } : nil)
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
