/// The entities a journal's records name, found by id without making a string of every entity's id: an entity
/// whose id is packed (`PackedId`) is compared by its bits — first its high word, in an open-addressed table (ids
/// are random, so their bits are their hash; Swift's hashing of every entity's id cost as much as the load of a
/// small model), then in full — any other by its string.
///
/// A load finds them as the model file is read: the reader shows each entity it finishes (`note`), hot in the
/// cache, instead of a walk of the loaded tree afterwards (43 ms of `load_journal`'s 240 at 100,000 books, most of
/// it chasing the tree's pointers; issue 38). The exit patch, and a load whose reader could not show every entity,
/// walk the tree (`find`).
final class JournalTargets {
    /// A canonical id's bits.
    private struct Bits: Hashable {
        let hi: UInt64
        let lo: UInt64
    }

    /// The named canonical ids' high words, open-addressed (0: an empty place; an id whose high word is 0 is in
    /// `packed` only, and `zeroNamed` says one is named). Set once: every property read per entity is a `let`,
    /// so reading it checks no exclusive access.
    private let table: [UInt64]
    private let mask: Int
    /// 64 less the table's bits: a word's place is the top bits of its product with 2⁶⁴/φ. Not its low bits: a
    /// version-4 UUID's high word ends in its version nibble (4) and 12 random bits, so its low 15 bits took 4,096
    /// places only, and with 10,000 ids named every entity's lookup walked a cluster of thousands (`load_journal`
    /// 1.6 s at 100,000 books).
    private let shift: UInt64
    private let zeroNamed: Bool
    /// One bit per place of 2¹⁷, set for each named high word (the top 17 bits of its product with 2⁶⁴/φ): 16 KiB
    /// that stay in the first-level cache, where the table (256 KiB for 10,000 ids) cost a cache miss for each of
    /// the 210,000 entities a load shows; an entity whose bit is clear (most) is not named.
    private let filter: [UInt64]
    /// The named canonical ids, in full.
    private let packed: Set<Bits>
    /// Every named id as written.
    let named: Set<String>
    /// The entity found for each named id: canonical ones by their bits (no string is made for them), others by
    /// their text.
    private var found: [Bits: Entity] = [:]
    private var foundTexts: [String: Entity] = [:]
    /// Whether `note` was shown a named id twice (ids copied inside one file): the reader shows an entity when it
    /// is finished, after its children, where the walk meets it before them, so which one is "first" is left to
    /// the walk.
    private(set) var notedTwice = false

    init(_ ids: some Sequence<String>) {
        named = Set(ids)
        var size = 16
        while size < named.count * 2 { size *= 2 }
        var table = [UInt64](repeating: 0, count: size)
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
        var packed: Set<Bits> = []
        packed.reserveCapacity(named.count)
        var zeroNamed = false
        var filter = [UInt64](repeating: 0, count: 1 << 11)
        for id in named {
            var id = id
            guard let bits = id.withUTF8({ PackedId.parse($0) }) else { continue }
            packed.insert(Bits(hi: bits.0, lo: bits.1))
            if bits.0 == 0 { zeroNamed = true; continue }
            let bit = Self.filterBit(bits.0)
            filter[bit >> 6] |= 1 << UInt64(bit & 63)
            var i = Self.place(bits.0, shift: shift, mask: mask)
            while table[i] != 0, table[i] != bits.0 { i = (i + 1) & mask }
            table[i] = bits.0
        }
        self.table = table
        self.packed = packed
        self.zeroNamed = zeroNamed
        self.filter = filter
    }

    /// Where a high word's probe starts.
    @inline(__always) private static func place(_ word: UInt64, shift: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> shift) & mask
    }

    /// A high word's bit in `filter`.
    @inline(__always) private static func filterBit(_ word: UInt64) -> Int {
        Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> 47)
    }

    /// Whether a packed id is named.
    @inline(__always) private func names(_ bits: (UInt64, UInt64)) -> Bool {
        if bits.0 == 0 { return zeroNamed && packed.contains(Bits(hi: bits.0, lo: bits.1)) }
        let bit = Self.filterBit(bits.0)
        if filter[bit >> 6] & (1 << UInt64(bit & 63)) == 0 { return false }
        var i = Self.place(bits.0, shift: shift, mask: mask)
        while true {
            let word = table[i]
            if word == 0 { return false }
            if word == bits.0 { return packed.contains(Bits(hi: bits.0, lo: bits.1)) }
            i = (i + 1) & mask
        }
    }

    /// Records `e` when its id is named (its type has an id and is not a reference): the first one found for its
    /// id, or, `replacing`, this one. Returns whether its id is named and was found before.
    @inline(__always) @discardableResult
    private func record(_ e: Entity, replacing: Bool) -> Bool {
        guard e.type.hasId, !e.type.isRef else { return false }
        if let bits = e.packedId {
            return names(bits) && keep(e, as: Bits(hi: bits.0, lo: bits.1), replacing: replacing)
        }
        // An id kept as text (rare: most are packed) may still be canonical.
        guard var id = e.id, named.contains(id) else { return false }
        if let bits = id.withUTF8({ PackedId.parse($0) }) { return keep(e, as: Bits(hi: bits.0, lo: bits.1), replacing: replacing) }
        let before = foundTexts[id] != nil
        if replacing || !before { foundTexts[id] = e }
        return before
    }

    /// Records `e` for the canonical id `key` (see `record`).
    @inline(__always) private func keep(_ e: Entity, as key: Bits, replacing: Bool) -> Bool {
        let before = found[key] != nil
        if replacing || !before { found[key] = e }
        return before
    }

    /// How many named ids have an entity.
    private var foundCount: Int { found.count + foundTexts.count }

    /// The entity found for the id `id` (as a record names it), if any.
    func entity(named id: String) -> Entity? {
        var id = id
        if let bits = id.withUTF8({ PackedId.parse($0) }) { return found[Bits(hi: bits.0, lo: bits.1)] }
        return foundTexts[id]
    }

    /// The entity found for each named id, by the id's text.
    var byId: [String: Entity] {
        var out = foundTexts
        for e in found.values { if let id = e.id { out[id] = e } }
        return out
    }

    /// An entity the model's reader finished (the root included): recorded when its id is named.
    func note(_ e: Entity) {
        if record(e, replacing: false) { notedTwice = true }
    }

    /// Forgets what `note` found (the tree is walked instead).
    func forgetFound() {
        found = [:]
        foundTexts = [:]
        notedTwice = false
    }

    /// Records the entities of `e`'s tree with a named id: the first one found for an id (`replacing` false:
    /// the walk of the loaded tree, which stops once every id is found), or the one in this tree (`replacing`
    /// true: a record's replaced content).
    func find(in e: Entity, replacing: Bool) {
        if !replacing, foundCount == named.count { return }
        record(e, replacing: replacing)
        e.forEachChild { find(in: $0, replacing: replacing) }
    }
}
