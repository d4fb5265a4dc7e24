/// How deep entities may nest (storage.md "Limits"): a store must never write what a load refuses, and no walk
/// over a tree may run out of stack. The reader refuses JSON nested deeper than `JSONReader.maxDepth` (512);
/// an entity in a collection costs two levels of JSON (the array and its object), so 200 entities, with room
/// for references, data fields and unknown fields inside the deepest, stay readable.
extension Engine {
    public static let maxEntityDepth = 200

    /// Refuses to put `child` (with everything it holds) inside `owner` when the result would nest deeper than
    /// `maxEntityDepth`; otherwise records the new levels. The walk over `child`'s tree is iterative, so a
    /// detached chain of any length is measured without recursion.
    func checkDepth(_ child: Entity, into owner: Entity) throws {
        let ownerLevel = Int(owner.level)
        var stack: [(Entity, Int)] = [(child, ownerLevel + 1)]
        while let (e, level) = stack.popLast() {
            if level > Engine.maxEntityDepth {
                throw EntityDepthError(entity: child.debugName, owner: owner.debugName, limit: Engine.maxEntityDepth)
            }
            e.forEachChild { stack.append(($0, level + 1)) }
        }
        // Within the limit: the levels follow (detached trees have no parents to count, so they keep levels).
        stack = [(child, ownerLevel + 1)]
        while let (e, level) = stack.popLast() {
            e.level = Int32(level)
            e.forEachChild { stack.append(($0, level + 1)) }
        }
    }
}

/// An entity put where it would nest deeper than `Engine.maxEntityDepth`: nothing changes.
public struct EntityDepthError: Error, CustomStringConvertible {
    public let entity: String
    public let owner: String
    public let limit: Int

    public var description: String {
        "\(entity) cannot be added to \(owner): entities would nest more than \(limit) deep, which a model file cannot hold (storage.md \"Limits\"); nothing was changed"
    }
}
