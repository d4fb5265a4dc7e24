import Foundation

/// A form a storage kind keeps models in inside the data folder besides the file kind's `<model>.json`: one file
/// per model under `okit/data` (`<model>.<fileExtension>`) with side files named after it (a SQLite database with
/// its `-wal` and `-shm`). The data folder's code asks the registered forms (`StorageRegistry.forms`) instead of
/// knowing them: a model whose data is in another form than the one declared is refused (never started fresh), a
/// backup copies the form's file consistently and leaves its side files out, a restore checks that the file reads
/// as the model, and recovering a model moves the file aside with its side files.
public protocol DataFolderForm: Sendable {
    /// The kind that keeps models in this form.
    var kind: StorageKind { get }
    /// How messages name a model's data in this form ("a SQLite database").
    var name: String { get }
    /// The extension of a model's file under `okit/data` (`sqlite`).
    var fileExtension: String { get }
    /// The suffixes of the files that go with a model's file (`-wal`, `-shm`, `-journal`).
    var sideSuffixes: [String] { get }
    /// A consistent copy of the file at `path` (its side files' content included), for a backup.
    func snapshot(_ path: String) throws -> [UInt8]
    /// Throws as a load would when `bytes` (a backup's copy of the file at `relativePath`) do not read as a model
    /// of root type `rootType`.
    func checkDecodes(_ bytes: [UInt8], relativePath: String, rootType: EntityType, engine: any ModelHost) throws
}

extension DataFolderForm {
    /// The model whose file `relativePath` (under `okit/data`) is in this form; nil: it is not one.
    public func model(ofFile relativePath: String) -> String? {
        let ext = "." + fileExtension
        guard !relativePath.contains("/"), relativePath.hasSuffix(ext), relativePath.count > ext.count else { return nil }
        return String(relativePath.dropLast(ext.count))
    }

    /// Whether `relativePath` (under `okit/data`) is a side file of a model's file in this form.
    public func isSideFile(_ relativePath: String) -> Bool {
        !relativePath.contains("/") && sideSuffixes.contains { relativePath.hasSuffix("." + fileExtension + $0) }
    }

    /// Model `model`'s file in this form.
    public func file(of model: String, in folder: DataFolder) throws -> String {
        try folder.modelFile(model, extension: fileExtension)
    }
}

/// Where a model's data is when it is not in the form its kind keeps (a model declared `sqlite` whose data is a
/// JSON file): the first of the file kind's `<model>.json` and the registered forms' files that exists.
public enum DataFolderForms {
    /// How messages name a model's data as the file kind keeps it.
    public static let jsonName = "a JSON file"

    /// The data model `model` has in `folder` in a form other than `declared`'s: its path and the form's name.
    public static func other(model: String, declared: StorageKind, folder: DataFolder, forms: [DataFolderForm]) -> (path: String, name: String)? {
        let fm = FileManager.default
        var candidates: [(path: String, name: String)] = []
        if declared != .file && declared != .encrypted, let json = try? folder.modelFile(model) { candidates.append((json, jsonName)) }
        for form in forms where form.kind != declared {
            if let path = try? form.file(of: model, in: folder) { candidates.append((path, form.name)) }
        }
        return candidates.first { fm.fileExists(atPath: $0.path) }
    }
}
