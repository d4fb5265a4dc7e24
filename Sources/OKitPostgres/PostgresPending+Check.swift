import Foundation
import OKitEngine

/// A pending file's values checked against the schema like any other write (storage.md "Values a database
/// refuses"): each value must be of its column's kind (lossless coercions taken, as a write takes them: `"5"` for an
/// int), a field that is not optional holds a value, a text holds no NUL. A value that fails is reported with the
/// file, model, entity and field and set aside; it is never written.
extension PostgresStorage {
    /// The row to replay — coerced, and for a row read before, its refused fields put back to the values read (so
    /// that they are not changed) — or nil when it is left out whole (a new row, a deletion or a row whose key, link
    /// or base does not check). What was refused is appended to `refused`.
    func checkedPendingRow(_ r: PostgresPendingRow, refused: inout [PostgresRefusal]) -> PostgresPendingRow? {
        func leaveOut(_ type: String, _ field: String?, _ value: String, _ reason: String) -> PostgresPendingRow? {
            refused.append(PostgresRefusal(model: modelName, type: type, id: r.key.isEmpty ? "(row \(r.number) of the file)" : r.key,
                                           field: field, value: value, reason: reason, source: pendingPath, byDatabase: false))
            return nil
        }
        guard r.table >= 0, r.table < pgTables.count else {
            let what = r.table < 0 ? "the row does not read (it needs a key, a table number and values as okit writes them)"
                : "the row names table \(r.table), and this app's model has \(pgTables.count)"
            return leaveOut("(unknown)", nil, "null", what)
        }
        let t = pgTables[r.table]
        guard let values = r.values else { return r }          // a deletion: nothing to check but the key
        guard !r.baseUnreadable else {
            return leaveOut(t.base.type.name, nil, Self.rowJSON(t, values), "the values it was read with do not read, so it cannot be merged")
        }
        guard values.count == t.base.written.count else { return r }   // another version's row: replayPending says so
        var checked = values
        var fieldsOut: [PostgresRefusal] = []
        let mappings = t.writtenMappings
        let starts = t.columnOfSlot
        for j in values.indices {
            let column = t.base.columns.first { c in starts[c.slot].map { j >= $0 && j < $0 + c.width } ?? false }
            let problem: String?
            if r.unreadable.contains(j) {
                problem = "the value does not read (okit writes {\"i\": …}, {\"d\": …}, {\"s\": …} or {\"b\": …})"
            } else {
                switch Self.checkPending(values[j], column: j, of: t, mapping: mappings[j], field: column?.field) {
                case .success(let v): checked[j] = v; problem = nil
                case .failure(let p): problem = p.text
                }
            }
            guard let problem else { continue }
            // A field of a row read before keeps the value read; anything else leaves the row out.
            guard let c = column, let start = starts[c.slot], let base = r.base, base.count == values.count,
                  (start..<(start + c.width)).allSatisfy({ Self.checkPending(base[$0], column: $0, of: t, mapping: mappings[$0], field: c.field).isOK }) else {
                return leaveOut(t.base.type.name, column?.name, Self.rowJSON(t, values), problem + (column == nil ? " (column \(t.base.written[j]))" : ""))
            }
            for k in start..<(start + c.width) { checked[k] = base[k] }
            fieldsOut.append(PostgresRefusal(model: modelName, type: t.base.type.name, id: r.key, field: c.name,
                                             value: r.unreadable.contains(j) ? "null" : ConflictRecord.json(values[j], c.mapping),
                                             reason: problem, source: pendingPath, byDatabase: false))
        }
        refused += fieldsOut
        var row = PostgresPendingRow(key: r.key, table: r.table, values: checked, base: r.base, baseVersion: r.baseVersion)
        row.number = r.number
        return row
    }

    /// Why a pending value does not check.
    struct PendingProblem: Error { let text: String }

    /// One value of a pending row, as its column takes it (coerced losslessly), or why not.
    static func checkPending(_ v: RelationalValue, column j: Int, of t: PostgresTable, mapping: RelationalTable.Mapping?,
                             field: FieldSpec?) -> Result<RelationalValue, PendingProblem> {
        func fail(_ expected: String) -> Result<RelationalValue, PendingProblem> {
            .failure(PendingProblem(text: "expected \(expected), found \(RelationalColumnValue.describe(v))"))
        }
        if case .string(let s) = v, s.hasNUL { return .failure(PendingProblem(text: nulReason)) }
        let keyed = t.base.keyColumn != nil
        let linkStart = keyed ? 1 : 0
        if keyed && j == 0 {
            if case .string = v { return .success(v) }
            return fail("the TEXT id of the row")
        }
        guard let mapping, let field else {
            // Link columns (parent, field, position, map key) and okit_extra.
            switch (j - linkStart, v) {
            case (_, .null): return .success(v)
            case (2, .int64): return .success(v)
            case (2, _): return fail("an INTEGER position")
            case (_, .string): return .success(v)
            default: return fail("TEXT")
            }
        }
        if case .null = v {
            if field.optional || field.type.holdsEntity || field.type.isCollection { return .success(v) }
            if case .ref = field.type { return .success(v) }
            return .failure(PendingProblem(text: "nil for a field that is not optional"))
        }
        switch mapping {
        case .string, .ref, .date, .int, .double, .bool:
            guard let value = try? RelationalColumnValue.scalar(v, mapping), let w = written(value, mapping) else {
                return fail(RelationalColumnValue.expected(mapping))
            }
            return .success(w)
        case .json, .binaryMeta:
            guard case .string(let s) = v, (try? JSONSerialization.jsonObject(with: Data(s.utf8), options: [.fragmentsAllowed])) != nil else {
                return fail(RelationalColumnValue.expected(mapping))
            }
            return .success(v)
        case .inlineBlob:
            if case .blob = v { return .success(v) }
            return fail("a BLOB")
        case .children:
            return .success(v)
        }
    }

    /// A scalar as the table mapping writes it (the form a store sends).
    static func written(_ value: Value, _ m: RelationalTable.Mapping) -> RelationalValue? {
        switch (m, value) {
        case (.string, .string(let s)), (.ref, .string(let s)): return s.relationalValue
        case (.int, .int(let i)): return Int64(i).relationalValue
        case (.double, .double(let d)): return d.isFinite ? d.relationalValue : nil
        case (.bool, .bool(let b)): return Int64(b ? 1 : 0).relationalValue
        case (.date, .date(let d)): return RelationalColumnValue.dateText(d).relationalValue
        default: return nil
        }
    }
}

extension Result where Failure == PostgresStorage.PendingProblem {
    var isOK: Bool { if case .success = self { return true } else { return false } }
}
