import OKitEngine

extension PostgresStorage {
    /// The rows of these announcements this process applies as announced, without reading them (storage.md
    /// "Following"), by key, as the rows a `SELECT` would have fetched. A row qualifies when:
    ///
    /// - its announcement is signed with the database's announcement key (any role may `NOTIFY`);
    /// - every announcement here that names its key carries it (a deletion, an insertion, or a row left out of a
    ///   full payload is read);
    /// - this process has the row, in that table, and the announced rows of that key form a chain from the version
    ///   it has: each one read at the version the one before wrote (a store's version check makes each version's
    ///   successor unique, so the chain is the row's history in commit order). The chain's last row is the row's
    ///   state after those stores, as a `SELECT` right after the last of them reads it. Anything else — a row
    ///   announced out of order, one this process has a newer version of, a version it never had — is read;
    /// - its table writes the same columns here (the fingerprint).
    func announcedRows(_ announcements: [PostgresAnnouncement]) -> [String: PostgresFetchedRow] {
        guard let key = announcementKey, announcements.contains(where: { !$0.rows.isEmpty }) else { return [:] }
        var chains: [String: [(row: PostgresAnnouncedRow, version: Int64)]] = [:]
        var uncarried: Set<String> = []
        for a in announcements {
            let named = Set(a.keys ?? [])
            let rows = a.rows.isEmpty || !key.signed(a) ? [] : a.rows.filter { named.contains($0.key) }
            let carried = Set(rows.map(\.key))
            for r in rows { chains[r.key, default: []].append((r, a.version)) }
            for k in named where !carried.contains(k) { uncarried.insert(k) }
        }
        var out: [String: PostgresFetchedRow] = [:]
        for (k, links) in chains where !uncarried.contains(k) {
            if let row = chainEnd(k, links) { out[k] = row }
        }
        return out
    }

    /// The last row of the chain of announced rows of `key` from the version this process has; nil when they do
    /// not all form one.
    private func chainEnd(_ key: String, _ links: [(row: PostgresAnnouncedRow, version: Int64)]) -> PostgresFetchedRow? {
        guard let b = base[key], stored[key] != nil, b.table < pgTables.count else { return nil }
        let t = pgTables[b.table]
        guard links.allSatisfy({ $0.row.table == t.name }) else { return nil }
        var left = links
        var version = b.version
        var last: (row: PostgresAnnouncedRow, version: Int64)?
        while let i = left.firstIndex(where: { $0.row.read == version }) {
            last = left.remove(at: i)
            version = last?.version ?? version
        }
        guard left.isEmpty, let last, last.row.columns == t.columnsFingerprint, last.row.values.count == t.base.written.count,
              let tables, b.table < tables.tables.count else { return nil }
        let unknown = [RelationalValue](repeating: .null, count: tables.tables[b.table].unknownColumns.count)
        return PostgresFetchedRow(table: b.table, columns: last.row.values + unknown, written: last.row.values, version: last.version)
    }
}
