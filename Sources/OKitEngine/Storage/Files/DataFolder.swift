import Foundation

/// The layout of a data folder (storage.md, "Data directory"): the one place that spells `okit/…`. Every path
/// under `okit/data` comes from a validated name: a model name or id with `/`, `\`, `..`, a NUL or a leading `.`
/// never becomes a path.
public struct DataFolder: Sendable {
    /// `<data>`.
    public let root: String

    public init(_ root: URL) { self.root = root.path }

    /// The folder every okit file lives in, relative to `<data>`.
    public static let okitName = "okit"
    /// `okit/pending`: where a data folder keeps HTTP changes not sent yet, as a path relative to `<data>` (for a
    /// message about an app that has no data folder).
    public static let relativePending = okitName + "/pending"

    /// `<data>/okit`.
    public var okit: String { root + "/" + Self.okitName }
    /// `<data>/okit/data`: the models.
    public var models: String { okit + "/data" }
    /// `<data>/okit/lock`: the advisory lock of the folder.
    public var lockFile: String { okit + "/lock" }
    /// `<data>/okit/keys`: the data folder's key (`data.key`) or the passphrase's salt, and a key change's files.
    public var keys: String { okit + "/keys" }
    /// The key file's name in `okit/keys` (when the data is not sealed with a passphrase).
    public static let keyFileName = "data.key"
    /// The name in `okit/keys` of the salt the passphrase is derived with.
    public static let saltName = "salt"
    /// `<data>/okit/keys/data.key`.
    public var keyFile: String { keys + "/" + Self.keyFileName }
    /// `<data>/okit/keys/salt`.
    public var salt: String { keys + "/" + Self.saltName }
    /// `<data>/okit/pending`: HTTP models' changes their server has not taken yet.
    public var pending: String { okit + "/pending" }
    /// `<data>/okit/conflicts.jsonl`: the fields of shared models this process's stores lost (storage.md).
    public var conflicts: String { okit + "/conflicts.jsonl" }
    /// `<data>/okit/refused.jsonl`: the values of shared models a database refused, or a pending file held in a
    /// form the schema does not take, set aside instead of written (storage.md "Values a database refuses").
    public var refused: String { okit + "/refused.jsonl" }
    /// `<data>/okit/backup`: the backups.
    public var backups: String { okit + "/backup" }

    /// `<data>/okit/data/<model>.json`.
    public func modelFile(_ model: String) throws -> String {
        try Names.validate(model, what: "model name")
        return models + "/" + model + ".json"
    }

    /// `<data>/okit/data/<model>.<ext>`: a model's file in a kind's own form (`DataFolderForm`: a `sqlite`
    /// model's database, storage.md "SQLite models").
    public func modelFile(_ model: String, extension ext: String) throws -> String {
        try Names.validate(model, what: "model name")
        return models + "/" + model + "." + ext
    }

    /// `<data>/okit/data/<model>.journal`: small changes since the model file was last written.
    public func journal(_ model: String) throws -> String {
        try Names.validate(model, what: "model name")
        return models + "/" + model + ".journal"
    }

    /// `<data>/okit/data/<model>/_data/<id>.raw` or `…/_image/<id>.<png|jpeg>` (namespaced per model); nil
    /// when the model name or the id is not safe as a file name.
    func binary(model: String, id: String, image: Bool, format: String) -> String? {
        guard Names.isSafe(model), Names.isSafe(id) else { return nil }
        if image { return models + "/\(model)/_image/\(id).\(ImageFormat.fileExtension(format))" }
        return models + "/\(model)/_data/\(id).raw"
    }

    /// `<data>/okit/data/<model>/<stub id>.json`: a partial's payload; nil when the model name or the id is not
    /// safe as a file name.
    func payload(model: String, id: String) -> String? {
        guard Names.isSafe(model), Names.isSafe(id) else { return nil }
        return models + "/\(model)/\(id).json"
    }

    /// Whether a path is a model file or journal (`…/okit/data/<model>.json|.journal`); its model name when so.
    public static func model(ofFile path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        guard ["json", "journal"].contains(url.pathExtension), folder.lastPathComponent == "data",
              folder.deletingLastPathComponent().lastPathComponent == okitName else { return nil }
        return url.deletingPathExtension().lastPathComponent
    }

    /// Creates `<data>/okit/data` (and the folders above it) when missing. A folder that cannot be made says why
    /// in okit's words (`AtomicFile.reason`: Foundation's "The volume is read only." says no way out).
    func create() throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: models, isDirectory: &isFolder), isFolder.boolValue { return }
        var path = models.hasPrefix("/") ? "" : "."
        for component in models.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o755) != 0, errno != EEXIST { throw AtomicFile.error(models, "cannot create the data folder") }
        }
        guard FileManager.default.fileExists(atPath: models, isDirectory: &isFolder), isFolder.boolValue else {
            throw StorageError(kind: .io, path: models, message: "cannot create the data folder: something that is not a folder is in its place")
        }
    }
}
