import Foundation
import OKitEngine
import PostgresNIO

/// A value of a shared model that was not written (storage.md "Values a database refuses"): the database refused
/// it, or a pending file held it in a form the schema does not take. It is set aside — a line in
/// `<data>/okit/refused.jsonl` and a message naming the model, entity and field — and every other change is
/// written.
struct PostgresRefusal: Equatable {
    let model: String
    let type: String
    let id: String
    /// The field refused; nil: the whole row (its new values, or its deletion).
    let field: String?
    /// The refused value as JSON (a whole row: its fields as an object; a deletion: null).
    let value: String
    /// Why, in the database's words or the schema's.
    let reason: String
    /// Where the value came from: nil for a store, else the pending file it was read from.
    var source: String?
    /// Of a whole row read before: its changed fields, which the message names (not the row as JSON).
    var changed: [String]? = nil
    /// True when the database refused it (a store, or a pending file's value at its replay); false when a pending
    /// file's value did not check against the schema (it was never sent).
    var byDatabase = true

    /// `model "default", Book dune, field count` (`fields name, count` of a row refused whole whose changes are known).
    var place: String {
        let fields = changed.flatMap { $0.isEmpty ? nil : ($0.count == 1 ? ", field " : ", fields ") + $0.joined(separator: ", ") }
        return "model \"\(model)\", \(type) \(id)" + (field.map { ", field " + $0 } ?? fields ?? "")
    }

    /// What the database refused, as a message says it: the value, its deletion, or a row's change.
    var refusedWhat: String {
        if value == "null" { return "its deletion" }
        if field == nil, let changed, !changed.isEmpty { return changed.count == 1 ? "the change" : "the changes" }
        return value
    }

    /// One line of `refused.jsonl`.
    func jsonLine(time: Date) -> String {
        var line = JSONLine()
        line.member("time", text: ISODate.format(time))
        line.member("model", text: model)
        line.member("type", text: type)
        line.member("id", text: id)
        line.member("field", text: field)
        line.member("value", json: value)
        line.member("reason", text: reason)
        line.member("source", text: source)
        return line.text
    }
}

extension PostgresStorage {
    /// Why a text with a NUL is refused (the engine refuses it at the write; this is data another program wrote).
    static let nulReason = "a text with the NUL character (U+0000), which PostgreSQL cannot store"

    /// A whole row refused (`values` nil: its deletion).
    func refusal(_ t: PostgresTable, key: String, values: [RelationalValue]?, reason: String) -> PostgresRefusal {
        PostgresRefusal(model: modelName, type: t.base.type.name, id: key, field: nil, value: values.map { Self.rowJSON(t, $0) } ?? "null", reason: reason)
    }

    /// One field of a row refused.
    func refusal(_ t: PostgresTable, key: String, column c: RelationalTable.Column, values: [RelationalValue], at j: Int, reason: String) -> PostgresRefusal {
        PostgresRefusal(model: modelName, type: t.base.type.name, id: key, field: c.name, value: ConflictRecord.json(values[j], c.mapping), reason: reason)
    }

    /// A row's fields as a JSON object (values as in the model files; what the row holds under other rows is not in it).
    static func rowJSON(_ t: PostgresTable, _ values: [RelationalValue]) -> String {
        var w = JSONWriter(capacity: 128)
        w.out.append(0x7B)
        var first = true
        for c in t.base.columns {
            guard let j = t.columnOfSlot[c.slot], j < values.count else { continue }
            if !first { w.out.append(0x2C) }
            first = false
            w.string(c.name); w.out.append(0x3A)
            w.out.append(contentsOf: ConflictRecord.json(values[j], c.mapping).utf8)
        }
        w.out.append(0x7D)
        return String(decoding: w.out.buffer, as: UTF8.self)
    }

    /// The fields whose values differ between two forms of a row.
    static func changedFields(_ t: PostgresTable, _ values: [RelationalValue], _ read: [RelationalValue]) -> [String] {
        t.base.columns.compactMap { c in
            guard let j = t.columnOfSlot[c.slot], j + c.width <= values.count, j + c.width <= read.count,
                  values[j..<(j + c.width)] != read[j..<(j + c.width)] else { return nil }
            return c.name
        }
    }

    /// The written columns of a row holding a text with a NUL: each with its field (nil for the key and link columns
    /// and `okit_extra`, which are not a field's).
    static func nulColumns(_ values: [RelationalValue], _ t: PostgresTable) -> [(j: Int, column: RelationalTable.Column?)] {
        var out: [(j: Int, column: RelationalTable.Column?)] = []
        let starts = t.columnOfSlot
        for (j, v) in values.enumerated() {
            guard case .string(let s) = v, s.hasNUL else { continue }
            let column = t.base.columns.first { c in
                guard let start = starts[c.slot] else { return false }
                return j >= start && j < start + c.width
            }
            out.append((j, column))
        }
        return out
    }

    /// True when a plan holds a text with a NUL (the store then isolates its rows from the start).
    static func holdsNUL(_ plan: RelationalStorePlan) -> Bool {
        plan.upserts.contains { d in d.values.contains { if case .string(let s) = $0 { return s.hasNUL } else { return false } } }
    }

    /// Inserts a row, or updates a row read at a version (0 rows: another process wrote it since).
    func upsert(_ values: [RelationalValue], _ t: PostgresTable, key: String, read: PostgresRowState?, version: Int64) throws -> PostgresQueryResult {
        if let read {
            return try link.query(t.updateSQL, t.updateBinds(values, version: version, model: modelName, key: key, read: read.version))
        }
        return try link.query(t.insertSQL, t.insertBinds(values, version: version, model: modelName, key: key))
    }

    /// A row written in a savepoint, its refused values left out (`write(isolating:)`): a text with a NUL is
    /// refused before anything is sent; a value the database refuses is found by trying each changed field alone.
    /// Of a row read before, the refused fields keep the values read and the others are written; a new row (or a
    /// row whose refusal no single field explains) is left out whole. Returns nil when the row was left out.
    func isolatedUpsert(_ d: RelationalRowDraft, _ t: PostgresTable, read: PostgresRowState?, version: Int64,
                        state: inout PostgresWriteState) throws -> PostgresQueryResult? {
        var values = d.values
        var fieldsLeftOut: [PostgresRefusal] = []
        func leaveOut(_ reason: String) -> PostgresQueryResult? {
            var whole = refusal(t, key: d.key, values: d.values, reason: reason)
            if let read { whole.changed = Self.changedFields(t, d.values, read.values) }
            state.refused.append(whole)
            if read == nil { state.leftOut.insert(d.key) }
            return nil
        }
        func revert(_ c: RelationalTable.Column, at j: Int, reason: String, read: PostgresRowState) {
            fieldsLeftOut.append(refusal(t, key: d.key, column: c, values: d.values, at: j, reason: reason))
            for k in j..<min(j + c.width, values.count, read.values.count) { values[k] = read.values[k] }
        }
        let nul = Self.nulColumns(values, t)
        if !nul.isEmpty {
            guard let read, nul.allSatisfy({ $0.column != nil }) else { return leaveOut(Self.nulReason) }
            let starts = t.columnOfSlot
            for n in nul { if let c = n.column, let j = starts[c.slot] { revert(c, at: j, reason: Self.nulReason, read: read) } }
        }
        do {
            let r = try link.savepoint { try upsert(values, t, key: d.key, read: read, version: version) }
            state.refused += fieldsLeftOut
            return r
        } catch where PostgresFailure(error) == .value {
            let reason = text(error)
            guard let read else { return leaveOut(reason) }
            let bad = try refusedFields(t, key: d.key, values: values, read: read)
            guard !bad.isEmpty else { return leaveOut(reason) }
            for b in bad { revert(b.column, at: b.j, reason: b.reason, read: read) }
            // Every change refused (a trigger that refuses any update of the row): nothing is left to write.
            if values == read.values {
                state.refused += fieldsLeftOut
                return nil
            }
            do {
                let r = try link.savepoint { try upsert(values, t, key: d.key, read: read, version: version) }
                state.refused += fieldsLeftOut
                return r
            } catch where PostgresFailure(error) == .value {
                return leaveOut(text(error))
            }
        }
    }

    /// The changed fields of a row read before that the database refuses, each tried alone in a savepoint that is
    /// rolled back (the row is not changed by trying).
    func refusedFields(_ t: PostgresTable, key: String, values: [RelationalValue], read: PostgresRowState) throws -> [(column: RelationalTable.Column, j: Int, reason: String)] {
        var bad: [(column: RelationalTable.Column, j: Int, reason: String)] = []
        let mappings = t.writtenMappings
        let starts = t.columnOfSlot
        for c in t.base.columns {
            guard let j = starts[c.slot], j + c.width <= values.count, j + c.width <= read.values.count,
                  Array(values[j..<(j + c.width)]) != Array(read.values[j..<(j + c.width)]) else { continue }
            var sets: [String] = []
            var binds: [PostgresBind] = []
            for k in 0..<c.width {
                sets.append("\(RelationalTable.quoted(t.base.written[j + k])) = $\(k + 1)")
                binds.append(PostgresBind(values[j + k], mapping: mappings[j + k]))
            }
            let sql = "UPDATE \(t.q) SET \(sets.joined(separator: ", ")) WHERE \(PostgresTable.modelColumn) = $\(c.width + 1) AND \(RelationalTable.quoted(t.keyColumnName)) = $\(c.width + 2)"
            do {
                try link.savepoint(rollingBack: true) { _ = try link.query(sql, binds + [.text(modelName), .text(key)]) }
            } catch where PostgresFailure(error) == .value {
                bad.append((c, j, text(error)))
            }
        }
        return bad
    }
}
