/// How an entity type is kept as a table by the `sqlite` storage kind (storage.md "SQLite models"; Action Data's
/// `ADDataTable`): `okit.entity(name, fields, { table = "Categories", primaryKey = "categoryId", key = "autoincrement" })`.
/// Other kinds ignore it.
public struct TableMapping: Sendable, Equatable {
    /// The table's name; nil: the type's name.
    public var table: String?
    /// The primary key column's name; nil: `id`.
    public var primaryKey: String?
    /// Ids are decimal strings allocated when an entity is created (1, 2, 3, … as Action Data's
    /// `.autoIncrementingInt`), kept in an INTEGER primary key; false: okit's UUID text.
    public var autoIncrement = false

    public init(table: String? = nil, primaryKey: String? = nil, autoIncrement: Bool = false) {
        self.table = table
        self.primaryKey = primaryKey
        self.autoIncrement = autoIncrement
    }
}
