import Foundation

/// The `encryption` setting (storage.md "encrypted"): an encrypted model's files switched between sealed and
/// plain, crash-safely. `<data>/okit/data/<model>.form` records the form the last finished switch left every file
/// in (`sealed` or `plain`; `switching` while one runs). A switch runs when the setting differs from that record —
/// also after a crash part-way, and for data written before the record existed — so every file of the model,
/// loaded or not, ends up in the form the setting asks for.
extension FileStorage {
    /// `<model>.form` beside the model file.
    func formPath(_ model: String) throws -> String {
        let file = try folder.modelFile(model)
        return String(file.dropLast(".json".count)) + ".form"
    }

    /// The form the last finished switch left the model's files in: true sealed, false plain, nil unknown (no
    /// record yet, or a switch that did not finish).
    func recordedForm(_ model: String) -> Bool? {
        guard let path = try? formPath(model), let bytes = try? AtomicFile.read(path) else { return nil }
        switch String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) {
        case "sealed": return true
        case "plain": return false
        default: return nil
        }
    }

    /// Switches an encrypted model between sealed and plain (the app's `encryption` setting) and rewrites every
    /// file of it — the model file and its data and image side files — in the new form. Each file is replaced
    /// atomically and reads recognise either form, so a crash part-way leaves every file readable; the next
    /// switch finishes the job.
    public func setSealing(_ model: Model, _ on: Bool, passphrase: String?, engine: any ModelHost, force: Bool = false) throws {
        guard force || on != isSealing(model.name) || recordedForm(model.name) != on else { return }
        try checkUnlocked(model.name)
        let formFile = try formPath(model.name)
        try FileManager.default.createDirectory(atPath: modelsFolder, withIntermediateDirectories: true)
        try AtomicFile.replace(formFile, with: Array("switching\n".utf8))
        if on {
            try seal(model: model.name, passphrase: passphrase)
            try keepKeyMaterial(engine: engine)
        } else {
            if dataKey == nil { dataKey = keys[model.name] }
            keys[model.name] = nil
        }
        guard !unreadable.contains(model.name) else { return }
        try storePayloads(model, engine: engine)
        try writeBinaries(model, engine: engine)
        try writeFull(model, engine: engine)
        model.clearFileDirty()
        // Every other file of the model, loaded or not: partials' payloads, data and images.
        let root = URL(fileURLWithPath: modelsFolder).appendingPathComponent(model.name)
        for dir in [root, root.appendingPathComponent("_data"), root.appendingPathComponent("_image")] {
            for file in ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() where !file.hasPrefix(".") {
                let path = dir.appendingPathComponent(file).path
                if dir == root, !file.hasSuffix(".json") { continue }
                guard let plain = try readOpened(path, model: model.name) else { continue }
                try Self.replace(path, with: try keys[model.name].map { try SealedFile.seal(plain, key: $0) } ?? plain)
            }
        }
        try AtomicFile.replace(formFile, with: Array((on ? "sealed\n" : "plain\n").utf8))
    }

}
