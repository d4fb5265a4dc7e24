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
        return try OKitRun.run(["test", "-C", folder.path] + args)
    }
}
