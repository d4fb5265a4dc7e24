import Foundation
import Testing
import OKitTestSupport

/// A suite that compares `okit-run test` with busted 2.1.1: a project's files in a temporary folder, and the test
/// command run on it from its root (`-C`), as a person runs it.
protocol BustedProjectSuite {}

extension BustedProjectSuite {
    func project(_ files: [String: String]) throws -> TempFolder {
        let folder = try TempFolder()
        for (name, text) in files { try folder.put(name, text) }
        return folder
    }

    func run(_ folder: TempFolder, _ args: [String]) throws -> ChildResult {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        return try OKitRun.run(["test", "-C", folder.path] + BustedTAP.arguments(args, root: folder.url))
    }
}

/// The arguments of a test that reads TAP from a busted run: `-o TAP` added unless they name an output or the
/// project's `.busted` does (a busted run's default is busted's terminal output, testing.md "Output").
enum BustedTAP {
    static func arguments(_ args: [String], root: URL) -> [String] {
        let named = args.contains { $0 == "-o" || $0 == "--output" || $0.hasPrefix("--output=") || ($0.hasPrefix("-o") && !$0.hasPrefix("-o-")) }
        let file = args.firstIndex(of: "-f").flatMap { $0 + 1 < args.count ? URL(fileURLWithPath: args[$0 + 1], relativeTo: root) : nil }
        let config = (try? String(contentsOf: file ?? root.appendingPathComponent(".busted"), encoding: .utf8)) ?? ""
        return named || config.contains("output") ? args : ["-o", "TAP"] + args
    }
}
