/// Rows of a load by their key (`SQLiteReadRows.link`): open addressing over (hash, row) pairs, where a key's
/// text is compared only when its hash matches. A `[String: Int32]` hashed each 36-byte id with the standard
/// hasher and compared the key of every occupied slot it probed (memcmp), a fifth of a SQLite load.
struct SQLiteRowsByKey {
    private var hashes: [UInt64]
    private var rows: [Int32]
    private let mask: Int

    /// Room for `count` keys, at most half full.
    init(count: Int) {
        var capacity = 16
        while capacity < count * 2 { capacity *= 2 }
        hashes = [UInt64](repeating: 0, count: capacity)
        rows = [Int32](repeating: -1, count: capacity)
        mask = capacity - 1
    }

    /// Adds `row` under its key (`keys[row]`) unless a row with the same key is there already.
    mutating func insertFirst(_ row: Int32, keys: [String]) {
        let key = keys[Int(row)]
        let h = ByteHash.fnv(key)
        var j = Int(truncatingIfNeeded: h) & mask
        while rows[j] >= 0 {
            if hashes[j] == h, keys[Int(rows[j])] == key { return }
            j = (j &+ 1) & mask
        }
        hashes[j] = h
        rows[j] = row
    }

    /// The row with this key.
    func find(_ key: String, keys: [String]) -> Int32? {
        let h = ByteHash.fnv(key)
        var j = Int(truncatingIfNeeded: h) & mask
        while rows[j] >= 0 {
            if hashes[j] == h, keys[Int(rows[j])] == key { return rows[j] }
            j = (j &+ 1) & mask
        }
        return nil
    }
}
