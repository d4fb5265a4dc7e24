/// The table names of a model's entity types (storage.md "SQLite models"): every type has a table of its own. Two
/// types kept in one table would read each other's rows as their own, so a model where two types map to one
/// table (SQLite compares table names without regard to ASCII case), or a type maps to a table SQLite or okit
/// keeps for itself, is refused when it is declared.
public enum RelationalTableNames {
    /// The table a model's database keeps the root's type and the schema version in (`okit_model`).
    public static let modelTable = "okit_model"

    /// What is wrong with the tables of the model rooted at `rootType` (nil: every type has a table of its own).
    public static func problem(rootType: EntityType, schema: Schema) -> String? {
        var owner: [String: (type: String, table: String)] = [:]
        for t in RelationalTables(rootType: rootType, schema: schema).tables {
            let folded = asciiLowercased(t.name)
            if folded == modelTable || folded.hasPrefix("sqlite_") {
                return "entity type \"\(t.type.name)\" is kept in table \"\(t.name)\", a name the sqlite database keeps for itself; give it another table = \"…\" in okit.entity"
            }
            if let first = owner[folded] {
                let place = first.table == t.name ? "table \"\(t.name)\""
                    : "tables \"\(first.table)\" and \"\(t.name)\" (one table to SQLite, which ignores case)"
                return "entity types \"\(first.type)\" and \"\(t.type.name)\" are both kept in \(place) of the sqlite database; give one of them its own table = \"…\" in okit.entity"
            }
            owner[folded] = (t.type.name, t.name)
        }
        return nil
    }

    /// Refuses the request's model when its types do not each have a table of their own.
    package static func check(_ r: StorageRequest) throws {
        guard let root = r.rootType, let schema = r.schema, let problem = problem(rootType: root, schema: schema) else { return }
        throw StorageOptionError(kind: r.kind, reason: .schema(problem: problem))
    }

    /// `name` with A–Z as a–z (SQLite's folding of identifiers; other letters are kept).
    package static func asciiLowercased(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
