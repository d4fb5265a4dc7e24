import Foundation

/// Autosave (`okit.app { autosave = seconds }`) and what a person is told when it fails (cli.md "Storing,
/// stopping and warnings"): a failure is said once per streak, in words — which model, which file, why — as a
/// warning (each front end shows it: the terminal's `warning:` line, the JSON-lines answer's `warnings`) or in
/// the server's log; when a store works again that is said once too. The changes stay in memory meanwhile.
extension AppSession {
    /// A repeating timer on the app clock that stores the state; the next one tries again after a failure.
    /// Nothing is stored while every shell is covered.
    public func startAutosave() {
        guard let seconds = autosaveSeconds, autosaveTimer == nil else { return }
        autosaveTimer = timers.schedule(at: engine.clock.now.addingTimeInterval(seconds), every: seconds) { [unowned self] in
            guard !allCovered else { return }
            autosave()
        }
    }

    /// One autosave: the state stored, a failure (or the first success after failures) reported.
    func autosave() {
        do {
            try storeStateNamingModel()
            if autosaveFailure != nil {
                autosaveFailure = nil
                report("autosave works again: your changes are stored")
            }
        } catch {
            let text = AppSession.autosaveFailureText(error)
            guard text != autosaveFailure else { return }
            autosaveFailure = text
            report(text)
        }
    }

    /// A line for the server's log when the front end keeps one (`SessionOptions.log`), else a warning that is
    /// said again each time it happens.
    private func report(_ text: String) {
        if let log = options.log { log(LogLine(text, warning: true)) } else { engine.warn(text, repeating: true) }
    }

    /// `autosave could not store model "default" (default.json: no space left on the disk); …`: the model's
    /// file by its name (the folder is the data folder), the system's reason in words.
    static func autosaveFailureText(_ error: any Error) -> String {
        var e = error
        var model: String?
        if let named = error as? ModelNotStored { model = named.model; e = named.error }
        let what = model.map { "model \"\($0)\"" } ?? "the state"
        guard let storage = e as? StorageError else {
            return "autosave could not store \(what) (\(e)); your changes are kept in memory and stored when autosave works again"
        }
        let file = (storage.path as NSString).lastPathComponent
        let reason = storage.systemError.map { AtomicFile.reason($0) } ?? storage.message
        let full = storage.systemError == ENOSPC || storage.systemError == EDQUOT
        return "autosave could not store \(what) (\(file): \(reason)); your changes are kept in memory and stored "
            + (full ? "when there is room" : "when autosave works again")
    }

    /// `storeState`, the first failure naming its model (`ModelNotStored`); every model is attempted.
    func storeStateNamingModel() throws {
        try applyEncryptionSettingBeforeStoring()
        var first: ModelNotStored?
        for m in engine.stateModels {
            do { _ = try engine.store(m) } catch { if first == nil { first = ModelNotStored(model: m.name, error: error) } }
        }
        if let first { throw first }
    }
}

/// A model whose store failed (`error`), named.
public struct ModelNotStored: Error, CustomStringConvertible {
    public let model: String
    public let error: any Error
    public var description: String { "model \"\(model)\" is not stored: \(error)" }
}
