import Crypto
import Foundation

/// Retired keys (`keys/retired`): each passphrase change keeps the keys it replaced, sealed under the new key,
/// so what was sealed before the change and lives elsewhere — an `encryptedHttp` model's copy on its server, a
/// backup made before the change — still opens with the new passphrase (and is re-sealed with the new key when
/// it is written again). Only the current key opens the file: the old passphrase gives nothing new.
///
/// Format: `OKITRET1`, then each retired key sealed under the current key (`SealedFile`, 76 bytes each).
extension KeyChange {
    static let retiredMagic = Array("OKITRET1".utf8)

    /// The retired keys that any of `keys` opens (none without the file).
    static func retiredKeys(_ f: Files, openedWith keys: [SymmetricKey]) throws -> [SymmetricKey] {
        guard let bytes = try AtomicFile.read(f.retired) else { return [] }
        let size = Marker.blobSize
        guard bytes.count >= retiredMagic.count, bytes.prefix(retiredMagic.count).elementsEqual(retiredMagic),
              (bytes.count - retiredMagic.count) % size == 0 else {
            throw KeyChangeError(.noKey, path: f.retired, "\(f.retired) is damaged (the keys replaced by earlier passphrase changes); restore it from a copy")
        }
        var out: [SymmetricKey] = []
        for start in stride(from: retiredMagic.count, to: bytes.count, by: size) {
            let blob = Array(bytes[start..<start + size])
            guard let id = sealedKeyId(blob), let key = keys.first(where: { SealedFile.keyId($0) == id }),
                  let plain = try? SealedFile.open(blob, key: key), plain.count == keySize else { continue }
            let k = SymmetricKey(data: plain)
            if !out.contains(where: { SealedFile.keyId($0) == SealedFile.keyId(k) }) { out.append(k) }
        }
        return out
    }

    /// Writes `keys/retired` with `retired` (minus `current`) sealed under `current` (atomically, mode 0600).
    static func writeRetired(_ f: Files, _ retired: [SymmetricKey], current: SymmetricKey) throws {
        let currentId = SealedFile.keyId(current)
        var seen: Set<[UInt8]> = [currentId]
        var out = retiredMagic
        for k in retired where seen.insert(SealedFile.keyId(k)).inserted {
            out += try SealedFile.seal(k.withUnsafeBytes { Array($0) }, key: current)
        }
        try writeSecret(f.retired, out)
    }
}
