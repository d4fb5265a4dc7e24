import Foundation

/// A field changed on both sides of a shared model (storage.md "Shared models on PostgreSQL", `SharedModelStorage`):
/// the store that came later lost it; its value is kept here, never lost. Values are JSON texts as in the model files.
public struct ConflictRecord: Sendable, Equatable {
    public let time: Date
    public let model: String
    public let type: String
    public let id: String
    public let field: String
    /// The value this process had read, the value the other store wrote (`null` when it deleted the entity),
    /// and this process's value that lost.
    public let base: String
    public let theirs: String
    public let mine: String
    /// This process deleted the entity after another stored an edit of it: the deletion won, `theirs` is lost.
    public var deletedHere = false
    /// Another process deleted the entity (`theirs` is `null`) before this one stored its edit: the deletion won,
    /// `mine` is lost. (A `null` of `theirs` alone may also be a field the other process cleared.)
    public var deletedThere = false

    package init(time: Date, model: String, type: String, id: String, field: String, base: String, theirs: String, mine: String,
                 deletedHere: Bool = false, deletedThere: Bool = false) {
        (self.time, self.model, self.type, self.id, self.field) = (time, model, type, id, field)
        (self.base, self.theirs, self.mine, self.deletedHere, self.deletedThere) = (base, theirs, mine, deletedHere, deletedThere)
    }

    /// One line of `<data>/okit/conflicts.jsonl`.
    public var jsonLine: String {
        var line = JSONLine()
        line.member("time", text: ISODate.format(time))
        line.member("model", text: model)
        line.member("type", text: type)
        line.member("id", text: id)
        line.member("field", text: field)
        line.member("base", json: base)
        line.member("theirs", json: theirs)
        line.member("mine", json: mine)
        return line.text
    }

    /// The warning a front end shows.
    public var warning: String {
        if deletedHere {
            return "conflict in model \"\(model)\": \(type) \(id), field \(field): another process stored \(theirs), then this process deleted the \(type); the deletion won and that edit is not in the database (kept in okit/conflicts.jsonl)"
        }
        if deletedThere {
            return "conflict in model \"\(model)\": \(type) \(id), field \(field): another process deleted the \(type) first; this process's \(mine) was not stored (kept in okit/conflicts.jsonl)"
        }
        return "conflict in model \"\(model)\": \(type) \(id), field \(field): another process stored \(theirs) first; this process's \(mine) was not stored (kept in okit/conflicts.jsonl)"
    }
}
