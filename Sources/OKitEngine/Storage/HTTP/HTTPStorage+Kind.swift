import Foundation

/// The `http` and `encryptedHttp` storage kinds (storage.md "http", "encryptedHttp").
extension HTTPStorage {
    /// The storage of an HTTP model. The endpoint is `OKIT_ENDPOINT`, else the model's `endpoint`, else the
    /// app's (`okit.app { endpoint = … }`, declared before the model). The data folder is opened too: it holds
    /// the lock and the outbox of changes the server has not taken (`<data>/okit/pending/`). One storage per
    /// (endpoint, sealed or not), shared by the models that use it.
    static func factory(_ r: StorageRequest, encrypted: Bool) throws -> ModelStorage {
        guard let text = r.host.endpointOverride ?? r.endpoint ?? r.host.appEndpoint else {
            throw StorageOptionError.noEndpoint
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil else {
            throw StorageOptionError.notAnHTTPURL(text)
        }
        let files = try r.host.dataFolderStorage()
        return try r.host.sharedStorage("\(encrypted ? "sealed" : "plain") \(url.absoluteString)") {
            let token = r.host.endpointToken.flatMap { $0.isEmpty ? nil : $0 }
            do {
                let storage = try HTTPStorage(endpoint: url, dataFolder: files.dataFolder, encrypted: encrypted,
                                              passphrase: r.host.passphrase, token: token, timeout: r.host.httpTimeout)
                storage.remedyWording = r.host.remedyWording
                return storage
            } catch {
                throw StorageOptionError.key(error, sealing: false)
            }
        }
    }
}
