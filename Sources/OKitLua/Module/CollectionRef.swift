import OKitEngine

/// A collection as Lua holds it: the collection and its owner, so the owner lives as long as Lua can use the
/// collection (a collection is valid only while its owner entity is).
final class CollectionRef {
    let collection: EntityCollection
    let owner: Entity?

    init(_ c: EntityCollection) {
        collection = c
        owner = c.owner
    }
}
