import Crypto
import Foundation
import OKitEngine

/// What the model files of a data folder hold (`<data>/okit/data/`): each file's name with the SHA-256 of its
/// bytes. Development mode takes it when the app has loaded; a recording started while it is still the same
/// starts from the app's seed (its test launches fresh), else from a copy of the files (`FlowTestFixtures`).
enum DataFingerprint {
    /// The fingerprint of `dataFolder`'s model files; empty when there are none.
    static func of(_ dataFolder: URL) -> [String: String] {
        let fm = FileManager.default
        let models = URL(fileURLWithPath: DataFolder(dataFolder).models, isDirectory: true)
        let files = (try? fm.contentsOfDirectory(at: models, includingPropertiesForKeys: [.isRegularFileKey])) ?? []
        var out: [String: String] = [:]
        for file in files where !file.lastPathComponent.hasPrefix(".") {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                  let bytes = try? Data(contentsOf: file) else { continue }
            out[file.lastPathComponent] = Hex.encode(SHA256.hash(data: bytes))
        }
        return out
    }
}
