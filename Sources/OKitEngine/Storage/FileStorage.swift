import Foundation

/// File storage of models in a data folder (storage.md): `<data>/okit/data/<model>.json`, written atomically
/// and durably, only when changed, with small changes appended to a journal beside the file. A model file
/// that does not read is never written over. One `FileStorage` holds the data folder's lock for its lifetime.
public final class FileStorage: ModelStorage {
    public let dataFolder: URL
    /// `<data>/okit/data`.
    public let modelsFolder: String
    private let lock: DataFolderLock
    /// Per model: the generation of its file and its size when last written or read.
    private var generations: [String: Int] = [:]
    private var fullSizes: [String: Int] = [:]
    /// Models whose file failed to load: never written.
    private var unreadable: Set<String> = []
    /// Journal records appended since the last full write, per model.
    private var journalBytes: [String: Int] = [:]
    /// A journal larger than this fraction of the model file is compacted by the next store.
    public var journalRatio = 8

    /// Opens (and creates) the data folder and takes its lock.
    public init(dataFolder: URL) throws {
        self.dataFolder = dataFolder
        modelsFolder = dataFolder.path + "/okit/data"
        do {
            try FileManager.default.createDirectory(atPath: modelsFolder, withIntermediateDirectories: true)
        } catch {
            throw StorageError(kind: .io, path: modelsFolder, message: "cannot create the data folder: \(error.localizedDescription)")
        }
        lock = try DataFolderLock(folder: dataFolder.path)
    }

    public func path(of model: String) -> String { modelsFolder + "/" + model + ".json" }
    func journalPath(of model: String) -> String { modelsFolder + "/" + model + ".journal" }

    // MARK: Load

    public func load(name: String, rootType: EntityType, engine: Engine) throws -> LoadedModel? {
        try Names.validate(name, what: "model name")
        let path = self.path(of: name)
        guard let bytes = try AtomicFile.read(path) else {
            generations[name] = 0
            return nil
        }
        var reader: JSONReader
        let root: Entity
        do {
            (root, reader) = try bytes.withUnsafeBufferPointer { buf in
                var r = JSONReader(bytes: buf, engine: engine)
                let e = try r.root(rootType)
                return (e, r)
            }
        } catch let f as JSONReader.Failure {
            unreadable.insert(name)
            throw Self.describe(f, bytes: bytes, path: path, rootType: rootType)
        }
        let generation = reader.generation ?? 0
        generations[name] = generation
        fullSizes[name] = bytes.count
        if let journal = try AtomicFile.read(journalPath(of: name)) {
            let records = Journal.records(journal, generation: generation)
            journalBytes[name] = journal.count
            if !records.isEmpty { try apply(records, to: root, engine: engine, path: journalPath(of: name)) }
        }
        return LoadedModel(root: root, version: reader.version, headerExtras: reader.headerExtras, entityCount: reader.entityCount)
    }

    /// Applies journal records: each replaces the content of the entity with its id, in place.
    private func apply(_ records: [ArraySlice<UInt8>], to root: Entity, engine: Engine, path: String) throws {
        var byId: [String: Entity] = [:]
        func index(_ e: Entity) {
            if e.type.hasId, !e.type.isRef, let id = e.id, byId[id] == nil { byId[id] = e }
            e.forEachChild { index($0) }
        }
        index(root)
        for json in records {
            let bytes = Array(json)
            guard let id = Self.peekId(bytes, engine: engine), let target = byId[id] else { continue }
            let fresh: Entity
            do {
                fresh = try bytes.withUnsafeBufferPointer { buf in
                    var r = JSONReader(bytes: buf, engine: engine)
                    return try r.entity(target.type, parent: target.parent)
                }
            } catch let f as JSONReader.Failure {
                throw Self.describe(f, bytes: bytes, path: path, rootType: target.type)
            }
            target.values = fresh.values
            target.unknownFields = fresh.unknownFields
            for (slot, v) in target.values.enumerated() {
                switch v {
                case .entity(let c): c.parent = target
                case .collection(let c):
                    c.owner = target
                    _ = slot
                    for item in c.items { if case .entity(let x) = item { x.parent = target } }
                default: break
                }
            }
            index(target)
        }
    }

    private static func peekId(_ bytes: [UInt8], engine: Engine) -> String? {
        bytes.withUnsafeBufferPointer { buf -> String? in
            var r = JSONReader(bytes: buf, engine: engine)
            guard (try? r.expect(0x7B, "{")) != nil else { return nil }
            while true {
                guard let key = try? r.string(), (try? r.expect(0x3A, ":")) != nil else { return nil }
                if key == "id" { return try? r.string() }
                guard (try? r.skipValue()) != nil, r.peek() == 0x2C else { return nil }
                r.i += 1
            }
        }
    }

    static func describe(_ f: JSONReader.Failure, bytes: [UInt8], path: String, rootType: EntityType) -> StorageError {
        var e = StorageError(kind: f.message.hasPrefix("expected") && !f.message.contains("\",\"") ? .wrongType : .corrupt,
                             path: path, message: f.message)
        let offset = min(f.offset, bytes.count)
        e.offset = offset
        var line = 1, col = 1
        for b in bytes[..<offset] { if b == 0x0A { line += 1; col = 1 } else if b & 0xC0 != 0x80 { col += 1 } }
        e.line = line
        e.column = col
        e.jsonPath = JSONPathLocator.path(in: bytes, at: offset)
        return e
    }

    // MARK: Store

    public func store(_ model: Model, engine: Engine) throws -> StoreOutcome {
        let outcome = try storeModel(model, engine: engine)
        try storeBinaries(model, engine: engine)
        return outcome
    }

    // MARK: Data and images beside the model

    /// `<model>/_data/<id>.raw` or `<model>/_image/<id>.<png|jpeg>` (namespaced per model).
    func binaryPath(_ meta: Entity, model: String) -> String? {
        guard let id = meta.id, Names.isSafe(id) else { return nil }
        if meta.type.name == "okit.Image" {
            let format = meta["format"]?.displayString ?? ""
            return modelsFolder + "/\(model)/_image/\(id).\(ImageFormat.fileExtension(format))"
        }
        return modelsFolder + "/\(model)/_data/\(id).raw"
    }

    public func readBinary(_ meta: Entity, model: Model) throws -> [UInt8]? {
        guard let path = binaryPath(meta, model: model.name) else { return nil }
        return try AtomicFile.read(path)
    }

    /// Writes the bytes written since the last store, then deletes the files of removed data and images
    /// (after the model that no longer names them was written).
    func storeBinaries(_ model: Model, engine: Engine) throws {
        for p in engine.pendingPayloads(of: model) {
            guard let path = binaryPath(p.entity, model: model.name) else { continue }
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try AtomicFile.replace(path, with: p.bytes)
            p.dirty = false
        }
        for removed in model.removedSinceStore where removed.state == .removed && !removed.isContained {
            try deleteBinaries(in: removed, model: model.name, engine: engine)
        }
    }

    private func deleteBinaries(in e: Entity, model: String, engine: Engine) throws {
        if e.type.kind == .binary, let path = binaryPath(e, model: model) {
            try AtomicFile.remove(path)
            engine.binaryPayloads[ObjectIdentifier(e)] = nil
        }
        try e.forEachChild { try deleteBinaries(in: $0, model: model, engine: engine) }
    }

    func storeModel(_ model: Model, engine: Engine) throws -> StoreOutcome {
        let name = model.name
        if unreadable.contains(name) {
            throw StorageError(kind: .corrupt, path: path(of: name),
                               message: "this model's file could not be read, so it is not written over (run okit-run --recover to move it aside)")
        }
        guard model.isDirty else { return .unchanged }
        if !model.wholeDirty, let full = fullSizes[name], full > 0 {
            var records: [UInt8] = []
            var writer = JSONWriter(capacity: 1024)
            for unit in model.dirtyUnits {
                writer.out.removeAll(keepingCapacity: true)
                writer.entity(unit)
                records.append(contentsOf: Journal.record(writer.out))
                if records.count * journalRatio > full { break }
            }
            let total = (journalBytes[name] ?? 0) + records.count
            if total * journalRatio <= full {
                let jpath = journalPath(of: name)
                if let existing = journalBytes[name] {
                    try AtomicFile.append(jpath, records)
                    journalBytes[name] = existing + records.count
                } else {
                    let first = Journal.header(generation: generations[name] ?? 0) + records
                    try AtomicFile.replace(jpath, with: first)
                    journalBytes[name] = first.count
                }
                model.clearDirty()
                return .journal(bytes: records.count)
            }
        }
        let bytes = try writeFull(model, engine: engine)
        model.clearDirty()
        return .full(bytes: bytes)
    }

    /// Writes the whole model file and drops its journal.
    @discardableResult
    func writeFull(_ model: Model, engine: Engine) throws -> Int {
        let name = model.name
        try Names.validate(name, what: "model name")
        let generation = (generations[name] ?? 0) + 1
        var writer = JSONWriter(capacity: max(1 << 16, (fullSizes[name] ?? 0) + 4096))
        writer.document(model.root, type: model.rootType.name, version: engine.schemaVersion,
                        generation: generation, headerExtras: model.headerExtras)
        try AtomicFile.replace(path(of: name), with: writer.out)
        generations[name] = generation
        fullSizes[name] = writer.out.count
        if journalBytes[name] != nil {
            try AtomicFile.remove(journalPath(of: name))
            journalBytes[name] = nil
        }
        return writer.out.count
    }

    /// Writes the whole model now and removes its journal (at app exit, so `<model>.json` is complete).
    public func compact(_ model: Model, engine: Engine) throws {
        guard !unreadable.contains(model.name) else { return }
        if model.isDirty || journalBytes[model.name] != nil {
            try writeFull(model, engine: engine)
            model.clearDirty()
        }
    }
}
