import Foundation

/// Decodes a file of the data folder with the app's schema without loading it: what a restore checks before
/// it replaces anything (storage.md "Backups": "every model file decodes").
extension Engine {
    /// Checks that `bytes` (plain) decode as the file at `relativePath` under `okit/data`: `<model>.json` as the
    /// registered model's root type, a model's file in another form (`forms`: `<model>.sqlite`) as that form reads
    /// it, `<model>/<id>.json` as the type its `okit` header names. Other files (journals, data, images, models this
    /// app does not declare) are left to their hashes.
    public func checkDecodes(relativePath: String, bytes: [UInt8], forms: [DataFolderForm] = []) throws {
        let parts = relativePath.split(separator: "/").map(String.init)
        for form in forms {
            guard let name = form.model(ofFile: relativePath) else { continue }
            if let type = model(named: name)?.rootType {
                try form.checkDecodes(bytes, relativePath: relativePath, rootType: type, engine: self)
            }
            return
        }
        guard let file = parts.last, file.hasSuffix(".json") else { return }
        let type: EntityType?
        if parts.count == 1 {
            type = model(named: String(file.dropLast(5)))?.rootType
        } else if parts.count == 2 {
            type = ModelFileCheck.headerType(bytes).flatMap { schema.type(named: $0) }
        } else {
            type = nil
        }
        guard let type else { return }
        // Newer data first: a newer version's file may not decode with this schema, and that is not what is wrong.
        if parts.count == 1 { try NewerAppData.check(stored: ModelFileCheck.headerVersion(bytes), file: relativePath, app: schemaVersion) }
        let read: (version: Int?, type: String?)
        do {
            read = try bytes.withUnsafeBufferPointer { buf in
                var r = JSONReader(bytes: buf, engine: self)
                r.keepsMistyped = true   // an older version's values of another type are its migrations' (as a load)
                _ = try r.root(type)
                return (r.version, r.storedType)
            }
        } catch let f as JSONReader.Failure {
            throw FileStorage.describe(f, bytes: bytes, path: relativePath, rootType: type, app: schemaVersion)
        }
        // A model's file stored by a newer app version is refused by a load (`NewerAppData`): so by a restore.
        if parts.count == 1 { try NewerAppData.check(stored: read.version, file: relativePath, app: schemaVersion) }
        // As a load: a file of another root type is refused (backups.md "Restoring": its root type too).
        if parts.count == 1, let stored = read.type, stored != type.name {
            throw StorageError(kind: .wrongType, path: relativePath, message: "the file holds a \(stored) model, not the \(type.name) this app declares for model \"\(file.dropLast(5))\"",
                               remedy: .described(StorageError.keepRootName(stored: stored)))
        }
    }
}

/// A model's file stored by a newer version of the app (`okit.app { version }`) than this one: a load refuses it
/// (storage.md "Versions"), so a restore refuses a backup holding it before anything changes (backups.md).
public struct NewerAppData: Error, CustomStringConvertible {
    /// The file under `okit/data` (`default.json`, `sq.sqlite`).
    public let file: String
    public let stored: Int
    public let app: Int

    public init(file: String, stored: Int, app: Int) {
        self.file = file
        self.stored = stored
        self.app = app
    }

    /// Throws when `stored` (the file's version; nil: none recorded) is newer than `app`.
    public static func check(stored: Int?, file: String, app: Int) throws {
        if let stored, stored > app { throw NewerAppData(file: file, stored: stored, app: app) }
    }

    public var description: String { "\(file): " + FileStorage.newerMessage(stored: stored, app: app) }
}

enum ModelFileCheck {
    /// The offset of the first byte that cannot start a model file, or nil: a model file is a JSON object
    /// (`{` after an optional byte order mark and white space) or a sealed file (`OKITENC1`).
    static func badStart(_ head: [UInt8]) -> Int? {
        if SealedFile.isSealed(head) { return nil }
        var k = JSONReader.hasBOM(head) ? JSONReader.bom.count : 0
        while k < head.count, [0x20, 0x0A, 0x0D, 0x09].contains(head[k]) { k += 1 }
        guard k < head.count else { return nil }   // empty, or only white space so far: the reader tells
        return head[k] == 0x7B ? nil : k
    }

    /// The `type` of a file's `okit` header (`{"okit":{"version":1,"type":"Group"…`), read from its first bytes.
    /// The version in a model file's `okit` header (`"okit":{"version":N,…}` at its start), or nil.
    static func headerVersion(_ bytes: [UInt8]) -> Int? {
        let head = String(decoding: bytes.prefix(256), as: UTF8.self)
        guard let okit = head.range(of: "\"okit\""), let v = head[okit.upperBound...].range(of: "\"version\"") else { return nil }
        let rest = head[v.upperBound...].drop { $0 == " " || $0 == ":" }
        return Int(rest.prefix { $0.isASCII && $0.isNumber })
    }

    static func headerType(_ bytes: [UInt8]) -> String? {
        let head = String(decoding: bytes.prefix(256), as: UTF8.self)
        guard let r = head.range(of: "\"type\":\"") else { return nil }
        let rest = head[r.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
