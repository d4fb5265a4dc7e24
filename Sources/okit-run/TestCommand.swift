import ArgumentParser
import Foundation
import OKitBackends
import OKitLua

/// `okit-run test [paths] [--filter P] [--tags T,…] [--exclude-tags T,…] [--shuffle [--seed N]] [--list]
/// [--output tap|junit=FILE] [--update-snapshots] [--strict]`.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run flow tests (*_test.lua) with busted's vocabulary.",
        discussion: "With no path: every *_test.lua under tests/, apptests/ and examples/*/tests/. The last line is `N passed, N failed`."
    )

    @Argument(help: "Test files or folders.")
    var paths: [String] = []

    @Option(name: .long, help: "Run only the tests whose full name matches this Lua pattern (or contains it).")
    var filter: String?

    @Option(name: .long, help: "Run only the tests with one of these #tags in their full name (comma-separated, repeatable).")
    var tags: [String] = []

    @Option(name: .customLong("exclude-tags"), help: "Leave out the tests with one of these #tags (comma-separated, repeatable).")
    var excludeTags: [String] = []

    @Flag(name: .long, help: "Run the files, and the tests of each describe block, in a random order (the seed is printed).")
    var shuffle = false

    /// Text, read unconditionally: `--seed -3` is a wrong seed, not a missing one.
    @Option(name: .long, parsing: .unconditional, help: "The seed of --shuffle, to repeat an order (implies --shuffle).")
    var seed: String?

    @Flag(name: .long, help: "List the tests a run would run (file:line: name), without running them.")
    var list = false

    @Option(name: .long, help: "tap (the default) or junit=FILE (TAP on stdout as well).")
    var output: String = "tap"

    @Flag(name: .long, help: "Write every app:snapshot(name) file anew.")
    var updateSnapshots = false

    @Flag(name: .long, help: "Fail a test whose apps logged a warning.")
    var strict = false

    /// Wrong option values are usage errors shown with this command's usage (exit 2).
    func validate() throws {
        _ = try Self.seedValue(seed)
        _ = try Self.tagList(tags, option: "--tags")
        _ = try Self.tagList(excludeTags, option: "--exclude-tags")
    }

    func run() throws {
        var junitFile: String?
        if output.hasPrefix("junit=") {
            junitFile = String(output.dropFirst("junit=".count))
            guard junitFile?.isEmpty == false else { throw ValidationError("--output junit=FILE needs a file name") }
        } else if output != "tap" {
            throw ValidationError("--output must be tap or junit=FILE, got \"\(output)\"")
        }
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("okit-test-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var options = FlowTestOptions()
        options.storageKinds = .builtIn
        options.remedyWording = CommandLineAdvice.words(for:)
        options.filter = filter
        options.tags = try Self.tagList(tags, option: "--tags")
        options.excludeTags = try Self.tagList(excludeTags, option: "--exclude-tags")
        if shuffle || seed != nil { options.shuffleSeed = try Self.seedValue(seed) ?? UInt64.random(in: 1...999_999_999) }
        options.updateSnapshots = updateSnapshots
        options.strict = strict
        options.scratch = scratch
        // `print` goes to stderr (stdout carries the TAP lines), as `#` lines like TAP comments.
        options.print = { StandardStreams.error(("# " + $0.replacingOccurrences(of: "\n", with: "\n# ") + "\n")) }
        let files: [URL]
        do { files = try FlowTestRunner.discover(paths, root: root) } catch {
            throw RunFailure(code: 2, message: "okit-run test: \(CommandLineAdvice.message(for: error))")
        }
        let runner = FlowTestRunner(options: options)
        if let seed = options.shuffleSeed {
            // A TAP comment: the run (or the list) can be repeated in the same order.
            StandardStreams.output("# shuffled with --seed \(seed)\n")
        }
        if list {
            let broken = runner.list(files, root: root) { StandardStreams.output($0 + "\n") }
            if files.isEmpty { throw RunFailure(code: 1, message: "okit-run test: no *_test.lua files found") }
            if broken > 0 { throw ExitCode(1) }
            return
        }
        let totals = runner.run(files, root: root) { line in
            StandardStreams.output((line + "\n"))
        }
        if let junitFile {
            do { try Data(runner.junit().utf8).write(to: URL(fileURLWithPath: junitFile), options: .atomic) } catch {
                throw RunFailure(code: 2, message: "okit-run test: cannot write \(junitFile): \(error.localizedDescription)")
            }
        }
        if files.isEmpty { throw RunFailure(code: 1, message: "okit-run test: no *_test.lua files found") }
        if totals.failed > 0 { throw ExitCode(1) }
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
