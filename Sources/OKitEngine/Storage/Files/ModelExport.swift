extension Engine {
    /// The model as JSON, exactly as file storage writes it (for `okit-run` to print, and for tools).
    public func json(of model: Model) -> String {
        var w = JSONWriter(capacity: 4096)
        w.document(model.root, type: model.rootType.name, version: schemaVersion, generation: 0, headerExtras: model.headerExtras)
        return String(decoding: w.out.buffer, as: UTF8.self)
    }

    /// Writes every model whose storage keeps a journal completely (at app exit, so each `<model>.json` is whole),
    /// and closes sqlite models' databases (their WAL checkpointed into the database file).
    public func compactAll() throws {
        for m in models {
            if let fs = storages[m.name] as? FileStorage { try fs.compact(m, engine: self) }
            if let db = storages[m.name] as? SQLiteStorage { db.close() }
        }
    }
}
