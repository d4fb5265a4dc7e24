import ArgumentParser
import Foundation
import OKitLua

/// busted 2.1.1's options besides those `TestCommand` declares itself (testing.md, "busted's options"): each is
/// done as busted does it, or refused with a line that names it and says what to do; none is ignored.
struct BustedCommandOptions: ParsableArguments {
    @Flag(name: .customLong("shuffle-files"), inversion: .prefixedNo, help: "Run the files in a random order.")
    var shuffleFiles: Bool?

    @Flag(name: .customLong("shuffle-tests"), inversion: .prefixedNo, help: "Run the tests of each block in a random order.")
    var shuffleTests: Bool?

    @Flag(name: .long, inversion: .prefixedNo, help: "--sort-files and --sort-tests (they win over a shuffle, as busted's).")
    var sort: Bool?

    @Flag(name: .customLong("sort-files"), inversion: .prefixedNo, help: "Run the files sorted by path (okit-run test always does).")
    var sortFiles: Bool?

    @Flag(name: .customLong("sort-tests"), inversion: .prefixedNo, help: "Run the tests and blocks of each block sorted by name.")
    var sortTests: Bool?

    @Flag(name: .customLong("suppress-pending"), inversion: .prefixedNo, help: "Leave pending tests out of the output and the counts.")
    var suppressPending: Bool?

    @Flag(name: [.customShort("k"), .customLong("keep-going")], inversion: .prefixedNo, help: "Go on after a failure (the default); --no-keep-going stops at the first failure or error.")
    var keepGoing: Bool?

    @Flag(name: .customLong("auto-insulate"), inversion: .prefixedNo, help: "Accepted: every test file runs in a fresh Lua state, insulated either way.")
    var autoInsulate: Bool?

    @Flag(name: .customLong("defer-print"), inversion: .prefixedNo, help: "Terminal outputs: no marks as tests run; gtest: each message in the closing lists.")
    var deferPrint: Bool?

    @Option(name: .customShort("e"), parsing: .unconditionalSingleValue, help: "A Lua statement run in each test file's state before the file (repeatable).")
    var statements: [String] = []

    @Option(name: [.customShort("f"), .customLong("config-file")], help: "Read the tasks from this file instead of .busted.")
    var configFile: String?

    @Option(name: .long, help: "busted specs: put before the C module path (a C module found is still refused, and named).")
    var cpath: [String] = []

    @Flag(name: .long, help: "Print what okit-run test is, in one line.")
    var version = false

    @Option(name: .long, help: "en only: okit-run test's messages are English.")
    var lang: String?

    @Option(name: .long, help: "lua only: spec files are Lua files.")
    var loaders: [String] = []

    @Option(name: .customLong("Xoutput", withSingleDash: true), parsing: .unconditionalSingleValue, help: "-o junit: the file to write the XML to; terminal and gtest outputs: --plain.")
    var outputOptions: [String] = []

    @Option(name: .customLong("Xhelper", withSingleDash: true), parsing: .unconditionalSingleValue, help: "Options the helper sees as arg (comma-separated, repeatable).")
    var helperOptions: [String] = []

    @Flag(name: .long, inversion: .prefixedNo, help: "Accepted: setup and teardown run only in a block with a test to run, as lazy_setup.")
    var lazy: Bool?

    @Flag(name: [.customShort("R"), .long], inversion: .prefixedNo, help: "Search spec folders below their top level (the default).")
    var recursive: Bool?

    @Flag(name: [.customShort("s"), .customLong("enable-sound")], inversion: .prefixedNo, help: "Refused: okit-run test plays no sound.")
    var enableSound: Bool?

    @Flag(name: .customLong("ignore-lua"), help: "Run in okit-run's own Lua even when --lua names another (busted's meaning).")
    var ignoreLua = false

    @Option(name: .customLong("coverage-config-file"), help: "Refused: okit-run test measures no coverage.")
    var coverageConfigFile: String?

    /// Stops the run (exit 2) for an option okit-run test does not do, naming it and what to do.
    func refuseUnsupported() throws {
        func refuse(_ text: String) -> RunFailure { RunFailure(code: 2, message: "okit-run test: " + text) }
        if let lang, lang.lowercased() != "en" {
            throw refuse("--lang \(lang) is not supported: okit-run test writes its messages in English only; run without --lang")
        }
        for loader in loaders.flatMap({ $0.split(separator: ",") }) where loader.trimmingCharacters(in: .whitespaces) != "lua" {
            throw refuse("--loaders \(loader) is not supported: okit-run test loads Lua spec files only (--loaders lua)")
        }
        if enableSound == true {
            throw refuse("-s/--enable-sound is not supported: okit-run test plays no sound; run without it")
        }
        if coverageConfigFile != nil {
            throw refuse("--coverage-config-file is not supported: okit-run test measures no coverage (busted's LuaCov); run without it")
        }
    }

    /// `-Xoutput` (or `.busted`'s `Xoutput`) for the output chosen: `-o junit` takes the file its XML goes to (nothing on stdout then, as
    /// busted's), the terminal and gtest outputs take `--plain` (they print no colours anyway); anything else is refused.
    func apply(to format: TestOutputFormat, configured: [String] = []) throws -> TestOutputFormat {
        // the command line's -Xoutput, else .busted's Xoutput (busted's merge: the command line's replaces it)
        let given = outputOptions.isEmpty ? configured : outputOptions.flatMap { $0.split(separator: ",").map(String.init) }
        guard !given.isEmpty else { return format }
        let option = outputOptions.isEmpty ? ".busted's Xoutput" : "-Xoutput"
        switch format {
        case .junit:
            guard given.count == 1, let file = given.first, !file.hasPrefix("-") else { break }
            return .junitXMLFile(file)
        case .terminal, .gtest:
            if given.allSatisfy({ $0 == "--plain" }) { return format }
            if given.contains("--color") {
                throw RunFailure(code: 2, message: "okit-run test: \(option) --color is not supported: okit-run test prints without colours; run without it")
            }
        default: break
        }
        throw RunFailure(code: 2, message: "okit-run test: \(option) \(given.joined(separator: ",")) is not read by this output: "
            + "-Xoutput takes the file of -o junit (-o junit -Xoutput report.xml), or --plain for the terminal and gtest outputs")
    }
}

extension TestCommand {
    /// The order and stopping of a run: `--shuffle` (or `--shuffle-files`, `--shuffle-tests`) with a seed,
    /// `--sort…` (which wins over a shuffle, as in busted's code), `--no-keep-going`, `--suppress-pending`, `-e`;
    /// the command line first, then the `.busted` task.
    func order(_ options: inout FlowTestOptions, project: BustedProject?) throws {
        let o = bustedOptions
        let flags = project?.flags ?? [:]
        // busted's --seed seeds math.random only; outside a busted project it names a shuffle's order
        let seeded = seed != nil && project == nil
        var files = o.shuffleFiles ?? shuffle ?? flags["shuffle-files"] ?? (project?.shuffle == true || seeded)
        var tests = o.shuffleTests ?? shuffle ?? flags["shuffle-tests"] ?? (project?.shuffle == true || seeded)
        if sortsFiles(project) { files = false }
        options.sortTests = o.sortTests ?? o.sort ?? flags["sort-tests"] ?? flags["sort"] ?? false
        if options.sortTests { tests = false }
        if files || tests {
            // a busted project's one seed (busted's randomseed): the shuffle's, math.random's and randomize()'s
            options.shuffleSeed = try Self.seedValue(seed) ?? project?.randomSeed ?? project?.seed ?? UInt64.random(in: 1...999_999_999)
            options.shuffleFiles = files
            options.shuffleTests = tests
        }
        options.stopOnFailure = !(o.keepGoing ?? flags["keep-going"] ?? true)
        options.suppressPending = o.suppressPending ?? flags["suppress-pending"] ?? false
        options.statements = o.statements.isEmpty ? project?.statements ?? [] : o.statements
    }

    /// busted's `--sort-files` (or `--sort`), from the command line or the `.busted` task.
    func sortsFiles(_ project: BustedProject?) -> Bool {
        let flags = project?.flags ?? [:]
        return bustedOptions.sortFiles ?? bustedOptions.sort ?? flags["sort-files"] ?? flags["sort"] ?? false
    }

    /// busted's `--defer-print`, from the command line or the `.busted` task.
    func deferPrint(_ options: FlowTestOptions) -> Bool {
        bustedOptions.deferPrint ?? options.busted?.flags["defer-print"] ?? false
    }

    /// A tag both selected and left out (`--tags`, `--exclude-tags`, either from `.busted`) stops the run, as busted
    /// stops it (exit 1).
    func refuseSameTags(_ options: FlowTestOptions) throws {
        guard let tag = options.tags.first(where: options.excludeTags.contains) else { return }
        throw RunFailure(code: 1, message: "okit-run test: cannot use --tags and --exclude-tags for the same tags (\(tag)): "
            + "name each tag in one of them only (.busted's tags and exclude-tags count too)")
    }
}

extension TestOutputFormat {
    /// busted's own outputs that say each run of `--repeat` (gtest, the terminal outputs).
    var isBusted: Bool {
        switch self {
        case .gtest, .terminal: return true
        default: return false
        }
    }
}
