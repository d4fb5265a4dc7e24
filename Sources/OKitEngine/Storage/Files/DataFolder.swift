import Foundation

/// The layout of a data folder (storage.md, "Data directory"). Every path comes from a validated name: a
/// model name or id with `/`, `\`, `..`, a NUL or a leading `.` never becomes a path.
struct DataFolder {
    /// `<data>`.
    let root: String

    init(_ root: URL) { self.root = root.path }

    /// `<data>/okit`.
    var okit: String { root + "/okit" }
    /// `<data>/okit/data`: the models.
    var models: String { root + "/okit/data" }
    /// `<data>/okit/lock`: the advisory lock of the folder.
    var lockFile: String { okit + "/lock" }

    /// `<data>/okit/data/<model>.json`.
    func modelFile(_ model: String) throws -> String {
        try Names.validate(model, what: "model name")
        return models + "/" + model + ".json"
    }

    /// `<data>/okit/data/<model>.journal`: small changes since the model file was last written.
    func journal(_ model: String) throws -> String {
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

    /// Creates `<data>/okit/data` (and the folders above it) when missing.
    func create() throws {
        do {
            try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        } catch {
            throw StorageError(kind: .io, path: models, message: "cannot create the data folder: \(error.localizedDescription)")
        }
    }
}
