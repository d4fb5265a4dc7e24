import Foundation

/// The files beside a model file: partials' payloads (`<model>/<stub id>.json`), data (`<model>/_data/<id>.raw`)
/// and images (`<model>/_image/<id>.<png|jpeg>`), each written atomically, sealed like the model.
extension FileStorage {
    // MARK: Partials

    package func readPayload(of stub: Entity, type: EntityType, model: Model, engine: any ModelHost) throws -> Entity? {
        guard let id = stub.id, let path = folder.payload(model: model.name, id: id) else {
            throw StorageError(kind: .io, path: modelsFolder + "/" + model.name,
                               message: "the partial \(stub.debugName) has no id that is safe as a file name")
        }
        guard let bytes = try readOpened(path, model: model.name) else { return nil }
        do {
            return try bytes.withUnsafeBufferPointer { buf in
                var r = JSONReader(bytes: buf, engine: engine)
                return try r.root(type)
            }
        } catch let f as JSONReader.Failure {
            unreadablePayloads.insert(path)
            throw Self.describe(f, bytes: bytes, path: path, rootType: type)
        }
    }

    /// Writes each changed payload whose stub is still in the model to its own file.
    package func storePayloads(_ model: Model, engine: any ModelHost) throws {
        guard !model.dirtyPayloads.isEmpty else { return }
        for p in model.dirtyPayloads {
            guard let stub = p.parent, stub.state == .managed, stub.model === model, let id = stub.id,
                  let path = folder.payload(model: model.name, id: id) else { continue }
            if unreadablePayloads.contains(path) { continue }
            var writer = JSONWriter(capacity: 4096)
            writer.document(p, type: p.type.name, version: engine.schemaVersion, generation: 1, headerExtras: [])
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Self.replace(path, with: try keys[model.name].map { try SealedFile.seal(writer.bytes, key: $0) } ?? writer.bytes)
        }
        model.clearPayloadsDirty()
    }

    // MARK: Data and images

    /// `<model>/_data/<id>.raw` or `<model>/_image/<id>.<png|jpeg>` (namespaced per model).
    func binaryPath(_ meta: Entity, model: String) -> String? {
        guard let id = meta.id else { return nil }
        return folder.binary(model: model, id: id, image: meta.type.name == "okit.Image",
                             format: meta["format"]?.displayString ?? "")
    }

    package func readBinaryFile(_ meta: Entity, model: Model) throws -> [UInt8]? {
        guard let path = binaryPath(meta, model: model.name) else { return nil }
        return try readOpened(path, model: model.name)
    }

    /// Writes the bytes written since the last store.
    package func writeBinaries(_ model: Model, engine: any ModelHost) throws {
        try engine.storeWrittenBytes(of: model) { meta, bytes in
            guard let path = binaryPath(meta, model: model.name) else { return false }
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Self.replace(path, with: try keys[model.name].map { try SealedFile.seal(bytes, key: $0) } ?? bytes)
            return true
        }
    }

    // MARK: Removed entities

    /// Deletes the side files of entities removed since the last store (after the model that no longer names
    /// them was written): their data and images, and the payload files of removed partials.
    package func deleteRemovedFiles(_ model: Model, engine: any ModelHost) throws {
        for removed in model.removedSinceStore where removed.state == .removed && !removed.isContained {
            try deleteFiles(in: removed, model: model, engine: engine)
        }
    }

    private func deleteFiles(in e: Entity, model: Model, engine: any ModelHost) throws {
        if e.type.kind == .binary, let path = binaryPath(e, model: model.name) {
            try AtomicFile.remove(path)
            engine.forgetLoadedBytes(of: e)
        }
        if let spec = e.type.partial, let id = e.id, let path = folder.payload(model: model.name, id: id) {
            // A payload that was never loaded may hold data, images or partials of its own: read it (without
            // adopting it) so their files go too. One that does not read leaves them (nothing is lost).
            if e.payload == nil, let type = engine.schema.type(named: spec.payloadType),
               let unloaded = try? loadPayload(of: e, type: type, model: model, engine: engine) {
                try deleteFiles(in: unloaded, model: model, engine: engine)
            }
            try AtomicFile.remove(path)
        }
        try e.forEachChild { try deleteFiles(in: $0, model: model, engine: engine) }
    }
}
