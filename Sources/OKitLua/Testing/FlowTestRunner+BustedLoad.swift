import Foundation
import OKitEngine

extension FlowTestResult {
    /// An error busted reports outside every test and file run (`untraced`): a spec file that does not compile,
    /// named by its path (`file`), or no spec file found (`file` and `name` empty, the message busted's
    /// `No test files found matching Lua pattern: …`).
    public static func untracedError(file: String, message: String) -> FlowTestResult {
        var r = FlowTestResult(file: file, name: file, status: .fail, message: message, location: nil, seconds: 0)
        r.isSpec = true
        r.isError = true
        r.isBlockFailure = true
        r.untraced = true
        return r
    }
}

extension FlowTestRunner {
    /// Whether the run is busted's: a busted project's spec files only (none when none was found in it).
    func isBustedRun(_ files: [URL]) -> Bool {
        options.busted != nil && files.allSatisfy(isSpec)
    }

    /// busted's loading of the spec files, before any test runs: each that does not compile is an error named by
    /// its path, with Lua's message, and does not run (nor takes a place in a shuffle); the others, in their order.
    func compiled(_ files: [URL], display: (URL) -> String) -> (files: [URL], errors: [FlowTestResult]) {
        var runnable: [URL] = []
        var errors: [FlowTestResult] = []
        for f in files {
            guard let bytes = FileManager.default.contents(atPath: f.path), let lua = try? LuaState(memoryLimit: 64 << 20) else {
                runnable.append(f)
                continue
            }
            defer { lua.close() }
            do {
                try BustedModuleSearch.loadAsLua(lua, bytes: [UInt8](bytes), chunkName: display(f))
                runnable.append(f)
            } catch {
                errors.append(.untracedError(file: display(f), message: Remedy.message(for: error, wording: options.remedyWording)))
            }
        }
        return (runnable, errors)
    }

    /// busted's message when no spec file is found: the pattern, or each of several on a line of its own.
    public static func noSpecFilesMessage(patterns: [String]) -> String {
        let pattern = patterns.count > 1 ? "\n\t" + patterns.joined(separator: "\n\t") : patterns.first ?? ""
        return "No test files found matching Lua pattern: " + pattern
    }
}
