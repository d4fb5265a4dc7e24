import Foundation

/// The okit-run under test and the repository it was built from.
public enum OKitRun {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The okit-run built beside the test bundle (the build under test), else the package's debug build.
    public static let binary: URL = {
        let sibling = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("okit-run")
        if FileManager.default.isExecutableFile(atPath: sibling.path) { return sibling }
        let bundle = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("okit-run")
        if FileManager.default.isExecutableFile(atPath: bundle.path) { return bundle }
        return root.appendingPathComponent(".build/debug/okit-run")
    }()

    /// okit-run has been built.
    public static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    /// `okit-run ARGS [--script FILE]` as a user runs it: OKIT_ENDPOINT and OKIT_PASSPHRASE removed from the
    /// test's environment, then `env` laid over it; `script` is written to a file in `folder`.
    public static func run(_ args: [String], env: [String: String] = [:], script: String? = nil,
                           stdin: ChildStream = .null, in folder: TempFolder,
                           timeout: Double = ChildProcess.defaultTimeout) throws -> ChildResult {
        var args = args
        if let script {
            let url = folder.url.appendingPathComponent("script-\(UUID().uuidString).lua")
            try script.write(to: url, atomically: true, encoding: .utf8)
            args += ["--script", url.path]
        }
        var environment: [String: String?] = ["OKIT_ENDPOINT": nil, "OKIT_PASSPHRASE": nil]
        for (k, v) in env { environment[k] = v }
        return try ChildProcess.run(binary.path, args, stdin: stdin, environment: environment, timeout: timeout)
    }

    /// `okit-run ARGS` with `stdin`, the test's environment as it is.
    public static func run(_ args: [String], stdin: ChildStream = .null, environment: [String: String?] = [:],
                           timeout: Double = ChildProcess.defaultTimeout) throws -> ChildResult {
        try ChildProcess.run(binary.path, args, stdin: stdin, environment: environment, timeout: timeout)
    }
}
