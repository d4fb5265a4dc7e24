import Foundation

/// The `http` and `encryptedHttp` storage kinds (storage.md "http", "encryptedHttp").
extension HTTPStorage {
    /// The storage of an HTTP model (`encryptedHttp`: every body sealed). The endpoint is the process's
    /// `endpoint` setting, else the model's `endpoint`, else the app's (`okit.app { endpoint = … }`, declared
    /// before the model); `endpointToken`, `httpTimeout` and `httpMaxBody` (bytes) are settings of the process. The data folder is opened
    /// too: it holds the lock and the outbox of changes the server has not taken (`<data>/okit/pending/`). One
    /// storage per (endpoint, sealed or not), shared by the models that use it.
    public static func factory(_ r: StorageRequest) throws -> ModelStorage {
        let encrypted = r.kind == .encryptedHttp
        guard let text = try r.option("endpoint", expected: "a URL string", example: "http://127.0.0.1:8080/okit") else {
            throw StorageOptionError(kind: r.kind, option: "endpoint", reason: .missing(example: "http://host:port/path"))
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil else {
            throw StorageOptionError(kind: r.kind, option: "endpoint",
                                     reason: .invalid(value: text, problem: "is not an http:// or https:// URL with a host", example: nil))
        }
        let files = try r.host.dataFolderStorage()
        return try r.host.sharedStorage("\(encrypted ? "sealed" : "plain") \(url.absoluteString)") {
            let token = r.host.setting("endpointToken").flatMap { $0.isEmpty ? nil : $0 }
            let timeout = r.host.setting("httpTimeout").flatMap(TimeInterval.init) ?? 10
            let maxBody = r.host.setting("httpMaxBody").flatMap(Int.init) ?? HTTPClient.defaultMaxBody
            do {
                let storage = try HTTPStorage(endpoint: url, dataFolder: files.dataFolder, encrypted: encrypted,
                                              passphrase: r.host.passphrase, token: token, timeout: timeout, maxBody: maxBody)
                storage.remedyWording = r.host.remedyWording
                return storage
            } catch {
                throw StorageOptionError(kind: r.kind, reason: .key(sealing: false), underlying: error)
            }
        }
    }
}

/// A change the server did not take stays in the outbox (`<data>/okit/pending/`) and is sent later; a conflict is
/// resolved with `resolveConflict` (`okit-run sync`).
extension HTTPStorage: ConflictResolvingStorage {
    public func keepsFailedStorePending(_ model: String) -> Bool { true }
}
