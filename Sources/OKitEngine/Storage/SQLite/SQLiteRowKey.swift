/// The stored rows of a SQLite or PostgreSQL model by key, as the last load or store left them.
typealias SQLiteStoredRows = [SQLiteRowKey: SQLiteStoredRow]

/// A row's key (its id) with its hash computed once: a dictionary probe compares the hashes it holds inline
/// before the texts. With `String` keys, every probe of a table of 400,000 rows compared the 36-byte id of each
/// occupied slot it passed (a cache miss for each, in memory scattered by the load): a tenth of a SQLite load.
struct SQLiteRowKey: Hashable {
    let text: String
    let hash: UInt64

    init(_ text: String) {
        self.text = text
        hash = ByteHash.fnv(text)
    }

    static func == (a: SQLiteRowKey, b: SQLiteRowKey) -> Bool { a.hash == b.hash && a.text == b.text }
    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

extension Dictionary where Key == SQLiteRowKey {
    /// The value under a key's text.
    subscript(key: String) -> Value? {
        get { self[SQLiteRowKey(key)] }
        set { self[SQLiteRowKey(key)] = newValue }
    }

    @discardableResult mutating func removeValue(forKey key: String) -> Value? { removeValue(forKey: SQLiteRowKey(key)) }
}
