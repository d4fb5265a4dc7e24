import OKitEngine
import PostgresNIO

/// What a start reads of PostgreSQL's catalog about the model's tables (storage.md "Shared models on PostgreSQL"):
/// each table's columns with their types, and whether its order index is there — for every table in one statement.
/// Registration makes and completes the tables from it (`PostgresTable.ensure`), reads again only the tables it
/// changed, and the load that follows selects the columns it names (`PostgresStorage.readAll`).
struct PostgresCatalog {
    struct Table {
        /// The table's columns in order, with their `data_type` (those `information_schema.columns` shows this role:
        /// none for a table that is not there).
        var columns: [(name: String, type: String)] = []
        /// Whether the table has its order index (`PostgresTable.orderIndexName`).
        var hasOrderIndex = false

        var names: [String] { columns.map(\.name) }
    }

    /// One entry for each table asked about, in the order asked.
    var tables: [Table]

    /// The columns and order indexes of `tables`, in one statement.
    static func read(_ link: PostgresLink, tables: [PostgresTable]) throws -> PostgresCatalog {
        let sql = """
            SELECT table_name::text, column_name::text, data_type::text, ordinal_position::int FROM information_schema.columns \
            WHERE table_schema = current_schema() AND table_name = ANY($1) \
            UNION ALL SELECT tablename::text, NULL, indexname::text, 0 FROM pg_indexes \
            WHERE schemaname = current_schema() AND tablename = ANY($1) AND indexname = ANY($2) ORDER BY 1, 4
            """
        var found: [String: Table] = [:]
        for row in try link.query(sql, [.texts(tables.map(\.name)), .texts(tables.map(\.orderIndexName))]).rows {
            let v = PostgresLink.values(row)
            guard let t = String.fromRelationalValue(v[0]), let third = String.fromRelationalValue(v[2]) else { continue }
            if let column = String.fromRelationalValue(v[1]) {
                found[t, default: Table()].columns.append((column, third))
            } else if tables.contains(where: { $0.name == t && $0.orderIndexName == third }) {
                found[t, default: Table()].hasOrderIndex = true
            }
        }
        return PostgresCatalog(tables: tables.map { found[$0.name] ?? Table() })
    }

    /// Reads again the tables at `changed` (a start created them or added columns): their columns' types as
    /// PostgreSQL made them.
    mutating func reread(_ link: PostgresLink, tables: [PostgresTable], changed: [Int]) throws {
        guard !changed.isEmpty else { return }
        let again = try Self.read(link, tables: changed.map { tables[$0] })
        for (k, i) in changed.enumerated() { self.tables[i] = again.tables[k] }
    }
}

/// An order index PostgreSQL refused to make for a reason other than this role's rights or a read-only database
/// (storage.md "Shared models on PostgreSQL"): the model opens without it, and a warning says why and what to do.
struct PostgresIndexRefusal: Equatable {
    let table: String
    let index: String
    /// The statement that makes it (what the warning tells a user to run).
    let sql: String
    /// The server's SQLSTATE ("" when the error had none).
    let state: String
    /// Why, in PostgreSQL's words.
    let reason: String

    /// The refusals a start passes over without a word: a role that may not index the tables (they belong to
    /// another role: SQLSTATE 42501) and a read-only transaction or standby (25006). The index is only a speed-up.
    static let silentStates: Set<String> = ["42501", "25006"]

    /// The refusal of `error` for table `t`; nil when it is one of `silentStates`.
    init?(_ t: PostgresTable, _ error: Error) {
        let state = (error as? PSQLError)?.serverInfo?[.sqlState] ?? ""
        guard !Self.silentStates.contains(state) else { return nil }
        self.init(table: t.name, index: t.orderIndexName, sql: t.orderIndexSQL, state: state, reason: PostgresStorage.text(error))
    }

    init(table: String, index: String, sql: String, state: String, reason: String) {
        self.table = table
        self.index = index
        self.sql = sql
        self.state = state
        self.reason = reason
    }

    /// The warning of a start of `model` on the database shown as `shown`.
    func warning(model: String, shown: String) -> String {
        let code = state.isEmpty ? "" : " (SQLSTATE \(state))"
        let head = "\(shown): model \"\(model)\": PostgreSQL refused to make the order index \"\(index)\" on table \"\(table)\": \(reason)\(code). "
            + "The model opened, and its rows are read sorted without the index, which is slower for a large table; "
        switch state {
        case "42P07", "42710":
            return head + "another object of the schema has that name: rename or drop it, and okit makes the index at its next start"
        case "55P03", "57014", "40P01":
            return head + "another transaction held the table longer than lock_timeout or statement_timeout allow: okit tries "
                + "again at its next start, or run when the table is quiet: \(sql)"
        default:
            return head + "once that is fixed okit makes the index at its next start, or run as the table's owner: \(sql)"
        }
    }
}
