extension Engine {
    /// The model as JSON, exactly as file storage writes it (for `okit-run` to print, and for tools).
    public func json(of model: Model) -> String {
        var w = JSONWriter(capacity: 4096)
        w.document(model.root, type: model.rootType.name, version: schemaVersion, generation: 0, headerExtras: model.headerExtras)
        return String(decoding: w.out.buffer, as: UTF8.self)
    }

    /// Lets every storage finish its models at app exit (`ClosingStorage`): a journal written into its model file
    /// (so each `<model>.json` is whole), a database closed (its WAL checkpointed into the database file).
    public func compactAll() throws {
        for m in models {
            if let s = storages[m.name] as? ClosingStorage { try s.finish(m, engine: self) }
        }
    }
}
