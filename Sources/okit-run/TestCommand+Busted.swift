import ArgumentParser
import Foundation
import OKitEngine
import OKitLua

/// The output of `okit-run test`: TAP (`-o TAP`, the default), JUnit XML to a file beside TAP or alone on stdout,
/// busted's terminal summary, busted's gtest lines or busted's JSON object.
enum TestOutputFormat: Equatable {
    case tap
    case junitFile(String)
    case junit
    /// `-o junit -Xoutput FILE`: the XML to the file and nothing on stdout, as busted's junit output.
    case junitXMLFile(String)
    /// busted's `plainTerminal` (`utf`: its `utfTerminal`, with ● ◼ ✱ ◌ and →).
    case terminal(utf: Bool)
    case gtest
    case json
}

extension TestCommand {
    /// `--output`/`-o` as busted users type it (any case): `TAP`, `junit`, `plainTerminal`, `utfTerminal`, `gtest`,
    /// `json`, and okit's `junit=FILE`; anything else is a usage error naming them. With none given (nor by
    /// `.busted`): busted's choice in a busted run (`bustedRun`, every file a spec), `utfTerminal` on a terminal and
    /// `plainTerminal` otherwise; TAP for a run with flow tests.
    func outputFormat(configured: String? = nil, configuredOptions: [String] = [], bustedRun: Bool = false) throws -> TestOutputFormat {
        let standard: TestOutputFormat = bustedRun ? .terminal(utf: isatty(STDOUT_FILENO) != 0) : .tap
        return try bustedOptions.apply(to: try namedOutputFormat(configured: configured, standard: standard), configured: configuredOptions)
    }

    func namedOutputFormat(configured: String?, standard: TestOutputFormat = .tap) throws -> TestOutputFormat {
        guard let output = output ?? configured else { return standard }
        if output.hasPrefix("junit=") {
            let file = String(output.dropFirst("junit=".count))
            guard !file.isEmpty else { throw ValidationError("--output junit=FILE needs a file name") }
            return .junitFile(file)
        }
        switch output.lowercased() {
        case "tap": return .tap
        case "junit": return .junit
        case "plainterminal": return .terminal(utf: false)
        case "utfterminal": return .terminal(utf: true)
        case "gtest": return .gtest
        case "json": return .json
        default:
            throw ValidationError("--output must be TAP, junit, junit=FILE, plainTerminal, utfTerminal, gtest or json, got \"\(output)\"")
        }
    }

    /// The busted project of the current folder (its `.busted` file and the options given), with its spec files
    /// found: from `ROOT` (default `spec/`) with no path given, else under the paths (none when it is no project).
    func bustedProject(root: URL, cwd: URL) throws -> BustedProject {
        let configFile = bustedOptions.configFile.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL }
        var project = try BustedProject.load(root: root, task: task, configFile: configFile)
        if !pattern.isEmpty { project.patterns = pattern }
        if !excludePattern.isEmpty { project.excludePatterns = excludePattern }
        if !lpath.isEmpty { project.lpath = lpath.joined(separator: ";") }
        if !bustedOptions.cpath.isEmpty { project.cpath = bustedOptions.cpath.joined(separator: ";") }
        if let recursive = bustedOptions.recursive { project.recursive = recursive }
        if let helper { project.helper = helper }
        if !bustedOptions.helperOptions.isEmpty {
            project.helperArguments = bustedOptions.helperOptions.flatMap { $0.split(separator: ",").map(String.init) }
        }
        if !paths.isEmpty { project.roots = paths }
        project.arguments = Self.givenArguments()
        project.specOrder = try BustedDiscovery.specFiles(of: project).map(\.path)
        project.specFiles = Set(project.specOrder)
        switch clock?.lowercased() {
        case nil, "real": project.randomSeed = try Self.seedValue(seed) ?? project.seed ?? UInt64.random(in: 1...999_999_999)
        case "virtual": project.randomSeed = nil
        default: throw ValidationError("--clock must be real or virtual, got \"\(clock ?? "")\"")
        }
        return project
    }

    /// The arguments after `test` on okit-run's command line: a spec's `arg[1]`, … (busted's `arg`).
    static func givenArguments(_ line: [String] = CommandLine.arguments) -> [String] {
        guard line.count > 1, line[1] == "test" else { return [] }
        return Array(line.dropFirst(2))
    }

    /// Refuses what okit-run test does not do, with busted's option named: coverage (`-c`, `.busted`'s
    /// `coverage = true`) and another Lua (`--lua`).
    func refuseUnsupported(coverage: Bool) throws {
        if coverage {
            throw RunFailure(code: 2, message: "okit-run test: coverage is not supported (okit-run test does not load LuaCov): "
                + "run without --coverage, or with --no-coverage when .busted says coverage = true")
        }
        if let lua, !bustedOptions.ignoreLua {
            throw RunFailure(code: 2, message: "okit-run test: --lua \(lua) is not supported: specs run in okit-run's own Lua 5.4")
        }
    }

    /// okit's own lines (the seeds, the closing totals, a repeat's round): on stdout as TAP comments when stdout is
    /// okit's TAP; on stderr when it is busted's (every file a spec) or another format, which they would break.
    func note(_ text: String, files: [URL], options: FlowTestOptions, format: TestOutputFormat) {
        if (format == .tap || format.isJUnitFile || list) && !Self.isBustedRun(files, options: options) {
            StandardStreams.output(text + "\n")
        } else {
            StandardStreams.error(text + "\n")
        }
    }

    /// A busted run: its specs only, or none found in a busted project (busted's error is its output then).
    static func isBustedRun(_ files: [URL], options: FlowTestOptions) -> Bool {
        let spec = options.busted?.specFiles ?? []
        return options.busted != nil && files.allSatisfy { spec.contains($0.standardizedFileURL.path) }
    }

    /// Runs (or lists) the files and writes the output; true when a test failed. Exit 1 when nothing was found
    /// (`none` says what was searched) or a listed file does not load.
    func runFiles(_ files: [URL], root: URL, options: FlowTestOptions, format: TestOutputFormat, nothingFound none: String,
                  report: JUnitReport = JUnitReport(runs: 1)) throws -> Bool {
        if !list { try Self.checkReportFile(format, root: root) }
        let runner = FlowTestRunner(options: options)
        if let seed = options.shuffleSeed, !files.isEmpty {
            // A TAP comment: the run (or the list) can be repeated in the same order.
            note("# shuffled with --seed \(seed)", files: files, options: options, format: format)
        }
        if let seed = options.busted?.randomSeed, options.shuffleSeed != seed, !files.isEmpty {
            note("# random seed \(seed) (--seed \(seed) repeats it)", files: files, options: options, format: format)
        }
        if list {
            let broken = runner.list(files, root: root) { StandardStreams.output($0 + "\n") }
            if files.isEmpty { throw RunFailure(code: 1, message: none) }
            if broken > 0 { throw ExitCode(1) }
            return false
        }
        let started = Date()
        let deferred = deferPrint(options)
        // no spec file found in a busted project: busted's error in the output, okit's line on stderr first
        let notFound = files.isEmpty ? options.busted.map { FlowTestRunner.noSpecFilesMessage(patterns: $0.patterns) } : nil
        if notFound != nil { StandardStreams.error(none + "\n") }
        // okit's closing line comes last, after the output's own summary (busted's last line): on stdout after okit's
        // TAP of flow tests, else on stderr (`note`), where it breaks no XML, JSON or busted's own lines
        var closing: String?
        let totals = runner.run(files, root: root, line: { line in
            if format == .tap || format.isJUnitFile { StandardStreams.output(line + "\n") }
        }, note: { closing = $0 }, events: Self.outputEvents(format, runner: runner, deferPrint: deferred), notFound: notFound)
        defer { if let closing { note(closing, files: files, options: options, format: format) } }
        // junit: one report of every run of --repeat, written after the last (or the one --no-keep-going stops at)
        report.results.append(runner.results)
        let lastRun = report.results.count >= report.runs || (totals.failed > 0 && options.stopOnFailure) || (files.isEmpty && notFound == nil)
        switch format {
        case .junitFile(let file), .junitXMLFile(let file):
            guard lastRun else { break }
            // relative to the project's root, as busted writes it after -C (-C DIR runs as if started there)
            do { try Data(report.xml().utf8).write(to: URL(fileURLWithPath: file, relativeTo: root), options: .atomic) } catch {
                throw RunFailure(code: 2, message: "okit-run test: cannot write the junit report \(file): \(FlowTestRecorder.plainReason(error))")
            }
        case .junit: if lastRun { StandardStreams.output(report.xml()) }
        case .terminal(let utf):
            StandardStreams.output(runner.terminalSummary(seconds: Date().timeIntervalSince(started), verbose: options.verbose,
                                                          utf: utf, marks: false))
        case .gtest: StandardStreams.output(runner.gtestFooter(seconds: Date().timeIntervalSince(started), deferPrint: deferred))
        case .json: StandardStreams.output(runner.json(seconds: Date().timeIntervalSince(started)))
        case .tap: break
        }
        if files.isEmpty, notFound == nil { throw RunFailure(code: 1, message: none) }
        return totals.failed > 0
    }
}

extension TestCommand {
    /// A junit report file (`-o junit=FILE`, `-o junit -Xoutput FILE`) that cannot be written is refused before any
    /// test runs (exit 2), not found after the whole run: its folder must exist and take a new file, and the file
    /// must not be a folder.
    static func checkReportFile(_ format: TestOutputFormat, root: URL) throws {
        let file: String
        switch format {
        case .junitFile(let f), .junitXMLFile(let f): file = f
        default: return
        }
        let url = URL(fileURLWithPath: file, relativeTo: root).standardizedFileURL
        let folder = url.deletingLastPathComponent().path
        func refuse(_ why: String) -> RunFailure {
            RunFailure(code: 2, message: "okit-run test: cannot write the junit report \(file): \(why); nothing was run")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else { throw refuse("there is no folder \(folder)") }
        guard isFolder.boolValue else { throw refuse("\(folder) is not a folder") }
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw refuse("\(url.path) is a folder")
        }
        // the report is written through a temporary file beside it: the folder must take a new file
        guard access(folder, W_OK) == 0 else { throw refuse("\(folder) is not a writable folder (\(errno == EROFS ? "a read-only file system" : "permission denied"))") }
    }
}

extension TestOutputFormat {
    var isJUnitFile: Bool { if case .junitFile = self { return true } else { return false } }
}

extension TestCommand {
    /// What busted's terminal and gtest outputs write as the run goes, so that what a spec prints lands between
    /// them as under busted: a terminal output's mark as each test ends (a block's error even under
    /// `--defer-print`), gtest's file and RUN lines as they start and each result as it ends.
    static func outputEvents(_ format: TestOutputFormat, runner: FlowTestRunner, deferPrint: Bool) -> FlowTestEvents {
        var events = FlowTestEvents()
        switch format {
        case .terminal(let utf):
            events.result = { r in
                // busted marks no hook's error (a spec's teardown), a block's even under --defer-print
                if r.descriptor == nil, !deferPrint || r.isBlockFailure { StandardStreams.output(FlowTestRunner.terminalMark(r, utf: utf)) }
            }
        case .gtest:
            // Whether the running test's RUN line is out (a test declared pending reports without starting).
            final class Started { var value = false }
            let started = Started()
            // the header after busted's loading of the files (what does not compile is said before it)
            events.suiteStarted = { [unowned runner] in StandardStreams.output(runner.gtestHeader()) }
            events.fileStarted = { StandardStreams.output(FlowTestRunner.gtestFileStart($0)) }
            events.testStarted = { r in
                started.value = true
                StandardStreams.output(FlowTestRunner.gtestTestStart(r))
            }
            events.result = { r in
                StandardStreams.output(FlowTestRunner.gtestResult(r, started: started.value, deferPrint: deferPrint))
                started.value = false
            }
            events.fileEnded = { [unowned runner] file, seconds in StandardStreams.output(runner.gtestFileEnd(file, seconds: seconds)) }
        default: break
        }
        return events
    }
}

extension TestCommand {
    /// A file given by path that is an app, not a test (`okit-run test app.lua`): busted runs any file it is given,
    /// and so does okit-run test, but an app run as a spec fails on what only a launched app has (its data
    /// folder), which says nothing of why. A note on stderr says what to run instead.
    func noteAppFilesGiven(cwd: URL) {
        for path in paths where path.hasSuffix(".lua") && !path.hasSuffix("_test.lua") && !path.hasSuffix("_spec.lua") {
            let url = URL(fileURLWithPath: path, relativeTo: cwd)
            guard let source = try? String(contentsOf: url, encoding: .utf8), source.contains("okit.app") else { continue }
            let folder = url.deletingLastPathComponent().relativePath
            StandardStreams.error("okit-run test: note: \(path) is an app, not a test file (*_test.lua, *_spec.lua): it runs as a spec "
                + "and fails where it needs its data folder; run its tests with okit-run test \(folder) (a test launches it: "
                + "launch(\"../app.lua\"))\n")
        }
    }
}

/// The JUnit report of a run and its repeats (`--repeat N`): each run's results, in one document written after the
/// last, as busted writes one report of every run.
final class JUnitReport {
    let runs: Int
    let started = Date()
    var results: [[FlowTestResult]] = []

    init(runs: Int) { self.runs = runs }

    func xml() -> String { FlowTestRunner.junit(runs: results, of: runs, seconds: Date().timeIntervalSince(started)) }
}
