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
            journaledIds[name] = try apply(contents.records, to: root, engine: engine, path: jpath)
        } catch {
            unreadable.insert(name)   // a full write would drop the journal's changes
            throw error
        }
        return true
    }

    /// Applies journal records: each replaces the content of the entity with its id, in place.
    ///
    /// Only the entities the records name are looked for (`JournalTargets`): a walk that made every entity's id
    /// a string and put it in a dictionary cost more than the load itself on a large model (issue 38, item 2:
    /// `load_journal`). Returns the ids the records name.
    private func apply(_ records: [ArraySlice<UInt8>], to root: Entity, engine: any ModelHost, path: String) throws -> Set<String> {
        let ids = records.map { Self.peekId(Array($0)) }
        var targets = JournalTargets(ids.compactMap { $0 })
        targets.find(in: root, replacing: false)
        for (json, id) in zip(records, ids) {
            guard let id, let target = targets.byId[id] else { continue }
            let bytes = Array(json)
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
            // The replaced content's entities win over the ones they replaced (an entity that moved between
            // records is found where it is now).
            targets.find(in: target, replacing: true)
        }
        return Set(ids.compactMap { $0 })
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

/// The entities a journal's records name, found by id without making a string of every entity's id: an entity
/// whose id is packed (`PackedId`) is compared by its bits — first its high word, in an open-addressed table (ids
/// are random, so their bits are their hash; Swift's hashing of every entity's id cost as much as the load of a
/// small model), then in full — any other by its string.
struct JournalTargets {
    /// The named canonical ids' high words, open-addressed (0: an empty place; an id whose high word is 0 is in
    /// `packed` only, and `zeroNamed` says one is named).
    private var table: [UInt64]
    private let mask: Int
    /// 64 less the table's bits: a word's place is the top bits of its product with 2⁶⁴/φ. Not its low bits: a
    /// version-4 UUID's high word ends in its version nibble (4) and 12 random bits, so its low 15 bits took 4,096
    /// places only, and with 10,000 ids named every entity's lookup walked a cluster of thousands (`load_journal`
    /// 1.6 s at 100,000 books).
    private let shift: UInt64
    private var zeroNamed = false
    /// The named canonical ids, in full.
    private var packed: Set<[UInt64]> = []
    /// Every named id as written.
    private let named: Set<String>
    /// The entity found for each named id.
    private(set) var byId: [String: Entity] = [:]

    init(_ ids: [String]) {
        named = Set(ids)
        var size = 16
        while size < named.count * 2 { size *= 2 }
        table = Array(repeating: 0, count: size)
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
        for id in named {
            var id = id
            guard let bits = id.withUTF8({ PackedId.parse($0) }) else { continue }
            packed.insert([bits.0, bits.1])
            if bits.0 == 0 { zeroNamed = true; continue }
            var i = place(bits.0)
            while table[i] != 0, table[i] != bits.0 { i = (i + 1) & mask }
            table[i] = bits.0
        }
    }

    /// Where a high word's probe starts.
    @inline(__always) private func place(_ word: UInt64) -> Int {
        Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> shift) & mask
    }

    /// Whether a packed id is named.
    private func names(_ bits: (UInt64, UInt64)) -> Bool {
        if bits.0 == 0 { return zeroNamed && packed.contains([bits.0, bits.1]) }
        var i = place(bits.0)
        while true {
            let word = table[i]
            if word == 0 { return false }
            if word == bits.0 { return packed.contains([bits.0, bits.1]) }
            i = (i + 1) & mask
        }
    }

    /// Records the entities of `e`'s tree with a named id: the first one found for an id (`replacing` false:
    /// the walk of the loaded tree, which stops once every id is found), or the one in this tree (`replacing`
    /// true: a record's replaced content).
    mutating func find(in e: Entity, replacing: Bool) {
        if !replacing, byId.count == named.count { return }
        if e.type.hasId, !e.type.isRef {
            let id: String?
            if let bits = e.packedId {
                id = names(bits) ? e.id : nil
            } else {
                id = e.id.flatMap { named.contains($0) ? $0 : nil }
            }
            if let id, replacing || byId[id] == nil { byId[id] = e }
        }
        e.forEachChild { find(in: $0, replacing: replacing) }
    }
}
