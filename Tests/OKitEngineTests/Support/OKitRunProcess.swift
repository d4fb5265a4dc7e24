import Foundation

/// Runs the built `okit-run` as a user would, with a clean environment for okit's variables.
enum OKitRunProcess {
    static let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/okit-run")

    /// `okit-run ARGS [--script FILE]`, with `env` over the test's environment (OKIT_ENDPOINT and
    /// OKIT_PASSPHRASE removed first) and `stdin` as its input.
    static func run(_ args: [String], env: [String: String] = [:], script: String? = nil, stdin: String = "",
                    in folder: TempFolder) throws -> (code: Int32, out: String, err: String) {
        var args = args
        if let script {
            let url = folder.url.appendingPathComponent("script-\(UUID().uuidString).lua")
            try script.write(to: url, atomically: true, encoding: .utf8)
            args += ["--script", url.path]
        }
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        var environment = ProcessInfo.processInfo.environment
        environment["OKIT_ENDPOINT"] = nil
        environment["OKIT_PASSPHRASE"] = nil
        for (k, v) in env { environment[k] = v }
        p.environment = environment
        let input = Pipe(), out = Pipe(), err = Pipe()
        p.standardInput = input
        p.standardOutput = out
        p.standardError = err
        try p.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}
