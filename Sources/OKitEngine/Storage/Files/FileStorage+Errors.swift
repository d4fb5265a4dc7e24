import Foundation

/// The messages of files that cannot be read (storage.md "When a file cannot be read", "Limits and refusals").
/// What the storage's owner can do about them is `StorageError.remedy`; with a `remedyWording`, every error of
/// the storage's entry points says it in the owner's words too (`StorageError.advice`).
extension FileStorage {
    public func load(name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel? {
        try worded { try loadModelFile(name: name, rootType: rootType, engine: engine) }
    }

    public func store(_ model: Model, engine: any ModelHost) throws -> StoreOutcome {
        try worded { try storeWhole(model, engine: engine) }
    }

    public func loadPayload(of stub: Entity, type: EntityType, model: Model, engine: any ModelHost) throws -> Entity? {
        try worded { try readPayload(of: stub, type: type, model: model, engine: engine) }
    }

    public func readBinary(_ meta: Entity, model: Model) throws -> [UInt8]? {
        try worded { try readBinaryFile(meta, model: model) }
    }

    /// `body`'s result; a storage error it throws gets the remedy worded by `remedyWording`.
    package func worded<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as StorageError { throw e.worded(remedyWording) }
    }

    /// `app`: the app's version, when the caller knows it: a file a newer version stored that does not decode
    /// says so (it is not damaged, this app is older), whatever failed in it.
    static func describe(_ f: JSONReader.Failure, bytes: [UInt8], path: String, rootType: EntityType, app: Int? = nil) -> StorageError {
        var e = StorageError(kind: f.wrongType ? .wrongType : .corrupt, path: path, message: f.message)
        if let app = app ?? f.field?.app, let stored = f.field?.stored ?? ModelFileCheck.headerVersion(bytes), stored > app {
            e = e.withRemedy(.described(newerUnreadable(stored: stored, app: app)))
        } else if let field = f.field, case .fixOrRecover? = e.remedy {
            // A model's field whose type changed (or a value edited by hand): converted by a migration, never
            // started fresh. (A partial's payload keeps its way out: it is not migrated.)
            e = e.withRemedy(.described("field \"\(field.field)\" of \(field.type) is declared \(field.declared) and the file holds \(field.found): "
                                        + MistypedValues.advice(stored: field.stored, app: field.app)))
        }
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

    /// Why a file a newer app version stored does not decode in an older one (its schema is the newer one's).
    static func newerUnreadable(stored: Int, app: Int) -> String {
        "it was stored by version \(stored) of the app, and this app is version \(app) (okit.app { version = … }): an older app cannot read newer data and does not rewrite it. Run the newer app, or restore a backup made with version \(app)"
    }

    /// Why data stored by a newer app version is not loaded by an older one.
    public static func newerMessage(stored: Int, app: Int) -> String {
        "the data was stored by version \(stored) of the app, and this app is version \(app) (okit.app { version = … }): an older app does not rewrite newer data; the file is left as it is. Run the newer app, or restore a backup made with this version"
    }
}
