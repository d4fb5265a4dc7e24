import Foundation
import OKitEngine

/// HTTP models (storage.md "http", "encryptedHttp"): the endpoint, one storage per endpoint, pending changes.
extension LuaApp {
    /// The storage of an HTTP model. The endpoint is `OKIT_ENDPOINT`, else the model's `endpoint`, else the
    /// app's (`okit.app { endpoint = … }`, declared before the model). The data folder is opened too: it holds
    /// the lock and the outbox of changes the server has not taken (`<data>/okit/pending/`).
    func httpStorage(encrypted: Bool, model name: String, endpoint: String?) throws -> HTTPStorage {
        let what = "okit.model(…, { name = \"\(name)\", storage = \"\(encrypted ? "encryptedHttp" : "http")\" })"
        guard let text = options.endpoint ?? endpoint ?? appEndpoint else {
            throw LuaRaise("\(what): no endpoint: give endpoint = \"http://host:port/path\" in okit.model, declare okit.app { endpoint = … } before the model, or set OKIT_ENDPOINT")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil else {
            throw LuaRaise("\(what): endpoint \"\(text)\" is not an http:// or https:// URL with a host")
        }
        let files = try dataFolderStorage()
        let id = "\(encrypted ? "sealed" : "plain") \(url.absoluteString)"
        if let existing = httpStorages[id] { return existing }
        let token = options.endpointToken.flatMap { $0.isEmpty ? nil : $0 }
        let s: HTTPStorage
        do {
            s = try HTTPStorage(endpoint: url, dataFolder: files.dataFolder, encrypted: encrypted,
                                passphrase: options.passphrase, token: token, timeout: options.httpTimeout)
        } catch {
            throw LuaRaise("\(what): the data folder's key: \(error)")
        }
        httpStorages[id] = s
        return s
    }

    /// The HTTP models with changes their server has not taken yet (kept in `<data>/okit/pending/`), sorted.
    public var pendingHTTPModels: [String] {
        Array(Set(httpStorages.values.flatMap { $0.pendingModels() })).sorted()
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
