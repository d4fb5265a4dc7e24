import Crypto
import CryptoExtras
import Foundation
import Synchronization

/// The keys of a data folder: derived from a passphrase, read from the key file, and which of them opens a file.
extension KeyChange {
    /// Derived keys, cached per (passphrase, salt) within the process (storage.md "Keys").
    private static let derived = Mutex<[[UInt8]: SymmetricKey]>([:])

    /// PBKDF2-SHA256 with `DataKeys.rounds`, as `DataKeys.key` derives it.
    static func derive(_ passphrase: String, salt: [UInt8]) throws -> SymmetricKey {
        let tag = Array(Crypto.SHA256.hash(data: salt + [0] + Array(passphrase.utf8)))
        if let key = derived.withLock({ $0[tag] }) { return key }
        let key = try KDF.Insecure.PBKDF2.deriveKey(from: Array(passphrase.utf8), salt: salt, using: .sha256,
                                                    outputByteCount: keySize, rounds: DataKeys.rounds)
        derived.withLock { $0[tag] = key }
        return key
    }

    /// `keys/change-in-progress`: `OKITKCH1`, the id of the key current when the change began, the id of the new
    /// key, then every key of the change sealed under every other one (`SealedFile`, 76 bytes each). Any one
    /// key of the change opens the others.
    struct Marker {
        static let magic = Array("OKITKCH1".utf8)
        static let noId = [UInt8](repeating: 0, count: SealedFile.idSize)
        static var blobSize: Int { SealedFile.overhead + KeyChange.keySize }

        let currentId: [UInt8]
        let newId: [UInt8]
        let blobs: [[UInt8]]

        static func read(_ path: String) throws -> Marker? {
            guard let bytes = try AtomicFile.read(path) else { return nil }
            let head = magic.count + 2 * SealedFile.idSize
            guard bytes.count >= head, bytes.prefix(magic.count).elementsEqual(magic), (bytes.count - head) % blobSize == 0 else {
                throw KeyChangeError(.noKey, path: path, "\(path) is damaged (the marker of an interrupted passphrase change); restore it from a copy")
            }
            let currentId = Array(bytes[magic.count..<magic.count + SealedFile.idSize])
            let newId = Array(bytes[magic.count + SealedFile.idSize..<head])
            let blobs = stride(from: head, to: bytes.count, by: blobSize).map { Array(bytes[$0..<$0 + blobSize]) }
            return Marker(currentId: currentId, newId: newId, blobs: blobs)
        }

        static func bytes(currentId: [UInt8], newId: [UInt8], keys: [SymmetricKey]) throws -> [UInt8] {
            var unique: [SymmetricKey] = []
            for k in keys where !unique.contains(where: { SealedFile.keyId($0) == SealedFile.keyId(k) }) { unique.append(k) }
            var out = magic + currentId + newId
            for a in unique {
                let plain = a.withUnsafeBytes { Array($0) }
                for b in unique where SealedFile.keyId(a) != SealedFile.keyId(b) {
                    out += try SealedFile.seal(plain, key: b)
                }
            }
            return out
        }

        /// The keys of the change that the candidates lead to: each candidate that is one of the change's keys
        /// (by id), and each key sealed under a key found so far; the current key first, the new one second.
        func closure(_ candidates: [SymmetricKey]) -> [SymmetricKey] {
            let ids = Set(blobs.map { Array($0[SealedFile.magic.count..<SealedFile.magic.count + SealedFile.idSize]) } + [currentId, newId])
            var known: [SymmetricKey] = []
            var frontier = candidates.filter { ids.contains(SealedFile.keyId($0)) }
            while !frontier.isEmpty {
                let k = frontier.removeFirst()
                let id = SealedFile.keyId(k)
                guard !known.contains(where: { SealedFile.keyId($0) == id }) else { continue }
                known.append(k)
                for blob in blobs where KeyChange.sealedKeyId(blob) == id {
                    if let plain = try? SealedFile.open(blob, key: k), plain.count == KeyChange.keySize {
                        frontier.append(SymmetricKey(data: plain))
                    }
                }
            }
            func rank(_ k: SymmetricKey) -> Int {
                let id = SealedFile.keyId(k)
                return id == currentId ? 0 : id == newId ? 1 : 2
            }
            return known.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        }
    }
}
