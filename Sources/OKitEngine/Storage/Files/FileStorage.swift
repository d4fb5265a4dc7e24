import Crypto
import Foundation

/// File storage of models in a data folder (storage.md): `<data>/okit/data/<model>.json`, written atomically
/// and durably, only when changed, with small changes appended to a journal beside the file. A model file
/// that does not read is never written over. One `FileStorage` holds the data folder's lock for its lifetime.
public final class FileStorage: ModelStorage {
    public let dataFolder: URL
    /// The data folder's layout.
    public let folder: DataFolder
    /// `<data>/okit/data`.
    public var modelsFolder: String { folder.models }
    let lock: DataFolderLock
    /// Per model: the generation of its file and its size when last written or read.
    private var generations: [String: Int] = [:]
    var fullSizes: [String: Int] = [:]
    /// Per model: the device and inode of its file when last written or read (`modelFileIsOurs`).
    var modelFileIds: [String: FileIdentity] = [:]
    /// Per model: the app version (`okit.version`) its file was written by, as read.
    var storedVersions: [String: Int] = [:]
    /// Models whose file failed to load: never written.
    var unreadable: Set<String> = []
    /// Payload files that failed to load: never written.
    var unreadablePayloads: Set<String> = []
    /// The size of each model's journal (one of the current generation) since the last full write.
    var journalBytes: [String: Int] = [:]
    /// The ids of the entities each model's journal holds records of (what the exit patch writes in place).
    var journaledIds: [String: Set<String>] = [:]
    /// Those entities, by id, as this process met them — appended, or found by the load that replayed the journal:
    /// the exit patch finds them here instead of walking the whole model (13 ms at 100,000 books, more than the
    /// rest of a quit). An id without an entity here is looked for by the walk.
    var journaledEntities: [String: [String: Entity]] = [:]
    /// How many times an exit patch looked for its entities by walking a whole model (for tests).
    var exitPatchWalks = 0
    /// The full writer's buffer, kept between writes up to `maxKeptBuffer` bytes.
    private var buffer = JSONOutput(capacity: 0)
    static let maxKeptBuffer = 256 << 20
    /// Models whose journal ends in a torn or damaged record: their next store is a full write.
    var damagedJournals: Set<String> = []
    /// Models whose read made ids or default entities the file does not hold (`JSONReader.madeIdentities`): a
    /// journal record of one would name an id the next read does not make, so their next store is a full write.
    var wholeNext: Set<String> = []
    /// A journal larger than this fraction of the model file is compacted by the next store.
    public var journalRatio = 8
    /// Words the remedies of this storage's errors (`StorageError.advice`); nil: neutral messages. Set by the
    /// front end that owns the storage.
    public var remedyWording: (@Sendable (Remedy) -> String)?
    /// The other forms models may be kept in inside the data folder (`StorageRegistry.forms`): a file model whose
    /// data is in one of them is refused, never started fresh.
    public var otherForms: [DataFolderForm] = []
    /// The keys of encrypted models (`seal(model:key:)`): their files and side files are written sealed, and
    /// they never journal (a journal would hold plaintext).
    var keys: [String: SymmetricKey] = [:]

    /// The data folder's key, derived or read once.
    var dataKey: SymmetricKey?
    /// The key material `dataKey` came from (the key file's or the salt's bytes, at its path), written again when
    /// another program removed it while the app runs (`keepKeyMaterial`).
    var keyMaterial: (path: String, bytes: [UInt8])?
    /// While a passphrase change is unfinished (`KeyChange`): every key that opens the data folder's files, the
    /// current one first; a sealed file is opened with the one whose id its header names.
    var changeKeys: [SymmetricKey] = []

    /// Writes this model sealed with `key` from now on (storage.md "encrypted").
    public func seal(model: String, key: SymmetricKey) { keys[model] = key }

    /// Writes this model sealed with the data folder's key (`DataKeys`: from the passphrase, else the key file),
    /// derived once per storage.
    public func seal(model: String, passphrase: String?) throws {
        if dataKey == nil {
            changeKeys = try KeyChange.keys(dataFolder: dataFolder, passphrase: passphrase)
            keyMaterial = readKeyMaterial(passphrase: passphrase)
        }
        guard let key = dataKey ?? changeKeys.first else {
            throw StorageError(kind: .io, path: folder.keys,
                               message: "no key for the sealed data", remedy: .givePassphrase)
        }
        dataKey = key
        keys[model] = key
    }

    /// The key that opens a sealed file of this model: its own, else the data folder's, else any known key.
    func key(for model: String) -> SymmetricKey? { keys[model] ?? dataKey ?? keys.values.first }

    /// The key with this id (as in a sealed file's header) among the keys this storage holds, else the data
    /// folder's key when it has that id (derived or read on demand).
    public func key(withId id: [UInt8], passphrase: String?) -> SymmetricKey? {
        for k in Array(keys.values) + [dataKey].compactMap({ $0 }) + changeKeys where SealedFile.keyId(k) == id { return k }
        for k in (try? KeyChange.keys(dataFolder: dataFolder, passphrase: passphrase)) ?? [] where SealedFile.keyId(k) == id { return k }
        return nil
    }

    /// After the data folder's files were replaced (a restore): what this storage remembered of them is
    /// forgotten; each model's next load reads afresh.
    public func filesReplaced() {
        generations = [:]
        fullSizes = [:]
        modelFileIds = [:]
        storedVersions = [:]
        journalBytes = [:]
        journaledIds = [:]
        journaledEntities = [:]
        damagedJournals = []
        unreadable = []
        unreadablePayloads = []
    }

    /// True while this model's files are written sealed.
    public func isSealing(_ model: String) -> Bool { keys[model] != nil || locked.contains(model) }

    /// Models whose key was dropped (protection timeout): nothing of them is read or written until the keys are
    /// back (`restoreKeys`).
    var locked: Set<String> = []
    /// The id of the data folder's key while it is dropped (to check a passphrase against).
    var droppedKeyId: [UInt8]?

    /// Whether the keys are dropped from memory.
    public var keysDropped: Bool { !locked.isEmpty }

    /// Drops every key from memory (storage.md "Protection": after the protection timeout). Sealed models are
    /// then neither read nor written — never written plain — until `restoreKeys`.
    public func dropKeys() {
        guard !keys.isEmpty else { return }
        droppedKeyId = (dataKey ?? keys.values.first).map(SealedFile.keyId)
        locked.formUnion(keys.keys)
        keys = [:]
        dataKey = nil
        keyMaterial = nil   // the key file's bytes are the key
        changeKeys = []
    }

    /// Derives or reads the data folder's key again and seals the models that were locked. Throws (and keeps
    /// them locked) when the passphrase gives another key than the one dropped.
    public func restoreKeys(passphrase: String?) throws {
        guard keysDropped else { return }
        let all = try KeyChange.keys(dataFolder: dataFolder, passphrase: passphrase)
        guard let key = all.first else { return }
        if let id = droppedKeyId, SealedFile.keyId(key) != id {
            throw StorageError(kind: .io, path: folder.keys,
                               message: "wrong passphrase: it does not give the key the data is sealed with")
        }
        dataKey = key
        changeKeys = all
        keyMaterial = readKeyMaterial(passphrase: passphrase)
        for m in locked { keys[m] = key }
        locked = []
        droppedKeyId = nil
    }

    /// Refuses to touch a model whose key is dropped.
    func checkUnlocked(_ model: String) throws {
        if locked.contains(model) {
            throw StorageError(kind: .io, path: (try? folder.modelFile(model)) ?? modelsFolder,
                               message: "the key is dropped while the app is covered; authenticate first (nothing was written)")
        }
    }

    /// Opens (and creates) the data folder and takes its lock.
    public init(dataFolder: URL) throws {
        self.dataFolder = dataFolder
        folder = DataFolder(dataFolder)
        do {
            try folder.create()
            lock = try DataFolderLock(folder)
        } catch let e as StorageError where [EROFS, EACCES, EPERM].contains(e.systemError ?? 0) {
            // A read-only file system or a folder this user may not write (storage.md): say what to do.
            throw e.withRemedy(.writableDataFolder(readOnly: e.systemError == EROFS))
        }
        // A restore that stopped between its two renames is finished (or undone) before anything is read.
        try BackupStore.completeInterruptedRestore(dataFolder: dataFolder)
        try ConversionMarker.complete(okit: folder.okit)   // and an okit-run convert (one form of a model live)
        BackupStore.removeStaleTemporaries(dataFolder: dataFolder)   // of a backup create or upload a crash stopped
    }

    /// Releases the data folder's lock (also released when the storage is deallocated). The storage must not
    /// be used afterwards.
    public func close() { lock.release() }

    /// `<data>/okit/data/<model>.json` (throws for a model name that is not safe as a file name).
    public func path(of model: String) throws -> String { try folder.modelFile(model) }

    // MARK: Load

    func loadModelFile(name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel? {
        let path = try folder.modelFile(name)
        let bytes: FileBytes
        do {
            // An exit patch a crash interrupted is finished first (storage.md "Writing").
            try finishInterruptedPatch(name)
            // The first bytes are looked at before the rest is read: a file that is no model is refused
            // without reading (or allocating) all of it.
            guard let read = try readOpened(path, model: name, head: { head in
                if let bad = ModelFileCheck.badStart(head) {
                    throw Self.describe(JSONReader.Failure(offset: bad, message: "not a model file: expected an object for a \(rootType.name)"),
                                        bytes: head, path: path, rootType: rootType)
                }
            }, mapLarge: true) else {
                // Data kept in another form (a SQLite database) is never started fresh as a file model: convert it.
                if let other = DataFolderForms.other(model: name, declared: .file, folder: folder, forms: otherForms) {
                    unreadable.insert(name)
                    throw StorageError.otherForm(model: name, declared: isSealing(name) ? .encrypted : .file, found: other, convertTo: .file)
                }
                // A journal without its file holds acknowledged changes: never dropped by a fresh start.
                try refuseOrphanJournal(name)
                generations[name] = 0
                return nil
            }
            bytes = read
            try refuseTwoForms(name, path: path)
        } catch let e as StorageError where !locked.contains(name) {
            unreadable.insert(name)   // what could not be read is never written over
            throw e
        }
        // The journal is read first, so the reader finds the entities its records name as it reads them.
        let journal = try readJournalAhead(name)
        let root: Entity
        let header: (version: Int?, generation: Int?, extras: [(key: String, json: [UInt8])], count: Int, type: String?)
        var identified: IdentifiedEntities?
        var showedAll = false
        var madeIdentities = false
        do {
            (root, header, identified, showedAll, madeIdentities) = try HeapPrefault.whileReading(bytes.count) { try bytes.withUnsafeBufferPointer { buf in
                var r = JSONReader(bytes: buf, engine: engine)
                r.listIdentified()
                r.keepsMistyped = true
                r.journalTargets = journal.targets
                if bytes.isMapped { r.releaseBehind = { bytes.releasePages(before: $0) } }
                let e = try r.root(rootType)
                return (e, (r.version, r.generation, r.headerExtras, r.entityCount, r.storedType), r.identifiedEntities,
                        r.identifiedComplete, r.madeIdentities)
            } }
        } catch let f as JSONReader.Failure {
            unreadable.insert(name)
            throw Self.describe(f, bytes: bytes.bytes, path: path, rootType: rootType, app: engine.schemaVersion)
        }
        if let stored = header.type, stored != rootType.name {
            unreadable.insert(name)
            throw StorageError(kind: .wrongType, path: path, message: "the file holds a \(stored) model, not the \(rootType.name) this app declares for model \"\(name)\"",
                               remedy: .described(StorageError.keepRootName(stored: stored)))
        }
        storedVersions[name] = header.version
        let generation = header.generation ?? 0
        generations[name] = generation
        fullSizes[name] = bytes.count
        modelFileIds[name] = FileIdentity(path: path)
        journalBytes[name] = nil
        journaledIds[name] = nil
        journaledEntities[name] = nil
        damagedJournals.remove(name)
        if madeIdentities { wholeNext.insert(name) } else { wholeNext.remove(name) }
        if try applyJournal(journal, name, to: root, generation: generation, readerShowedAll: showedAll,
                            identified: identified, engine: engine) {
            identified = nil   // the records replaced entities the list could not follow: the index walks the tree
        }
        unreadable.remove(name)
        return LoadedModel(root: root, version: header.version, headerExtras: header.extras, entityCount: header.count,
                           identified: identified)
    }

    // MARK: Store

    /// Writes the changed payloads and side files first (so the model file never names one that is not there),
    /// then the model, then deletes the files of removed entities (after the model no longer names them).
    func storeWhole(_ model: Model, engine: any ModelHost) throws -> StoreOutcome {
        if model.isDirty {
            try checkUnlocked(model.name)
            try verifyLock(engine: engine)
            if keys[model.name] != nil { try keepKeyMaterial(engine: engine) }
        }
        if unreadable.contains(model.name) {
            throw StorageError(kind: .io, path: try folder.modelFile(model.name),
                               message: "this model's file could not be read, so it is not written over",
                               remedy: .recover(model: model.name))
        }
        try storePayloads(model, engine: engine)
        try writeBinaries(model, engine: engine)
        let outcome = try storeModel(model, engine: engine)
        try deleteRemovedFiles(model, engine: engine)
        return outcome
    }

    func storeModel(_ model: Model, engine: any ModelHost) throws -> StoreOutcome {
        let name = model.name
        if unreadable.contains(name) {
            throw StorageError(kind: .io, path: try folder.modelFile(name),
                               message: "this model's file could not be read, so it is not written over",
                               remedy: .recover(model: name))
        }
        guard model.isFileDirty else { return .unchanged }
        // Small changes go to the journal, while it stays under 1/journalRatio of the model file (so reading
        // it back costs little and it cannot grow without bound); anything bigger is a full write.
        if keys[name] == nil, !model.wholeDirty, !damagedJournals.contains(name), !wholeNext.contains(name),
           let full = fullSizes[name], full > 0, modelFileIsOurs(name, engine: engine),
           let records = Journal.records(for: model.dirtyUnits, budget: full / journalRatio - (journalBytes[name] ?? 0)) {
            let jpath = try folder.journal(name)
            let units = model.dirtyUnits.compactMap { e in e.state == .managed ? e.id.map { ($0, e) } : nil }
            let ids = units.map(\.0)
            for (id, e) in units { journaledEntities[name, default: [:]][id] = e }
            if let existing = journalBytes[name] {
                do { try AtomicFile.append(Self.writeTarget(jpath), records) } catch {
                    damagedJournals.insert(name)   // part of a record may be there: never append after it
                    throw error
                }
                journalBytes[name] = existing + records.count
                journaledIds[name, default: []].formUnion(ids)
            } else {
                let first = Journal.header(generation: generations[name] ?? 0) + records
                try Self.replace(jpath, with: first)
                journalBytes[name] = first.count
                journaledIds[name] = Set(ids)
            }
            model.clearFileDirty()
            return .journal(bytes: records.count)
        }
        let bytes = try writeFull(model, engine: engine)
        model.clearFileDirty()
        return .full(bytes: bytes)
    }

    /// Writes the whole model file and drops its journal.
    @discardableResult
    func writeFull(_ model: Model, engine: any ModelHost) throws -> Int {
        let name = model.name
        // Data of a newer app version is never rewritten (and stamped) by an older one (storage.md "Versions").
        if let stored = storedVersions[name], stored > engine.schemaVersion {
            throw StorageError(kind: .io, path: try folder.modelFile(name), message: Self.newerMessage(stored: stored, app: engine.schemaVersion))
        }
        let generation = (generations[name] ?? 0) + 1
        // The buffer of the previous full write is reused (a fresh one would page-fault its whole size again).
        var writer = JSONWriter(output: buffer)
        defer {
            if writer.out.capacity > FileStorage.maxKeptBuffer { buffer = JSONOutput(capacity: 0) }
        }
        let path = try folder.modelFile(name)
        func write() throws {
            writer.document(model.root, type: model.rootType.name, version: engine.schemaVersion,
                            generation: generation, headerExtras: model.headerExtras)
            writer.flush()
            if let e = writer.sinkError { throw e }
            // Never write what a load refuses (storage.md "Limits"): the previous file stays.
            if writer.deepest > JSONReader.maxDepth {
                throw StorageError(kind: .io, path: path,
                                   message: "the model nests \(writer.deepest) levels of JSON deep, more than a load reads (\(JSONReader.maxDepth)): it is not written, the file keeps its previous contents; make the deepest entities shallower")
            }
        }
        if let key = keys[name] {
            // Sealed in one piece (AES-GCM over the whole document).
            writer.out.reserveCapacity(max(1 << 16, (fullSizes[name] ?? 0) + (fullSizes[name] ?? 0) / 16 + 4096))
            try write()
            try Self.replace(path, with: try writer.out.withUnsafeBytes { try SealedFile.seal(bytes: $0, key: key) })
        } else {
            // Streamed to the temporary a chunk at a time (`JSONWriter.sink`).
            writer.out.reserveCapacity(JSONWriter.chunk + JSONWriter.chunk / 4)
            try Self.replace(path) { fd, tmp in
                var written = 0
                writer.sink = { chunk in
                    try AtomicFile.writeAll(fd, chunk, path: tmp)
                    AtomicFile.startWriteback(fd, offset: written, count: chunk.count)
                    written += chunk.count
                }
                defer { writer.sink = nil }
                try write()
            }
        }
        generations[name] = generation
        storedVersions[name] = engine.schemaVersion
        fullSizes[name] = writer.total
        modelFileIds[name] = FileIdentity(path: path)
        wholeNext.remove(name)
        // The journal (of this or a stale generation) is superseded by the file just written; should removing it
        // fail, it is stale all the same (the next journal write replaces it).
        journalBytes[name] = nil
        journaledIds[name] = nil
        journaledEntities[name] = nil
        damagedJournals.remove(name)
        try AtomicFile.remove(folder.journal(name))
        return writer.total
    }

    /// Writes the model's changes into its file now and removes its journal (at app exit, so `<model>.json` is
    /// complete): in place when they fit (`patchAtExit`), else the whole model. An unchanged model is not written.
    public func compact(_ model: Model, engine: any ModelHost) throws {
        guard !unreadable.contains(model.name), !locked.contains(model.name) else { return }
        // The key material goes back even when nothing is written: the files already sealed need it.
        if keys[model.name] != nil { try keepKeyMaterial(engine: engine) }
        if model.isFileDirty || journalBytes[model.name] != nil {
            try verifyLock(engine: engine)
            if try patchAtExit(model, engine: engine) { return }
            try writeFull(model, engine: engine)
            model.clearFileDirty()
        }
    }
}
