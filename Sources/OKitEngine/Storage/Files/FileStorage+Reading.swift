import Foundation

/// Reading a model's files: whole, opened when sealed, a large model file mapped (`FileBytes`).
extension FileStorage {
    /// Reads a file and opens it when sealed; a seal that does not open leaves the model unreadable (never
    /// written over).
    func readOpened(_ path: String, model: String, head: (([UInt8]) throws -> Void)? = nil) throws -> [UInt8]? {
        try readOpened(path, model: model, head: head, mapLarge: false)?.bytes
    }

    /// `readOpened(_:model:head:)`; with `mapLarge`, a large plain file is mapped rather than read (`FileBytes`).
    func readOpened(_ path: String, model: String, head: (([UInt8]) throws -> Void)? = nil, mapLarge: Bool) throws -> FileBytes? {
        try checkUnlocked(model)
        guard let read = try AtomicFile.read(path, head: head, mapLarge: mapLarge) else { return nil }
        guard read.withUnsafeBufferPointer({ SealedFile.isSealed($0) }) else { return read }
        return FileBytes(try unsealed(read.bytes, path: path, model: model))
    }

    /// The plain bytes of a sealed file.
    private func unsealed(_ raw: [UInt8], path: String, model: String) throws -> [UInt8] {
        guard let key = KeyChange.key(opening: raw, among: changeKeys) ?? key(for: model) else {
            unreadable.insert(model)
            throw StorageError(kind: .io, path: path, message: "the file is sealed: declare model \"\(model)\" with storage = \"encrypted\"",
                               remedy: .passphraseIfSealedWithOne)
        }
        do { return try SealedFile.open(raw, key: key) } catch {
            unreadable.insert(model)
            let isModelFile = path == (try? folder.modelFile(model))
            throw StorageError(kind: .io, path: path, message: "\(error); the file is left as it is",
                               remedy: .passphraseBackupOrAside(model: isModelFile ? model : nil, path: path))
        }
    }
}

extension FileStorage {
    /// A model whose JSON file (at `path`, read) has a file in another form beside it (`<model>.sqlite`) is held
    /// twice: refused, naming which is live (`StorageError.twoForms`).
    func refuseTwoForms(_ name: String, path: String) throws {
        for form in otherForms {
            guard let other = try? form.file(of: name, in: folder), FileManager.default.fileExists(atPath: other) else { continue }
            throw StorageError.twoForms(model: name, declared: isSealing(name) ? .encrypted : .file, live: (path, DataFolderForms.jsonName),
                                        other: (other, form.name), otherKind: form.kind)
        }
    }
}
