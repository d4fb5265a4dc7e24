import Foundation
import OKitEngine

/// HTTP models (storage.md "http", "encryptedHttp"): pending changes, conflicts (the storage kind: `HTTPStorage+Kind`).
extension LuaApp {
    /// The HTTP models with changes their server has not taken yet (kept in `<data>/okit/pending/`), sorted.
    public var pendingHTTPModels: [String] {
        Array(Set(sharedStorages.values.compactMap { $0 as? HTTPStorage }.flatMap { $0.pendingModels() })).sorted()
    }

    /// Resolves the HTTP models with a pending change or a conflict (`okit-run sync`): keeps the local copy
    /// (sent over the server's) or takes the server's (the local change dropped). Returns the models resolved.
    @discardableResult
    public func resolveHTTPConflicts(keepLocal: Bool, model only: String? = nil) throws -> [String] {
        var done: [String] = []
        for model in engine.models where only == nil || model.name == only {
            guard let s = engine.storage(of: model.name) as? HTTPStorage else { continue }
            guard s.isConflicted(model.name) || s.pendingModels().contains(model.name) else { continue }
            try s.resolveConflict(model, engine: engine, keepLocal: keepLocal)
            done.append(model.name)
        }
        return done
    }

    /// Stores the state at exit (`okit-run`): every model is attempted. A model whose server did not take its
    /// change keeps it pending on disk and is returned with the reason, to warn about; any other failure is
    /// thrown after the others were stored.
    public func storeStateKeepingPending() throws -> [(model: String, reason: String)] {
        try applyEncryptionSettingBeforeStoring()
        var pending: [(model: String, reason: String)] = []
        var firstError: Error?
        for m in engine.stateModels {
            do { _ = try engine.store(m) } catch {
                if engine.storage(of: m.name) is HTTPStorage { pending.append((m.name, "\(error)")) }
                else if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
        let failed = Set(pending.map(\.model))
        for name in pendingHTTPModels where !failed.contains(name) { pending.append((name, "not sent yet")) }
        return pending
    }
}
