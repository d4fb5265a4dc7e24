import Crypto
import Foundation

/// HTTP storage of models (storage.md "http" and "encryptedHttp"): `GET`/`PUT`/`DELETE` of
/// `<endpoint>/<model>.json` and of the side files at the same relative paths as in a data folder
/// (`<model>/_data/<id>.raw`, `<model>/_image/<id>.png`, `<model>/<stub id>.json`).
///
/// - Loading: 200 → the model; 404 → nil (the model starts fresh); any other status, a network error, a timeout
///   or a cut body → an error (the app stops; a model is never started fresh because a server was unreachable).
///   A change left pending by an earlier run is loaded instead of the server's copy, and stays pending.
/// - Storing: the whole document goes to the outbox `<data>/okit/pending/` first (`PendingWrites`), then is
///   sent with `If-Match: <last ETag>`. 200/201/204 → done, the outbox is emptied; 412 → a conflict error (the
///   server's copy is not overwritten); any other failure → an error, and the change stays in the outbox, sent
///   again by the next `store` (even when the model did not change again) or by the next run.
/// - `encryptedHttp`: every body is sealed (`SealedFile`) and sent as `application/octet-stream`; sealed bodies
///   are opened with the key whatever the setting.
///
/// The storage does not take the data folder's lock: the app's file storage holds it.
public final class HTTPStorage: ModelStorage {
    /// The base URL, e.g. `http://127.0.0.1:8080/okit`.
    public let endpoint: URL
    public let dataFolder: URL
    /// Whether bodies are sealed when written.
    public let encrypted: Bool
    let key: SymmetricKey?
    let token: String?
    private(set) var client: HTTPClient
    let pending: PendingWrites
    /// Per model: the ETag of the server's copy as last seen (absent: none known).
    var etags: [String: String] = [:]
    /// Per model: the generation written into its `okit` header last.
    var generations: [String: Int] = [:]
    /// Models whose stored copy could not be read: never written over (`resolveConflict` can force it).
    var unreadable: Set<String> = []
    /// Keys besides `key` that open bodies: those retired by passphrase changes (`KeyChange`).
    var openingKeys: [SymmetricKey] = []
    /// Models whose copy was sealed with a retired key: written again (with `key`) by the next store.
    var reseal: Set<String> = []
    /// Words the remedies of this storage's errors (`StorageError.advice`); nil: neutral messages. Set by the
    /// front end that owns the storage.
    public var remedyWording: (@Sendable (Remedy) -> String)?

    /// - Parameters:
    ///   - endpoint: the base URL (`OKIT_ENDPOINT`, the model's or the app's `endpoint`).
    ///   - dataFolder: the app's data folder; pending changes are kept in `<data>/okit/pending/`.
    ///   - encrypted: seal every body written (`encryptedHttp`).
    ///   - key: the key that seals and opens bodies (required to write when `encrypted`).
    ///   - token: sent as `Authorization: Bearer <token>` (`OKIT_ENDPOINT_TOKEN`).
    ///   - timeout: the total deadline of each request, in seconds.
    ///   - maxBody: the largest answer body accepted, in bytes.
    public init(endpoint: URL, dataFolder: URL, encrypted: Bool, key: SymmetricKey?, token: String?, timeout: TimeInterval = 10,
                maxBody: Int = HTTPClient.defaultMaxBody) {
        self.endpoint = endpoint
        self.dataFolder = dataFolder
        self.encrypted = encrypted
        self.key = key
        self.token = token
        client = HTTPClient(timeout: timeout, token: token, maxBody: maxBody)
        pending = PendingWrites(dataFolder: dataFolder)
    }

    /// The total deadline of each request, in seconds (default 10).
    public var timeout: TimeInterval {
        get { client.timeout }
        set { client = HTTPClient(timeout: newValue, token: token, maxBody: client.maxBody) }
    }

    /// True when some model has a change the server has not taken yet (kept in `<data>/okit/pending/`).
    public var hasPendingChanges: Bool { !pendingModels().isEmpty }

    /// The models with changes the server has not taken yet, sorted.
    public func pendingModels() -> [String] { pending.models() }

    /// True when the server refused the model's pending change as a conflict (412) and it is not resolved yet.
    public func isConflicted(_ model: String) -> Bool { ((try? pending.meta(model)) ?? nil)?.conflict ?? false }

    /// `<endpoint>/<relative path>`, each segment percent-encoded (the segments are validated names).
    func url(_ relative: String) -> URL {
        var base = endpoint.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        let path = relative.split(separator: "/").map { String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }
        return URL(string: base + "/" + path.joined(separator: "/")) ?? endpoint.appendingPathComponent(relative)
    }

    // MARK: Sealing

    /// Opens a sealed body with the key (a plain body is returned as it is).
    func open(_ bytes: [UInt8], model: String, source: String) throws -> [UInt8] {
        guard SealedFile.isSealed(bytes) else { return bytes }
        guard let key else {
            unreadable.insert(model)
            throw StorageError(kind: .io, path: source, message: "the body is sealed: declare model \"\(model)\" with storage = \"encryptedHttp\"",
                               remedy: .passphraseIfSealedWithOne).worded(remedyWording)
        }
        let opener = KeyChange.key(opening: bytes, among: [key] + openingKeys) ?? key
        if SealedFile.keyId(opener) != SealedFile.keyId(key) { reseal.insert(model) }
        do { return try SealedFile.open(bytes, key: opener) } catch {
            unreadable.insert(model)
            throw StorageError(kind: .io, path: source, message: "\(error); it is left as it is")
        }
    }

    /// Seals bytes to write when the storage is encrypted.
    func sealed(_ plain: [UInt8], model: String) throws -> [UInt8] {
        guard encrypted else { return plain }
        guard let key else {
            throw StorageError(kind: .io, path: pending.bodyPath(model), message: "model \"\(model)\" is encryptedHttp but no key was given; nothing was written")
        }
        return try SealedFile.seal(plain, key: key)
    }

    // MARK: Load

    public func load(name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel? {
        try Names.validate(name, what: "model name")
        unreadable.remove(name)
        // A change an earlier run could not send wins over the server's copy, and stays pending.
        if let body = try pending.body(name) {
            etags[name] = try pending.meta(name)?.etag
            let path = pending.bodyPath(name)
            return try decode(try open(body, model: name, source: path), name: name, rootType: rootType, engine: engine, source: path,
                              advice: "the pending change does not read; move it aside to load the server's copy")
        }
        let u = url(name + ".json")
        let response = try call("GET", u, advice: loadAdvice(name), remedy: .checkEndpoint)
        switch response.status {
        case 200:
            etags[name] = response.etag
            let source = "GET \(u.absoluteString)"
            return try decode(try open(response.body, model: name, source: source), name: name, rootType: rootType, engine: engine,
                              source: source, advice: "the server's copy is left as it is; fix it on the server (or delete it to start fresh)")
        case 404:
            etags[name] = nil
            generations[name] = 0
            return nil
        default:
            throw statusError("GET", u, response, advice: loadAdvice(name), remedy: .checkEndpoint)
        }
    }

    /// Reads a model document; one that does not read leaves the model unreadable (never written over).
    func decode(_ bytes: [UInt8], name: String, rootType: EntityType, engine: any ModelHost, source: String, advice: String) throws -> LoadedModel {
        do {
            let (root, version, generation, extras, count, identified) = try bytes.withUnsafeBufferPointer { buf in
                var r = JSONReader(bytes: buf, engine: engine)
                r.listIdentified()
                let e = try r.root(rootType)
                return (e, r.version, r.generation, r.headerExtras, r.entityCount, r.identifiedEntities)
            }
            generations[name] = generation ?? 0
            return LoadedModel(root: root, version: version, headerExtras: extras, entityCount: count, identified: identified)
        } catch let f as JSONReader.Failure {
            unreadable.insert(name)
            throw Self.describe(f, bytes: bytes, source: source, rootType: rootType, advice: advice)
        }
    }

    /// A JSON failure as a one-line error: where (line, column, JSON path), what, and the way out.
    static func describe(_ f: JSONReader.Failure, bytes: [UInt8], source: String, rootType: EntityType, advice: String) -> StorageError {
        let located = FileStorage.describe(f, bytes: bytes, path: source, rootType: rootType)
        var place = ""
        if let line = located.line, let column = located.column { place = " at line \(line), column \(column)" }
        if let path = located.jsonPath { place += " (\(path))" }
        // Kind `.io`: a file's `--recover` advice does not apply to a server's copy.
        var e = StorageError(kind: .io, path: source, message: "\(f.message)\(place); \(advice)")
        (e.offset, e.line, e.column, e.jsonPath) = (located.offset, located.line, located.column, located.jsonPath)
        return e
    }

    // MARK: Store

    /// Puts the model's changes in the outbox (when it is dirty), then sends everything pending of it: side
    /// files, the model, then the deletes of removed side files. Throws when the server did not take the model;
    /// the change then stays pending.
    public func store(_ model: Model, engine: any ModelHost) throws -> StoreOutcome {
        let name = model.name
        try Names.validate(name, what: "model name")
        if unreadable.contains(name) {
            throw StorageError(kind: .io, path: "PUT \(url(name + ".json").absoluteString)",
                               message: "this model's stored copy could not be read, so it is not written over",
                               remedy: .syncKeepLocal).worded(remedyWording)
        }
        if model.isDirty || reseal.contains(name) {
            try stage(model, engine: engine)
            reseal.remove(name)
        }
        guard pending.hasPending(name) else {
            model.clearDirty()
            return .unchanged
        }
        let sent = try flush(name)
        model.clearDirty()
        return sent > 0 ? .full(bytes: sent) : .unchanged
    }

    /// Writes the model's whole document, its changed partial payloads and data/image bytes to the outbox, and
    /// records the side files of removed entities to delete on the server.
    func stage(_ model: Model, engine: any ModelHost) throws {
        let name = model.name
        var meta = try pending.meta(name) ?? PendingWrites.Meta()
        // A body already pending keeps the ETag it was based on; otherwise the change is based on the last seen.
        let hasBody = try pending.body(name) != nil
        if !hasBody { meta.etag = etags[name] }
        for p in model.dirtyPayloads {
            guard let stub = p.parent, stub.state == .managed, stub.model === model, let id = stub.id, Names.isSafe(id) else { continue }
            var writer = JSONWriter(capacity: 4096)
            writer.document(p, type: p.type.name, version: engine.schemaVersion, generation: 1, headerExtras: [])
            try pending.saveFile(try sealed(writer.bytes, model: name), model: name, relative: "\(id).json")
        }
        try engine.storeWrittenBytes(of: model) { meta, bytes in
            guard let relative = Self.binaryPath(meta) else { return false }
            try pending.saveFile(try sealed(bytes, model: name), model: name, relative: relative)
            return true
        }
        for removed in model.removedSinceStore where removed.state == .removed && !removed.isContained {
            for relative in removedFiles(in: removed, engine: engine) {
                try pending.removeFile(name, relative)
                if !meta.deletes.contains(relative) { meta.deletes.append(relative) }
            }
        }
        let generation = (generations[name] ?? 0) + 1
        var writer = JSONWriter(capacity: 1 << 16)
        writer.document(model.root, type: model.rootType.name, version: engine.schemaVersion,
                        generation: generation, headerExtras: model.headerExtras)
        try pending.saveBody(try sealed(writer.bytes, model: name), meta: meta, model: name)
        generations[name] = generation
    }

    /// The side files (relative to `<model>/`) of a removed entity and of everything in it.
    private func removedFiles(in e: Entity, engine: any ModelHost) -> [String] {
        var out: [String] = []
        if e.type.kind == .binary, let relative = Self.binaryPath(e) {
            out.append(relative)
            engine.forgetLoadedBytes(of: e)
        }
        if e.type.partial != nil, let id = e.id, Names.isSafe(id) { out.append("\(id).json") }
        e.forEachChild { out += removedFiles(in: $0, engine: engine) }
        return out
    }

    /// Sends what is pending of a model: side files, then the model (with `If-Match`), then the deletes.
    /// Returns the size of the model body sent (0 when only side files or deletes were pending).
    @discardableResult
    func flush(_ name: String) throws -> Int {
        for relative in pending.files(name) {
            guard let bytes = try pending.file(name, relative) else { continue }
            let u = url(name + "/" + relative)
            let response = try call("PUT", u, headers: ["Content-Type": Self.contentType(bytes, relative: relative)], body: bytes,
                                    advice: keptAdvice(name))
            guard [200, 201, 204].contains(response.status) else { throw statusError("PUT", u, response, advice: keptAdvice(name)) }
            try pending.removeFile(name, relative)
        }
        pending.pruneFiles(name)
        var meta = try pending.meta(name) ?? PendingWrites.Meta(etag: etags[name])
        var sent = 0
        if let body = try pending.body(name) {
            let u = url(name + ".json")
            var headers = ["Content-Type": SealedFile.isSealed(body) ? "application/octet-stream" : "application/json"]
            if let etag = meta.etag { headers["If-Match"] = etag }
            let response = try call("PUT", u, headers: headers, body: body, advice: keptAdvice(name))
            switch response.status {
            case 200, 201, 204:
                try pending.removeBody(name)
                // An answer without an ETag leaves none known: the next write is sent without If-Match.
                etags[name] = response.etag
                meta.etag = response.etag
                meta.conflict = false
                sent = body.count
            case 412:
                meta.conflict = true
                try pending.saveMeta(meta, model: name)
                throw StorageError(kind: .io, path: "PUT \(u.absoluteString)",
                                   message: "\(response.statusLine) — the server's copy changed; your changes are kept in \(pending.bodyPath(name))",
                                   remedy: .syncChoose).worded(remedyWording)
            default:
                throw statusError("PUT", u, response, advice: keptAdvice(name))
            }
        }
        // Removed side files go once the model that no longer names them is written; one that fails is tried
        // again by the next store (a leftover file on the server loses nothing).
        meta.deletes = meta.deletes.filter { relative in
            guard let response = try? call("DELETE", url(name + "/" + relative), advice: "") else { return true }
            return !((200..<300).contains(response.status) || response.status == 404)
        }
        if meta.deletes.isEmpty { try pending.removeMeta(name) } else { try pending.saveMeta(meta, model: name) }
        return sent
    }

    static func contentType(_ bytes: [UInt8], relative: String) -> String {
        if SealedFile.isSealed(bytes) { return "application/octet-stream" }
        if relative.hasSuffix(".json") { return "application/json" }
        if relative.hasPrefix("_image/") { return relative.hasSuffix(".png") ? "image/png" : "image/jpeg" }
        return "application/octet-stream"
    }

    // MARK: Side files

    /// `_data/<id>.raw` or `_image/<id>.<png|jpeg>` (relative to `<model>/`), nil for an id unsafe as a name.
    static func binaryPath(_ meta: Entity) -> String? {
        guard let id = meta.id, Names.isSafe(id) else { return nil }
        if meta.type.name == "okit.Image" { return "_image/\(id).\(ImageFormat.fileExtension(meta["format"]?.displayString ?? ""))" }
        return "_data/\(id).raw"
    }

    /// A side file's bytes: the pending copy when there is one, else the server's (404 → nil).
    func readSide(_ model: String, _ relative: String) throws -> (bytes: [UInt8], source: String)? {
        if let local = try pending.file(model, relative) {
            let source = pending.filePath(model, relative)
            return (try open(local, model: model, source: source), source)
        }
        let u = url(model + "/" + relative)
        let advice = "the file was not read; check the server"
        let response = try call("GET", u, advice: advice)
        switch response.status {
        case 200:
            let source = "GET \(u.absoluteString)"
            return (try open(response.body, model: model, source: source), source)
        case 404: return nil
        default: throw statusError("GET", u, response, advice: advice)
        }
    }

    public func readBinary(_ meta: Entity, model: Model) throws -> [UInt8]? {
        guard Names.isSafe(model.name), let relative = Self.binaryPath(meta) else { return nil }
        return try readSide(model.name, relative)?.bytes
    }

    public func loadPayload(of stub: Entity, type: EntityType, model: Model, engine: any ModelHost) throws -> Entity? {
        guard Names.isSafe(model.name), let id = stub.id, Names.isSafe(id) else {
            throw StorageError(kind: .io, path: url(model.name).absoluteString,
                               message: "the partial \(stub.debugName) has no id that is safe as a URL segment")
        }
        guard let side = try readSide(model.name, "\(id).json") else { return nil }
        let bytes = side.bytes, source = side.source
        do {
            return try bytes.withUnsafeBufferPointer { buf in
                var r = JSONReader(bytes: buf, engine: engine)
                return try r.root(type)
            }
        } catch let f as JSONReader.Failure {
            throw Self.describe(f, bytes: bytes, source: source, rootType: type, advice: "it is left as it is")
        }
    }

    // MARK: Conflicts

    /// Resolves a conflict (`okit-run sync --keep-local | --take-remote`).
    ///
    /// - keepLocal: reads the ETag of the server's current copy and sends the local one (the pending change, or
    ///   the model as it is in memory) based on it, overwriting the server's copy.
    /// - takeRemote: drops the pending change and reloads the server's copy into the model (`engine.reload`).
    public func resolveConflict(_ model: Model, engine: any ModelHost, keepLocal: Bool) throws {
        let name = model.name
        try Names.validate(name, what: "model name")
        guard keepLocal else {
            try pending.clear(name)
            etags[name] = nil
            unreadable.remove(name)
            engine.forgetLoadedBytes(of: model)
            try engine.reload(model)
            return
        }
        let u = url(name + ".json")
        let advice = "the conflict is not resolved; your changes are kept in \(pending.bodyPath(name))"
        let response = try call("GET", u, advice: advice)
        let remote: String?
        switch response.status {
        case 200: remote = response.etag
        case 404: remote = nil
        default: throw statusError("GET", u, response, advice: advice)
        }
        unreadable.remove(name)
        let hasBody = try pending.body(name) != nil
        if model.isDirty || !hasBody { try stage(model, engine: engine) }
        var meta = try pending.meta(name) ?? PendingWrites.Meta()
        meta.etag = remote
        meta.conflict = false
        try pending.saveMeta(meta, model: name)
        etags[name] = remote
        try flush(name)
        model.clearDirty()
        model.retireRemoved()
    }
}
