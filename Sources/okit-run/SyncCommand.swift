import ArgumentParser
import Foundation
import OKitEngine
import OKitLua

/// `okit-run sync --keep-local | --take-remote` (storage.md "http"): resolves the conflict of an HTTP model
/// whose server refused a change (412), or sends/drops a change left pending.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Resolve a conflict of an app's HTTP models.",
        discussion: """
        A change the server refused (412: someone else changed the server's copy) or could not take stays in \
        <data>/okit/pending/. --keep-local sends it over the server's copy; --take-remote drops it and keeps \
        the server's copy. The app must not be running on the same data folder.
        """
    )

    @OptionGroup var options: AppOptions

    @Option(name: .long, help: "Only this model (default: every HTTP model with a pending change).")
    var model: String?

    @Flag(name: .long, help: "Send the local copy over the server's.")
    var keepLocal = false

    @Flag(name: .long, help: "Drop the local change and take the server's copy.")
    var takeRemote = false

    func validate() throws {
        guard keepLocal != takeRemote else { throw ValidationError("give one of --keep-local and --take-remote") }
    }

    func run() throws {
        let luaApp = try AppLoader.sync.load(options)
        if let model, luaApp.engine.model(named: model) == nil {
            let names = luaApp.engine.models.map(\.name).joined(separator: ", ")
            throw RunFailure(code: 2, message: "okit-run sync: the app has no model \"\(model)\" (its models: \(names))")
        }
        let done: [String]
        do {
            done = try luaApp.session.resolveHTTPConflicts(keepLocal: keepLocal, model: model)
        } catch {
            throw RunFailure(code: 4, message: "okit-run sync: \(CommandLineAdvice.message(for: error))")
        }
        try RunApp.storeAndCompact(luaApp)
        if done.isEmpty {
            print("nothing to resolve: no HTTP model has a pending change")
        } else {
            let how = keepLocal ? "sent the local copy of" : "took the server's copy of"
            print("\(how) " + done.map { "\"\($0)\"" }.joined(separator: ", "))
        }
    }
}
