/// A file model's journal (`Journal`), read before its file is parsed and applied after: the records of the file's
/// generation replace the content of the entities they name.
extension FileStorage {
    /// A model's journal as read before its file is parsed (`readJournalAhead`).
    struct PendingJournal {
        let path: String
        /// The journal's bytes (nil: there is none), or why they could not be read (thrown when it is applied,
        /// after the model file's own errors).
        let read: Result<[UInt8]?, any Error>
        /// Its first line; its records are read as if it named the model file's generation, which is checked
        /// once the file is read.
        let header: String?
        let contents: Journal.Contents
        /// The id each record names (nil: none).
        let ids: [String?]
        /// The entities the records name, found by the model's reader (nil: no record).
        let targets: JournalTargets?
    }

    /// Reads the journal of model `name` and the ids its records name, so that the reader of the model file finds
    /// their entities as it reads them (`JSONReader.journalTargets`). Never throws for the journal itself: an
    /// error is kept for `applyJournal`.
    func readJournalAhead(_ name: String) throws -> PendingJournal {
        let path = try folder.journal(name)
        let read = Result { try readOpened(path, model: name) }
        guard case .success(let bytes?) = read, let head = Journal.headerLine(bytes) else {
            return PendingJournal(path: path, read: read, header: nil, contents: Journal.Contents(), ids: [], targets: nil)
        }
        let contents = Journal.parseRecords(bytes, from: head.next)
        let ids = bytes.withUnsafeBufferPointer { buf in
            contents.records.map { Self.peekId(UnsafeBufferPointer(rebasing: buf[$0.startIndex..<$0.endIndex])) }
        }
        let targets = contents.records.isEmpty ? nil : JournalTargets(ids.compactMap { $0 })
        return PendingJournal(path: path, read: read, header: head.line, contents: contents, ids: ids, targets: targets)
    }

    /// Applies the journal read ahead (`readJournalAhead`) to `root` (read from the file of `generation`); true
    /// when records replaced entities and the reader's list of entities with ids (`identified`, kept right as
    /// the records are applied when it can be) no longer is: the id index must then walk the tree. `readerShowedAll`: the model's
    /// reader showed every entity of the tree to the journal's targets (none came from a default). A journal of
    /// another generation is stale (its changes are in the file): the next journal write replaces it, the next
    /// full write removes it. A torn last record (an append cut short) is dropped, and the next store writes the
    /// whole model (never appending after it). Damage anywhere else would drop acknowledged records after it: the
    /// app stops, the journal is left as it is.
    func applyJournal(_ pending: PendingJournal, _ name: String, to root: Entity, generation: Int, readerShowedAll: Bool,
                      identified: IdentifiedEntities?, engine: any ModelHost) throws -> Bool {
        let journal: [UInt8]?
        do { journal = try pending.read.get() } catch let e as StorageError where !locked.contains(name) {
            unreadable.insert(name)
            throw e
        }
        guard let journal, pending.header == Journal.headerText(generation) else { return false }
        let contents = pending.contents
        if let at = contents.damageAt {
            unreadable.insert(name)
            var e = StorageError(kind: .corrupt, path: pending.path, message: "a damaged record that is not the last: the records after it would be lost")
            e.offset = at
            throw e
        }
        journalBytes[name] = journal.count
        if contents.damaged { damagedJournals.insert(name) }
        guard let targets = pending.targets, !contents.records.isEmpty else { return false }
        let listRight: Bool
        do {
            if !readerShowedAll || targets.notedTwice {
                targets.forgetFound()
                targets.find(in: root, replacing: false)
            }
            listRight = try apply(contents.records, ids: pending.ids, of: journal, targets: targets,
                                      identified: identified, engine: engine, path: pending.path)
            journaledIds[name] = targets.named
            // The exit patch takes these entities only while few are journaled: a long journal's (10,000 records)
            // are not made into a table of ids (5 ms of `load_journal`) for a patch that will not be made.
            journaledEntities[name] = targets.named.count <= Self.maxPatchedEntities ? targets.byId : nil
        } catch {
            unreadable.insert(name)   // a full write would drop the journal's changes
            throw error
        }
        return !listRight
    }

    /// Applies journal records (slices of `journal`): each replaces the content of the entity with its id, in
    /// place. Only the entities the records name are looked for (`JournalTargets`). With the reader's list of
    /// entities with ids, the replaced content's entities are marked as out of the tree and each record's are
    /// listed (`IdentifiedEntities.holdsReplaced`); true when the list is right after all the records.
    private func apply(_ records: [ArraySlice<UInt8>], ids: [String?], of journal: [UInt8], targets: JournalTargets,
                       identified: IdentifiedEntities?, engine: any ModelHost, path: String) throws -> Bool {
        var listRight = identified != nil
        try journal.withUnsafeBufferPointer { buf in
            for (n, (json, id)) in zip(records, ids).enumerated() {
                guard let id, let target = targets.entity(named: id) else {
                    // Nothing okit writes gives one (a record names an entity of the file or of a record before
                    // it); a journal from elsewhere might. Its change cannot be put anywhere: said, not dropped silently.
                    engine.warn("\(path): record \(n + 1) changes " + (id.map { "the entity with id \($0)" } ?? "an entity without an id")
                                + ", which the model does not have; that change was not applied (the journal goes at the next full store: copy it now to keep it)")
                    continue
                }
                var r = JSONReader(bytes: UnsafeBufferPointer(rebasing: buf[json.startIndex..<json.endIndex]), engine: engine)
                if listRight { r.listIdentified() }
                let fresh: Entity
                do {
                    fresh = try r.entity(target.type, parent: target.parent)
                } catch let f as JSONReader.Failure {
                    throw Self.describe(f, bytes: Array(json), path: path, rootType: target.type)
                }
                if listRight, let identified, let listed = r.identifiedEntities, Self.markReplaced(target) {
                    identified.holdsReplaced = true
                    identified.take(listed, except: fresh)
                } else {
                    listRight = false
                }
                target.adoptValues(of: fresh)
                // The replaced content's entities win over the ones they replaced (an entity that moved between
                // records is found where it is now).
                targets.find(in: target, replacing: true)
            }
        }
        return listRight
    }

    /// Marks the entities `target`'s fields and collections hold now — the content a record replaces — as out of
    /// the model (`.removed`). False when one carries a partial's payload, which its record does not replace (the
    /// reader's list is then not kept).
    private static func markReplaced(_ target: Entity) -> Bool {
        var kept = true
        func mark(_ e: Entity) {
            guard kept else { return }
            if e.payload != nil { kept = false; return }
            e.forEachChildValue { c in
                c.state = .removed
                mark(c)
            }
        }
        mark(target)
        return kept
    }

    /// The `id` member of a record's object, read without building anything.
    private static func peekId(_ buf: UnsafeBufferPointer<UInt8>) -> String? {
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
