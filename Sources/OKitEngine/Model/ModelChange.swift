/// One change to a model, as `app:changes` lists it.
public struct ModelChange {
    public enum Operation: String, Sendable { case set, insert, remove, move }

    public let model: String?
    public let entity: Entity
    public let field: String
    public let operation: Operation
    /// For `set`: the old and new value. For collection operations: the element.
    public let old: Value
    public let new: Value
    /// For collection operations: the 0-based index (insert, remove: where; move: to).
    public let index: Int?
}
