import ArgumentParser
import Foundation
import OKitLua

/// `okit-run test [paths] [--filter P] [--output tap|junit=FILE] [--update-snapshots] [--strict]`.
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

    @Option(name: .long, help: "tap (the default) or junit=FILE (TAP on stdout as well).")
    var output: String = "tap"

    @Flag(name: .long, help: "Write every app:snapshot(name) file anew.")
    var updateSnapshots = false

    @Flag(name: .long, help: "Fail a test whose apps logged a warning.")
    var strict = false

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
        options.filter = filter
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
}
