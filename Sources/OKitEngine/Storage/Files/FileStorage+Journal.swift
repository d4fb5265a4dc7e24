/// A file model's journal (`Journal`), read after its file: the records of the file's generation replace the
/// content of the entities they name.
extension FileStorage {
    /// Reads the journal of model `name` and applies its records to `root` (read from the file of `generation`);
    /// true when records replaced entities (the id index must then walk the tree). A journal of another
    /// generation is stale (its changes are in the file): the next journal write replaces it, the next full
    /// write removes it. A torn last record (an append cut short) is dropped, and the next store writes the whole
    /// model (never appending after it). Damage anywhere else would drop acknowledged records after it: the app
    /// stops, the journal is left as it is.
    func applyJournal(_ name: String, to root: Entity, generation: Int, engine: any ModelHost) throws -> Bool {
        let jpath = try folder.journal(name)
        let journal: [UInt8]?
        do { journal = try readOpened(jpath, model: name) } catch let e as StorageError where !locked.contains(name) {
            unreadable.insert(name)
            throw e
        }
        guard let journal else { return false }
        let contents = Journal.parse(journal, generation: generation)
        guard contents.matches else { return false }
        if let at = contents.damageAt {
            unreadable.insert(name)
            var e = StorageError(kind: .corrupt, path: jpath, message: "a damaged record that is not the last: the records after it would be lost")
            e.offset = at
            throw e
        }
        journalBytes[name] = journal.count
        if contents.damaged { damagedJournals.insert(name) }
        guard !contents.records.isEmpty else { return false }
        do {
            try apply(contents.records, to: root, engine: engine, path: jpath)
        } catch {
            unreadable.insert(name)   // a full write would drop the journal's changes
            throw error
        }
        return true
    }

    /// Applies journal records: each replaces the content of the entity with its id, in place.
    private func apply(_ records: [ArraySlice<UInt8>], to root: Entity, engine: any ModelHost, path: String) throws {
        var byId: [String: Entity] = [:]
        // The replaced content's entities win over the ones they replaced (an entity that moved between
        // records is found where it is now).
        func index(_ e: Entity, replacing: Bool) {
            if e.type.hasId, !e.type.isRef, let id = e.id, replacing || byId[id] == nil { byId[id] = e }
            e.forEachChild { index($0, replacing: replacing) }
        }
        index(root, replacing: false)
        for json in records {
            let bytes = Array(json)
            guard let id = Self.peekId(bytes), let target = byId[id] else { continue }
            let fresh: Entity
            do {
                fresh = try bytes.withUnsafeBufferPointer { buf in
                    var r = JSONReader(bytes: buf, engine: engine)
                    return try r.entity(target.type, parent: target.parent)
                }
            } catch let f as JSONReader.Failure {
                throw Self.describe(f, bytes: bytes, path: path, rootType: target.type)
            }
            target.adoptValues(of: fresh)
            index(target, replacing: true)
        }
    }

    /// The `id` member of a record's object, read without building anything.
    private static func peekId(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { buf -> String? in
            var r = JSONReader(bytes: buf)
            guard (try? r.expect(0x7B, "{")) != nil else { return nil }
            while true {
                guard let key = try? r.string(), (try? r.expect(0x3A, ":")) != nil else { return nil }
                if key == "id" { return try? r.string() }
                guard (try? r.skipValue()) != nil, r.peek() == 0x2C else { return nil }
                r.i += 1
            }
        }
    }
}
