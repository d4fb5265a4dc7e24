/// Values stored with another type than their field now declares (lua-api.md "Schema versions"): kept for the
/// migrations in a model stored by an older version than the app's, else refused naming the field.
extension RelationalRowReader {
    /// A column whose value does not read as its field's type (`text` says how).
    func mistyped(_ v: RelationalValue, _ c: RelationalTable.Reading, _ table: RelationalTable, key: RelationalRowKey,
                  owner e: Entity, _ text: String) throws {
        if keepsMistyped, c.width == 1 {
            e.keepMistyped(slot: c.slot, json: Self.json(v))
            return
        }
        throw error(table, key.text, table.columns[c.column].name, text)
            .withRemedy(.described(MistypedValues.advice(stored: storedVersion, app: engine.schemaVersion)))
    }

    /// A column of a field that this schema keeps elsewhere (`ref Owner` become an owned `Owner`, whose rows are
    /// in their own table): its value is the field's as stored.
    func movedField(_ v: RelationalValue, name: String, slot: Int, _ table: RelationalTable, key: RelationalRowKey,
                    owner e: Entity) throws {
        if keepsMistyped {
            e.keepMistyped(slot: slot, json: Self.json(v))
            return
        }
        let declared = table.type.fields[slot].type.declaration
        throw error(table, key.text, name, "field \"\(name)\" of \(table.type.name) is declared \(declared) but the column holds its stored value \(RelationalColumnValue.describe(v)) (a reference?)")
            .withRemedy(.described(MistypedValues.advice(stored: storedVersion, app: engine.schemaVersion)))
    }
}
