import Foundation

/// The messages of files that cannot be read (storage.md "When a file cannot be read", "Limits and refusals").
extension FileStorage {
    static func describe(_ f: JSONReader.Failure, bytes: [UInt8], path: String, rootType: EntityType) -> StorageError {
        var e = StorageError(kind: f.wrongType ? .wrongType : .corrupt, path: path, message: f.message)
        let offset = min(f.offset, bytes.count)
        e.offset = offset
        var line = 1, col = 1
        // A leading byte order mark is not a column (the reader skips it); the byte offset stays the file's.
        let start = JSONReader.hasBOM(bytes) ? min(offset, JSONReader.bom.count) : 0
        for b in bytes[start..<offset] { if b == 0x0A { line += 1; col = 1 } else if b & 0xC0 != 0x80 { col += 1 } }
        e.line = line
        e.column = col
        e.jsonPath = JSONPathLocator.path(in: bytes, at: offset)
        return e
    }

    /// Why data stored by a newer app version is not loaded by an older one.
    public static func newerMessage(stored: Int, app: Int) -> String {
        "the data was stored by version \(stored) of the app, and this app is version \(app) (okit.app { version = … }): an older app does not rewrite newer data; the file is left as it is. Run the newer app, or restore a backup made with this version"
    }
}
