import Crypto
import Foundation

/// The data a recorded session starts from: when the data folder already holds model files (`<data>/okit/data/`),
/// they are copied aside before the app loads, and saved beside the test as `<name>_data/` when the recording is
/// written, so the test launches with them (`launch(app, { fixtures = "<name>_data" })`). A fresh data folder
/// (the app seeds its models) has nothing to copy: the test launches fresh too.
///
/// Files of `encrypted` models are sealed with the data folder's key, which the test's fresh data folder does not
/// have (and key files are never copied): the copy holds them opened, in plain text — a sealed-kind model reads a
/// plain file (storage.md: reads recognise a sealed file by its header) and seals it again with the test folder's
/// own key on its first store. Their `<model>.form` records are left out, so the test's first load seals every
/// file as the app's setting asks. The front ends say so where the person sees it (`unsealedFiles`).
public enum FlowTestFixtures {
    /// The file in a copy that lists the files it holds opened (one path a line, relative to the copy); it is
    /// read by the recorder and never saved beside the test.
    static let unsealedList = ".okit-unsealed"

    /// Copies the model files of `dataFolder` to a temporary folder, sealed files opened with the data folder's
    /// key (`passphrase`: the app's, which the front end read — okit-run's terminal from `OKIT_PASSPHRASE`); nil
    /// when there are no model files. Throws when a sealed file opens with no key of the folder (the copy is removed).
    public static func capture(dataFolder: URL,
                               passphrase: String?) throws -> URL? {
        let fm = FileManager.default
        let models = URL(fileURLWithPath: DataFolder(dataFolder).models, isDirectory: true)
        let files = (try? fm.contentsOfDirectory(at: models, includingPropertiesForKeys: nil)) ?? []
        guard files.contains(where: { !$0.hasDirectoryPath && !$0.lastPathComponent.hasPrefix(".") }) else { return nil }
        let copy = fm.temporaryDirectory.appendingPathComponent("okit-recording-\(UUID().uuidString)", isDirectory: true)
        try fm.copyItem(at: models, to: copy)
        keepPrivate(copy)              // before a sealed file is opened in it: nobody else reads the plain text
        do {
            try unseal(copy, original: models, keys: { try KeyChange.keys(dataFolder: dataFolder, passphrase: passphrase) })
        } catch {
            try? fm.removeItem(at: copy)
            throw error
        }
        return copy
    }

    /// Makes `folder` and everything in it its owner's only (folders 0700, files 0600), as backups are: a copy holds
    /// sealed models opened, in plain text.
    public static func keepPrivate(_ folder: URL) {
        let fm = FileManager.default
        try? fm.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        let walk = fm.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey])
        while let item = walk?.nextObject() as? URL {
            let folder = (try? item.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true
            try? fm.setAttributes([.posixPermissions: folder ? 0o700 : 0o600], ofItemAtPath: item.path)
        }
    }

    /// The files of a copy that were sealed and are held opened (paths relative to the copy, sorted); empty for a
    /// copy of plain files.
    public static func unsealedFiles(in copy: URL) -> [String] {
        guard let text = try? String(contentsOf: copy.appendingPathComponent(unsealedList), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    /// Removes what only the recording needs from a copy (the list of opened files) before it is saved.
    static func prepareForSaving(_ copy: URL) {
        try? FileManager.default.removeItem(at: copy.appendingPathComponent(unsealedList))
    }

    /// Opens every sealed file of `copy` in place with the key its header names (`keys` read once, when the first
    /// sealed file is found), drops the `<model>.form` record of each model whose file was opened, and lists the
    /// opened files in `unsealedList`.
    static func unseal(_ copy: URL, original: URL, keys: () throws -> [SymmetricKey]) throws {
        let fm = FileManager.default
        var known: [SymmetricKey]?
        var opened: [String] = []
        let base = copy.standardizedFileURL.resolvingSymlinksInPath().path
        let walk = fm.enumerator(at: copy, includingPropertiesForKeys: [.isRegularFileKey])
        while let file = walk?.nextObject() as? URL {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let bytes = [UInt8](try Data(contentsOf: file))
            guard SealedFile.isSealed(bytes) else { continue }
            let relative = String(file.standardizedFileURL.resolvingSymlinksInPath().path.dropFirst(base.count + 1))
            if known == nil { known = try keys() }
            let plain = try open(bytes, keys: known ?? [], path: original.appendingPathComponent(relative).path)
            try Data(plain).write(to: file)
            opened.append(relative)
        }
        guard !opened.isEmpty else { return }
        for model in opened where !model.contains("/") && model.hasSuffix(".json") {
            try? fm.removeItem(at: copy.appendingPathComponent(String(model.dropLast(".json".count)) + ".form"))
        }
        try Data((opened.sorted().joined(separator: "\n") + "\n").utf8).write(to: copy.appendingPathComponent(unsealedList))
    }

    /// A sealed file's bytes opened with the one of `keys` its header names.
    static func open(_ sealed: [UInt8], keys: [SymmetricKey], path: String) throws -> [UInt8] {
        var failure: SealedFile.OpenError = .otherKey
        for key in keys {
            do { return try SealedFile.open(sealed, key: key) } catch let e as SealedFile.OpenError {
                if case .otherKey = e { continue }
                failure = e
            }
        }
        throw StorageError(kind: .io, path: path, message: "\(failure); the recording cannot start from it",
                           remedy: .passphraseIfSealedWithOne)
    }
}
