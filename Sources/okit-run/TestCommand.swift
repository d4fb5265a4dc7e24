import ArgumentParser
import Foundation
import OKitBackends
import OKitLua

/// `okit-run test [paths] [--filter P] [--filter-out P] [--tags T,…] [--exclude-tags T,…] [--shuffle [--seed N]]
/// [--list] [--output tap|junit=FILE|…] [--update-snapshots] [--strict]`, and busted's options for specs.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run flow tests (*_test.lua) with busted's vocabulary.",
        discussion: "With no path: every *_test.lua under tests/, apptests/ and examples/*/tests/. The last line is `N passed, N failed`."
    )

    @Argument(help: "Test files or folders.")
    var paths: [String] = []

    @Option(name: .long, help: "Run only the tests whose full name matches this Lua pattern (or contains it; repeatable: any of them).")
    var filter: [String] = []

    @Option(name: .customLong("filter-out"), help: "Leave out the tests whose full name matches this Lua pattern (or contains it; repeatable).")
    var filterOut: [String] = []

    @Option(name: [.customShort("t"), .long], help: "Run only the tests with one of these #tags in their full name (comma-separated, repeatable).")
    var tags: [String] = []

    @Option(name: .customLong("exclude-tags"), help: "Leave out the tests with one of these #tags (comma-separated, repeatable).")
    var excludeTags: [String] = []

    @Flag(name: .long, inversion: .prefixedNo, help: "Run the files, and the tests of each describe block, in a random order (the seed is printed); --no-shuffle overrides .busted's shuffle = true.")
    var shuffle: Bool?

    /// Text, read unconditionally: `--seed -3` is a wrong seed, not a missing one.
    @Option(name: .long, parsing: .unconditional, help: "The seed of --shuffle, to repeat an order (implies --shuffle); in a busted project the seed of math.random and randomize() only, as busted's.")
    var seed: String?

    @Flag(name: [.customShort("l"), .long], help: "List the tests a run would run (file:line: name), without running them.")
    var list = false

    @Option(name: [.customShort("o"), .long], help: "TAP (the default; for specs only, busted's: utfTerminal on a terminal, else plainTerminal), junit=FILE (TAP on stdout as well), junit (the XML on stdout), plainTerminal, utfTerminal, gtest or json.")
    var output: String?

    @Option(name: [.customShort("p"), .long], help: "busted specs: Lua patterns of spec file names (default _spec; repeatable).")
    var pattern: [String] = []

    @Option(name: .customLong("exclude-pattern"), help: "busted specs: leave out spec files whose name matches this Lua pattern.")
    var excludePattern: [String] = []

    @Option(name: [.customShort("m"), .long], help: "busted specs: put before package.path (default ./src/?.lua;./src/?/?.lua;./src/?/init.lua).")
    var lpath: [String] = []

    @Option(name: .long, help: "busted specs: a Lua file run before each spec file.")
    var helper: String?

    @Option(name: [.customShort("r"), .customLong("run")], help: "busted specs: the task of the .busted file to run (default: default).")
    var task: String?

    @Option(name: .long, help: "busted specs: real (the default: the system clock and a random seed) or virtual (2019-05-01T10:00:00Z, seed 0).")
    var clock: String?

    @Flag(name: [.customShort("v"), .long], inversion: .prefixedNo, help: "Show a failure's whole message and each test's file:line (--no-verbose overrides .busted's verbose = true).")
    var verbose: Bool?

    @Option(name: [.customShort("C"), .long], help: "busted specs: run from this folder (the project root).")
    var directory: String?

    @Option(name: .long, help: "Run the tests this many times (busted's --repeat; default 1, or .busted's repeat).")
    var `repeat`: Int?

    @Flag(name: [.customShort("c"), .long], inversion: .prefixedNo, help: "--coverage is refused: okit-run test measures no coverage (busted's LuaCov); --no-coverage overrides .busted's coverage = true.")
    var coverage: Bool?

    @Option(name: .long, help: "Refused: specs run in okit's own Lua 5.4 (busted's choice of interpreter).")
    var lua: String?

    @Flag(name: .long, help: "Write every app:snapshot(name) file anew.")
    var updateSnapshots = false

    @Flag(name: .long, help: "Fail a test whose apps logged a warning.")
    var strict = false

    /// The rest of busted 2.1.1's options (testing.md, "busted's options").
    @OptionGroup(title: "busted's options")
    var bustedOptions: BustedCommandOptions

    /// Wrong option values are usage errors shown with this command's usage (exit 2).
    func validate() throws {
        _ = try Self.seedValue(seed)
        _ = try Self.tagList(tags, option: "--tags")
        _ = try Self.tagList(excludeTags, option: "--exclude-tags")
        if let n = self.repeat, n < 1 { throw ValidationError("--repeat must be 1 or more, got \(n)") }
        _ = try namedOutputFormat(configured: nil)
    }

    func run() throws {
        do {
            try runTests()
        } catch let failure as RunFailure where failure.code == 2 && Self.unparsedExitCode() == 1 {
            // in a busted project what okit-run test refuses exits 1, as busted exits on what it refuses
            throw RunFailure(code: 1, message: failure.message)
        }
    }

    private func runTests() throws {
        if bustedOptions.version {
            StandardStreams.output("okit-run test (okit 0.1.0): busted 2.1.1's specs and okit's flow tests in \(LuaRuntimeInfo.release)\n")
            return
        }
        if output != nil { _ = try outputFormat() }   // -Xoutput for the output named, before anything runs
        try bustedOptions.refuseUnsupported()
        try refuseUnsupported(coverage: coverage == true)
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let root = directory.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL } ?? cwd
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("okit-test-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var options = FlowTestOptions()
        options.storageKinds = AppLoader.storageKinds      // the kinds okit-run gives every app, its own ones among them
        options.screenKinds = AppLoader.screenKinds
        options.remedyWording = CommandLineAdvice.words(for:)
        options.updateSnapshots = updateSnapshots
        options.strict = strict
        options.scratch = scratch
        // `print` goes to stderr (stdout carries the TAP lines), as `#` lines like TAP comments.
        options.print = { StandardStreams.error(("# " + $0.replacingOccurrences(of: "\n", with: "\n# ") + "\n")) }
        let (files, nothingFound) = try select(&options, root: root, cwd: cwd)
        try refuseUnsupported(coverage: coverage ?? options.busted?.coverage == true)
        try refuseSameTags(options)
        noteAppFilesGiven(cwd: root)
        let format = try outputFormat(configured: options.busted?.output, configuredOptions: options.busted?.outputOptions ?? [],
                                      bustedRun: Self.isBustedRun(files, options: options))
        options.verbose = verbose ?? options.busted?.verbose ?? false
        let rounds = self.repeat ?? options.busted?.repeatCount ?? 1
        var failed = false
        let report = JUnitReport(runs: rounds)
        for round in 1...rounds {
            if rounds > 1, format.isBusted {
                // busted's gtest and terminal outputs say each run (their own lines on stdout)
                StandardStreams.output("\nRepeating all tests (run \(round) of \(rounds)) . . .\n\n")
            } else if rounds > 1 {
                note("# run \(round) of \(rounds)", files: files, options: options, format: format)
            }
            failed = try runFiles(files, root: root, options: options, format: format, nothingFound: nothingFound, report: report) || failed
            if failed, options.stopOnFailure { break }
        }
        if failed { throw ExitCode(1) }
    }

    /// Tags as given: comma-separated, a leading `#` allowed (`--tags '#slow'`). An option given with no tag
    /// in it (`--tags ',,#'`) is an error: it would select or leave out nothing without saying so.
    static func tagList(_ values: [String], option: String) throws -> [String] {
        let tags = values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }
            .filter { !$0.isEmpty }
        if tags.isEmpty, !values.isEmpty {
            throw ValidationError("\(option) names no tag: give comma-separated tags such as \(option) slow,network")
        }
        return tags
    }

    /// The `--seed` value: a non-negative integer.
    static func seedValue(_ text: String?) throws -> UInt64? {
        guard let text else { return nil }
        guard let n = UInt64(text.trimmingCharacters(in: .whitespaces)) else {
            throw ValidationError("--seed must be a non-negative integer such as --seed 42, got \"\(text)\"")
        }
        return n
    }
}
