import Foundation

extension HTTPStorage {
    /// An HTTP storage whose bodies, when `encrypted`, are sealed with the data folder's key (`OKIT_PASSPHRASE`
    /// or `keys/data.key`, created on first use; during an unfinished passphrase change, the current key).
    public convenience init(endpoint: URL, dataFolder: URL, encrypted: Bool, passphrase: String?, token: String?,
                            timeout: TimeInterval = 10) throws {
        let key = encrypted ? try KeyChange.keys(dataFolder: dataFolder, passphrase: passphrase).first : nil
        self.init(endpoint: endpoint, dataFolder: dataFolder, encrypted: encrypted, key: key, token: token, timeout: timeout)
    }
}
