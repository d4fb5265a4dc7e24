import Foundation

extension HTTPStorage {
    /// An HTTP storage whose bodies, when `encrypted`, are sealed with the data folder's key (the passphrase
    /// or `keys/data.key`, created on first use; during an unfinished passphrase change, the current key). Bodies
    /// sealed with a key a passphrase change retired still open, and the model is written again with the key.
    public convenience init(endpoint: URL, dataFolder: URL, encrypted: Bool, passphrase: String?, token: String?,
                            timeout: TimeInterval = 10, maxBody: Int = HTTPClient.defaultMaxBody) throws {
        let keys = encrypted ? try KeyChange.keys(dataFolder: dataFolder, passphrase: passphrase) : []
        self.init(endpoint: endpoint, dataFolder: dataFolder, encrypted: encrypted, key: keys.first, token: token, timeout: timeout,
                  maxBody: maxBody)
        openingKeys = Array(keys.dropFirst())
    }
}
