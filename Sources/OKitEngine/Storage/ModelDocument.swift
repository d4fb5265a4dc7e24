import Foundation

/// A model as one JSON document, the form of a model file (storage.md "JSON format"), for a kind that keeps each
/// model as one object somewhere (a server, a bucket): what it writes and how what it reads becomes the model.
public enum ModelDocument {
    /// The model as a document, exactly as file storage writes it.
    public static func bytes(of model: Model, engine: any ModelHost) -> [UInt8] {
        bytes(root: model.root, engine: engine, headerExtras: model.headerExtras)
    }

    /// A model's root (a restored backup's) as a document.
    public static func bytes(root: Entity, engine: any ModelHost, headerExtras: [(key: String, json: [UInt8])] = []) -> [UInt8] {
        var w = JSONWriter(capacity: 4096)
        w.document(root, type: root.type.name, version: engine.schemaVersion, generation: 0, headerExtras: headerExtras)
        return w.bytes
    }

    /// Reads a document as a model of root type `rootType`. One that does not read is a `StorageError` naming
    /// `source` (where the document came from), the line and column, and the JSON path.
    public static func read(_ bytes: [UInt8], rootType: EntityType, engine: any ModelHost, source: String) throws -> LoadedModel {
        do {
            return try bytes.withUnsafeBufferPointer { buf in
                var r = JSONReader(bytes: buf, engine: engine)
                r.listIdentified()
                let root = try r.root(rootType)
                return LoadedModel(root: root, version: r.version, headerExtras: r.headerExtras, entityCount: r.entityCount,
                                   identified: r.identifiedEntities)
            }
        } catch let f as JSONReader.Failure {
            throw FileStorage.describe(f, bytes: bytes, path: source, rootType: rootType)
        }
    }
}

extension Model {
    /// Marks the model as stored: a storage calls it once it wrote the model's changes (`isDirty` is then false).
    public func markStored() { clearDirty() }
}
