import Crypto
import Foundation

/// Bytes of `data`/`image` fields (kept beside the model) and of `inlineData`/`inlineImage` fields (base64 in
/// the model). The model holds the metadata entity (`format`, `label`, `size`, `sha256`).
final class BinaryPayload {
    let entity: Entity
    var bytes: [UInt8]
    var dirty: Bool

    init(entity: Entity, bytes: [UInt8], dirty: Bool) {
        self.entity = entity
        self.bytes = bytes
        self.dirty = dirty
    }
}

extension Engine {
    /// Replaces the bytes of a binary field (creating its metadata entity when the field is empty).
    public func writeBytes(_ e: Entity, _ field: String, _ bytes: [UInt8], format: String, label: String? = nil) throws {
        guard let slot = e.type.slot(of: field) else { throw EngineError.unknownField(type: e.type.name, field: field) }
        let type = e.type.fieldTypes[slot]
        guard let metaType = schema.entityType(for: type), metaType.kind == .binary || metaType.kind == .inlineBinary else {
            throw EngineError.notAnEntity(field: field, expected: "data or image", got: type.declaration)
        }
        if type == .image || type == .inlineImage { try ImageFormat.check(bytes, format: format, field: field) }
        try transaction {
            var meta = e.values[slot].entity
            if meta == nil {
                let m = try make(metaType, [:])
                try set(e, field, .entity(m))
                meta = m
            }
            guard let meta else { return }
            try set(meta, "format", .string(format))
            try set(meta, "size", .int(bytes.count))
            if let label { try set(meta, "label", .string(label)) }
            if metaType.kind == .inlineBinary {
                try set(meta, "data", .string(Data(bytes).base64EncodedString()))
            } else {
                try set(meta, "sha256", .string(BackupHex.encode(Crypto.SHA256.hash(data: bytes))))
                let previous = binaryPayloads[ObjectIdentifier(meta)]
                binaryPayloads[ObjectIdentifier(meta)] = BinaryPayload(entity: meta, bytes: bytes, dirty: true)
                if transactionDepth > 0 {
                    undoLog.append { [unowned self] in self.binaryPayloads[ObjectIdentifier(meta)] = previous }
                }
            }
        }
    }

    /// The bytes of a binary field's metadata entity (loaded from beside the model on first read), or nil.
    public func readBytes(_ meta: Entity) throws -> [UInt8]? {
        switch meta.type.kind {
        case .inlineBinary:
            guard case .string(let b64) = meta.values[meta.type.slot(of: "data") ?? 0] else { return nil }
            guard let d = Data(base64Encoded: b64) else {
                throw EngineError.notAnEntity(field: "data", expected: "base64 bytes", got: "malformed base64")
            }
            return [UInt8](d)
        case .binary:
            if let p = binaryPayloads[ObjectIdentifier(meta)] { return p.bytes }
            guard let model = meta.model, let storage = storages[model.name] else { return nil }
            guard let bytes = try storage.readBinary(meta, model: model) else { return nil }
            binaryPayloads[ObjectIdentifier(meta)] = BinaryPayload(entity: meta, bytes: bytes, dirty: false)
            return bytes
        default:
            throw EngineError.notAnEntity(field: "bytes", expected: "data or image metadata", got: meta.type.name)
        }
    }

    /// Forgets every data and image payload in memory (after the files were replaced by a restore).
    public func forgetLoadedBytes() { binaryPayloads.removeAll() }

    /// Payloads of a model written since its last store.
    func pendingPayloads(of model: Model) -> [BinaryPayload] {
        binaryPayloads.values.filter { $0.dirty && $0.entity.model === model }
    }
}

/// The metadata of `inlineData`/`inlineImage` values: their `size` follows the base64 bytes in `data` (a file
/// written by hand or by another tool may carry none, or a wrong one).
enum InlineBytes {
    /// The number of bytes `readBytes` decodes from base64 text, or nil when it does not decode. Well-formed
    /// base64 (padded, no spaces) is counted, not decoded; anything else is left to `Data(base64Encoded:)`,
    /// whose answer `readBytes` gives.
    static func decodedCount(_ base64: String) -> Int? {
        wellFormedCount(base64) ?? Data(base64Encoded: base64)?.count
    }

    static func wellFormedCount(_ base64: String) -> Int? {
        var text = base64
        return text.withUTF8 { u -> Int? in
            guard u.count % 4 == 0 else { return nil }
            var padding = 0
            for (k, c) in u.enumerated() {
                switch c {
                case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2B, 0x2F:
                    if padding > 0 { return nil }
                case 0x3D:
                    padding += 1
                    if padding > 2 || k < u.count - 2 { return nil }
                default: return nil
                }
            }
            return u.count / 4 * 3 - padding
        }
    }

    /// The slot of `size` in an inline binary's metadata and the size its `data` decodes to; nil for other
    /// entities, and when `data` is missing or not base64 (its `size` is then left as it is).
    static func size(of meta: Entity) -> (slot: Int, size: Int)? {
        guard meta.type.kind == .inlineBinary, let sizeSlot = meta.type.slot(of: "size"),
              let dataSlot = meta.type.slot(of: "data"), case .string(let b64) = meta.values[dataSlot],
              let n = decodedCount(b64) else { return nil }
        return (sizeSlot, n)
    }

    /// Sets `size` from `data` (on load: the model never says a size its bytes do not have).
    static func syncSize(_ meta: Entity) {
        guard let (slot, n) = size(of: meta) else { return }
        if case .int(n) = meta.values[slot] { return }
        meta.values[slot] = .int(n)
    }
}

/// Image formats by their bytes: PNG and JPEG magic numbers against the declared format of an image, and the
/// format a picture's first bytes show (a base64 image text, a page's image).
public enum ImageFormat {
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp` by the first bytes; nil for anything else.
    public static func raster(of b: [UInt8]) -> String? {
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), b[8..<12].elementsEqual("WEBP".utf8) { return "image/webp" }
        return nil
    }

    static func check(_ bytes: [UInt8], format: String, field: String) throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        switch format {
        case "image/png": if !bytes.starts(with: png) { throw mismatch(field, format) }
        case "image/jpeg": if !bytes.starts(with: jpeg) { throw mismatch(field, format) }
        default:
            throw EngineError.notAnEntity(field: field, expected: "an image/png or image/jpeg format", got: format.isEmpty ? "an empty format" : "\"\(format)\"")
        }
    }

    static func mismatch(_ field: String, _ format: String) -> EngineError {
        .notAnEntity(field: field, expected: "\(format) bytes", got: "bytes of another format")
    }

    /// The side-file extension of an image format.
    static func fileExtension(_ format: String) -> String {
        format == "image/jpeg" ? "jpeg" : (format.split(separator: "/").last.map(String.init) ?? "raw")
    }
}
