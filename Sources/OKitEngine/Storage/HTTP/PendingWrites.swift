import Foundation

/// The durable outbox of HTTP models (storage.md "http": a failed write stays pending and nothing typed is lost).
///
/// Every store of an HTTP model goes through it: the bytes to send are written here first (atomically and
/// durably), then sent, and removed once the server took them. What a failed or interrupted send leaves here
/// is loaded first by the next run and sent by the next store. Layout under `<data>/okit/pending/`:
///
/// - `<model>.json`: the model's whole document, as it is sent (sealed for `encryptedHttp`);
/// - `<model>.meta`: JSON `{"etag": …, "conflict": …, "deletes": […]}`: the ETag of the server's copy the
///   change is based on (sent as `If-Match`), whether the server refused it as a conflict (412), and the side
///   files to delete on the server once the model is written;
/// - `<model>.files/<relative path>`: side files to send (`_data/<id>.raw`, `_image/<id>.png`, `<stub id>.json`).
///
/// The suffixes differ, so no model's files can collide with another's. The meta file is written before the
/// body and removed after it: a body here always has the meta it was based on.
struct PendingWrites {
    /// `<data>/okit/pending`.
    let folder: String

    init(dataFolder: URL) { folder = DataFolder(dataFolder).pending }

    /// What is known about a model's pending change besides its bytes.
    struct Meta: Equatable {
        /// The ETag of the server's copy the change is based on (nil: none known; sent without `If-Match`).
        var etag: String?
        /// The server refused the change (412): `okit-run sync --keep-local | --take-remote` resolves it.
        var conflict = false
        /// Side files (relative to `<model>/`) to delete on the server after the model was written.
        var deletes: [String] = []
    }

    func bodyPath(_ model: String) -> String { folder + "/" + model + ".json" }
    func metaPath(_ model: String) -> String { folder + "/" + model + ".meta" }
    func filesFolder(_ model: String) -> String { folder + "/" + model + ".files" }
    func filePath(_ model: String, _ relative: String) -> String { filesFolder(model) + "/" + relative }

    private func createFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw StorageError(kind: .io, path: path, message: "cannot create the folder of pending changes: \(error.localizedDescription)")
        }
    }

    // MARK: The model's body

    /// The pending body of a model, or nil.
    func body(_ model: String) throws -> [UInt8]? { try AtomicFile.read(bodyPath(model)) }

    /// Saves a body to send, with the meta it is based on (meta first: a body never lacks its meta).
    func saveBody(_ bytes: [UInt8], meta: Meta, model: String) throws {
        try saveMeta(meta, model: model)
        try AtomicFile.replace(bodyPath(model), with: bytes)
    }

    /// After the server took the body.
    func removeBody(_ model: String) throws { try AtomicFile.remove(bodyPath(model)) }

    // MARK: Meta

    func meta(_ model: String) throws -> Meta? {
        let path = metaPath(model)
        guard let bytes = try AtomicFile.read(path) else { return nil }
        guard let object = JSONTree.parse(bytes, nonFiniteWords: false), case .object = object else {
            throw StorageError(kind: .io, path: path, message: "the record of a pending change does not read; fix or remove it (the change itself is in \(bodyPath(model)))")
        }
        // A list with anything but strings is no list of deletes (nothing is deleted).
        let deletes = object["deletes"]?.array.flatMap { items in items.allSatisfy { $0.string != nil } ? items.compactMap(\.string) : nil }
        return Meta(etag: object["etag"]?.string, conflict: object["conflict"]?.bool ?? false,
                    deletes: (deletes ?? []).filter { Self.isSafeRelative($0) })
    }

    /// `{"conflict":…,"deletes":[…],"etag":…}`: the keys sorted, no spaces.
    func saveMeta(_ meta: Meta, model: String) throws {
        try createFolder(folder)
        var text = "{\"conflict\":\(meta.conflict),\"deletes\":["
        text += meta.deletes.map(JSONText.quoted).joined(separator: ",")
        text += "],\"etag\":" + (meta.etag.map(JSONText.quoted) ?? "null") + "}"
        try AtomicFile.replace(metaPath(model), with: Array(text.utf8))
    }

    func removeMeta(_ model: String) throws { try AtomicFile.remove(metaPath(model)) }

    // MARK: Side files

    func file(_ model: String, _ relative: String) throws -> [UInt8]? { try AtomicFile.read(filePath(model, relative)) }

    func saveFile(_ bytes: [UInt8], model: String, relative: String) throws {
        let path = filePath(model, relative)
        try createFolder((path as NSString).deletingLastPathComponent)
        try AtomicFile.replace(path, with: bytes)
    }

    func removeFile(_ model: String, _ relative: String) throws { try AtomicFile.remove(filePath(model, relative)) }

    /// The relative paths of a model's pending side files, sorted (temporary files of interrupted writes aside).
    func files(_ model: String) -> [String] {
        let root = filesFolder(model)
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var out: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            var isFolder: ObjCBool = false
            guard !name.hasPrefix("."), FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder),
                  !isFolder.boolValue, Self.isSafeRelative(relative) else { continue }
            out.append(relative)
        }
        return out.sorted()
    }

    /// Removes the side files' folder once it holds no file.
    func pruneFiles(_ model: String) {
        if files(model).isEmpty { try? FileManager.default.removeItem(atPath: filesFolder(model)) }
    }

    // MARK: The whole change

    /// True when something of the model waits to be sent: its body, a side file or a delete.
    func hasPending(_ model: String) -> Bool {
        if FileManager.default.fileExists(atPath: bodyPath(model)) || !files(model).isEmpty { return true }
        return !((try? meta(model))??.deletes.isEmpty ?? true)
    }

    /// Drops everything pending of a model (`--take-remote`): body first, then side files, then the meta.
    func clear(_ model: String) throws {
        try AtomicFile.remove(bodyPath(model))
        if FileManager.default.fileExists(atPath: filesFolder(model)) {
            do { try FileManager.default.removeItem(atPath: filesFolder(model)) } catch {
                throw StorageError(kind: .io, path: filesFolder(model), message: "cannot remove the pending side files: \(error.localizedDescription)")
            }
        }
        try AtomicFile.remove(metaPath(model))
    }

    /// The models with something pending, sorted.
    func models() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var models = Set<String>()
        for name in names where !name.hasPrefix(".") {
            for suffix in [".json", ".meta", ".files"] where name.hasSuffix(suffix) {
                models.insert(String(name.dropLast(suffix.count)))
            }
        }
        return models.filter { Names.isSafe($0) && hasPending($0) }.sorted()
    }

    /// A relative side-file path whose every component is a safe name (never leaves `<model>/`).
    static func isSafeRelative(_ relative: String) -> Bool {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { Names.isSafe(String($0)) }
    }
}
