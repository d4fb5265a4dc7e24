import Crypto
import Foundation

/// The sealed file format of encrypted models (storage.md): `OKITENC1`, the key id (8 bytes: the start of the
/// key's SHA-256), a random 96-bit nonce, the AES-256-GCM ciphertext and its 16-byte tag. A reader recognises a
/// sealed file by its header whatever the app's setting; a wrong key or a changed byte fails the tag check.
public enum SealedFile {
    static let magic = Array("OKITENC1".utf8)
    static let idSize = 8, nonceSize = 12, tagSize = 16
    static var overhead: Int { magic.count + idSize + nonceSize + tagSize }

    /// True when the bytes start with the sealed header.
    public static func isSealed(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isSealed($0) }
    }

    static func isSealed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= magic.count && bytes.prefix(magic.count).elementsEqual(magic)
    }

    /// The id a key is known by in sealed files.
    public static func keyId(_ key: SymmetricKey) -> [UInt8] {
        key.withUnsafeBytes { Array(Crypto.SHA256.hash(data: $0).prefix(idSize)) }
    }

    /// Seals bytes with a fresh random nonce.
    public static func seal(_ plain: [UInt8], key: SymmetricKey) throws -> [UInt8] {
        try plain.withUnsafeBytes { try seal(bytes: $0, key: key) }
    }

    /// `seal(_:key:)` of bytes in place (a writer's buffer, not copied into an array first).
    static func seal(bytes plain: UnsafeRawBufferPointer, key: SymmetricKey) throws -> [UInt8] {
        let box = try AES.GCM.seal(plain, using: key)
        var out = magic + keyId(key)
        out.reserveCapacity(overhead + plain.count)
        out.append(contentsOf: box.nonce)
        out.append(contentsOf: box.ciphertext)
        out.append(contentsOf: box.tag)
        return out
    }

    /// Why a sealed file could not be opened.
    public enum OpenError: Error, CustomStringConvertible {
        case truncated
        case otherKey
        case wrongKeyOrDamaged

        public var description: String {
            switch self {
            case .truncated: return "the sealed file is truncated"
            case .otherKey: return "the file was sealed with another key"
            case .wrongKeyOrDamaged: return "wrong key or damaged file: the seal does not verify"
            }
        }
    }

    /// Opens a sealed file: checks the header, the key id and the tag.
    public static func open(_ sealed: [UInt8], key: SymmetricKey) throws -> [UInt8] {
        guard isSealed(sealed), sealed.count >= overhead else { throw OpenError.truncated }
        let idStart = magic.count, nonceStart = idStart + idSize, bodyStart = nonceStart + nonceSize
        let tagStart = sealed.count - tagSize
        guard Array(sealed[idStart..<nonceStart]) == keyId(key) else { throw OpenError.otherKey }
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: sealed[nonceStart..<bodyStart]),
                                            ciphertext: sealed[bodyStart..<tagStart], tag: sealed[tagStart...])
            return Array(try AES.GCM.open(box, using: key))
        } catch {
            throw OpenError.wrongKeyOrDamaged
        }
    }
}
