import Foundation

/// The exit patch (storage.md "Writing"): at app exit, a plain model whose changes since its last full write are
/// all in its journal gets them written into its file in place — each changed entity's object replaced by its new
/// form, padded with spaces — instead of a rewrite of the whole file (issue 38: quitting after one rename rewrote
/// 27 MB at 100,000 books).
///
/// Crash safety: the patches are first written to `<model>.patch` (`ExitPatchIntent`) and synced with the folder;
/// then each is written with one `pwrite` that stays inside one 4 KiB page of the file, and the file is synced;
/// then the journal and the intent are removed. A process killed at any instant leaves each patch written whole
/// or not at all; the journal, still there until the file is synced, replays onto the file — patched or not — to
/// the same state (each record replaces a whole entity, and the journal's last record of each entity is what the
/// patch wrote). A power loss that tore a page is repaired at the next open from the intent
/// (`finishInterruptedPatch`), before the file is read. Anything the patch cannot do this way — an entity not
/// found exactly once, a new form longer than the old, a patch crossing a page, an encrypted model — is the full
/// atomic write, as before.
extension FileStorage {
    /// The page a patch must stay inside.
    static let patchPage = 4096
    /// More changed entities than this are a full write (each is looked for in the whole file).
    static let maxPatchedEntities = 16

    /// `<data>/okit/data/<model>.patch`.
    func patchIntentPath(_ model: String) throws -> String { try folder.modelFile(model, extension: "patch") }

    /// Writes the model's journaled changes into its file in place; false when that cannot be done (the caller
    /// writes the whole model). Changes not stored yet are appended to the journal first.
    func patchAtExit(_ model: Model, engine: any ModelHost) throws -> Bool {
        let name = model.name
        guard keys[name] == nil, !model.wholeDirty, !damagedJournals.contains(name), !wholeNext.contains(name),
              (fullSizes[name] ?? 0) > 0 else { return false }
        // The file keeps its header: only a file stamped with this app's version (or not stamped) is patched.
        if let stored = storedVersions[name], stored != engine.schemaVersion { return false }
        if model.isFileDirty, case .full = try storeModel(model, engine: engine) { return true }
        guard let (file, intent) = try plannedExitPatch(model, engine: engine) else { return false }
        if !intent.patches.isEmpty {
            try AtomicFile.replace(try patchIntentPath(name), with: intent.encoded())
            for p in intent.patches { try file.write(p.bytes, at: p.offset) }
            try file.sync()
        }
        // The file now holds every change: the journal and the intent go (either may survive a crash: both then
        // bring the file to the state it already has).
        let journal = try folder.journal(name)
        if unlink(journal) != 0, errno != ENOENT { throw AtomicFile.error(journal, "cannot remove") }
        try AtomicFile.remove(try patchIntentPath(name))
        journalBytes[name] = nil
        journaledIds[name] = nil
        journaledEntities[name] = nil
        model.clearFileDirty()
        return true
    }

    /// The model file and what the exit patch would write into it now (`journalBytes`, `journaledIds`: the
    /// journal's entities); nil when it cannot patch.
    func plannedExitPatch(_ model: Model, engine: any ModelHost) throws -> (file: ModelFileInPlace, intent: ExitPatchIntent)? {
        let name = model.name
        guard journalBytes[name] != nil, let ids = journaledIds[name], !ids.isEmpty, ids.count <= Self.maxPatchedEntities,
              let size = fullSizes[name], let file = ModelFileInPlace(path: try folder.modelFile(name)), file.size == size,
              let patches = plannedPatches(model, ids: ids, file: file, engine: engine) else { return nil }
        file.unmap()   // nothing reads the mapping once the file changes
        let prefix = min(patches.map(\.offset).min() ?? Self.patchPage, Self.patchPage)
        let intent = ExitPatchIntent(size: size, device: file.device, inode: file.inode, prefixLength: prefix,
                                     prefixCRC: try file.prefixCRC(prefix), patches: patches)
        return (file, intent)
    }

    /// The writes that put the current form of each journaled entity in place of its object in the file; nil when
    /// one of them cannot be found, is longer than before, or crosses a page.
    private func plannedPatches(_ model: Model, ids: Set<String>, file: ModelFileInPlace, engine: any ModelHost) -> [ExitPatchIntent.Patch]? {
        guard let entities = journaledEntities(model, ids: ids), let doc = file.mapped() else { return nil }
        var spans: [(span: Range<Int>, entity: Entity)] = []
        for (id, e) in entities {
            guard e !== model.root, let span = JSONObjectSpan.locate(id: id, in: doc, scanned: { file.releasePages(below: $0) }) else { return nil }
            spans.append((span, e))
        }
        spans.sort { $0.span.lowerBound < $1.span.lowerBound }
        var patches: [ExitPatchIntent.Patch] = []
        var covered = 0..<0
        for (span, e) in spans {
            if span.lowerBound < covered.upperBound {
                // Inside an entity written whole (its new form holds this one's); objects never half-overlap.
                guard span.upperBound <= covered.upperBound else { return nil }
                continue
            }
            covered = span
            var writer = JSONWriter(capacity: span.count + 64)
            writer.entity(e)
            var ancestors = 0
            var x = e
            while let p = x.parent { ancestors += 1; x = p }
            // A store never writes what a load refuses (storage.md "Limits"): each ancestor may add an array.
            let old = UnsafeBufferPointer(rebasing: doc[span])
            guard 2 * (ancestors + 1) + writer.deepest <= JSONReader.maxDepth,
                  let p = JSONObjectSpan.patch(old: old, new: merged(old, entity: e, now: writer.bytes, engine: engine)) else { return nil }
            if p.bytes.isEmpty { continue }
            let offset = span.lowerBound + p.offset
            guard offset / Self.patchPage == (offset + p.bytes.count - 1) / Self.patchPage else { return nil }
            patches.append(ExitPatchIntent.Patch(offset: offset, bytes: p.bytes))
        }
        return patches
    }

    /// The entity of each journaled id in the model now: those this process journaled or replayed, when each is
    /// still in the model under that id, else found by a walk of the whole tree; nil when one is not there.
    func journaledEntities(_ model: Model, ids: Set<String>) -> [String: Entity]? {
        if let kept = journaledEntities[model.name], ids.allSatisfy({ id in
            kept[id].map { $0.state == .managed && $0.id == id && $0.model === model } ?? false
        }) {
            return kept.filter { ids.contains($0.key) }
        }
        exitPatchWalks += 1
        let targets = JournalTargets(ids)
        targets.find(in: model.root, replacing: false)
        return targets.byId.count == ids.count ? targets.byId : nil
    }

    /// The entity's object as the file has it, with only the members that changed rewritten (`JSONMemberMerge`),
    /// else its whole new form `now`.
    private func merged(_ old: UnsafeBufferPointer<UInt8>, entity e: Entity, now: [UInt8], engine: any ModelHost) -> [UInt8] {
        // The entity as the file holds it, in okit's form: the members that are the same in both stay as they are.
        var reader = JSONReader(bytes: old, engine: engine)
        guard let before = try? reader.entity(e.type, parent: e.parent) else { return now }
        return JSONMemberMerge.merged(file: old, before: JSONWriter.entityJSON(before), after: now) ?? now
    }

    /// At open, before the model file is read: an exit patch interrupted by a crash is written again from its
    /// intent, when the intent is complete and the file is the one it was made for, and the intent is removed.
    func finishInterruptedPatch(_ name: String) throws {
        let intentPath = try patchIntentPath(name)
        guard let bytes = try AtomicFile.read(intentPath) else { return }
        if let intent = ExitPatchIntent.parse(bytes), let file = ModelFileInPlace(path: try folder.modelFile(name)),
           file.matches(intent), intent.patches.allSatisfy({ $0.offset >= intent.prefixLength && $0.offset + $0.bytes.count <= file.size }) {
            for p in intent.patches { try file.write(p.bytes, at: p.offset) }
            try file.sync()
        }
        try AtomicFile.remove(intentPath)
    }
}
