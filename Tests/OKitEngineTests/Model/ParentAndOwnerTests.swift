import Testing
@testable import OKitEngine

/// `Entity.parent` and `EntityCollection.owner` are unretained references (docs/unsafe.md): a Swift program that
/// keeps a child or a collection after the entity that held it went reads nil, never a freed entity. Each test
/// first checks that the holder is really gone (a weak reference to it is nil), else it would test nothing.
@Suite struct ParentAndOwnerTests {
    @Test func aCollectionKeptAfterItsOwnerWentHasNoOwner() throws {
        weak var owner: Entity?
        let kept: EntityCollection
        let author: Entity
        do {
            let f = try ShopFixture()
            try f.start()
            let book = f.book(0)
            owner = book
            kept = try f.engine.collection(book, "authors")
            author = try #require(kept.items[0].entity)
            #expect(kept.owner === book && author.parent === book)
        }
        #expect(owner == nil, "the book went with its model")
        #expect(kept.owner == nil)
        #expect(kept.fieldName == "?")
        #expect(author.parent == nil && author.root === author && author.model == nil)
        #expect(kept.count == 1 && kept.items[0].entity === author, "the collection itself stays usable")
    }

    @Test func anEntityKeptAfterItsParentWentHasNoParent() throws {
        weak var root: Entity?
        let book: Entity
        do {
            let f = try ShopFixture()
            root = try f.start()
            book = f.book(2)
            #expect(book.parent === root && book.model != nil)
        }
        #expect(root == nil, "the root went with its model")
        #expect(book.parent == nil && book.root === book && book.model == nil)
        #expect(book["name"]?.description == "Anna", "the entity itself stays usable")
    }

    /// A removed entity names the entity it was removed from until the next store; when the model goes first,
    /// the name goes with it.
    @Test func anEntityRemovedBeforeItsModelWentHasNoParent() throws {
        weak var root: Entity?
        let removed: Entity
        do {
            let f = try ShopFixture()
            let r = try f.start()
            root = r
            removed = f.book(1)
            try f.engine.remove(at: 1, from: f.engine.collection(r, "books"))
            #expect(removed.state == .removed && removed.parent === r, "until the next store")
        }
        #expect(root == nil, "the root went with its model")
        #expect(removed.parent == nil)
    }

    /// A model read again into its root (a reload, a journal record) gives the root new collections; the ones
    /// they replaced no longer name it.
    @Test func aCollectionReplacedByAnotherReadHasNoOwner() throws {
        let f = try ShopFixture()
        let a = try f.engine.make("Shop"), b = try f.engine.make("Shop")
        let old = try f.engine.collection(a, "books")
        #expect(old.owner === a)
        a.adoptValues(of: b)
        #expect(old.owner == nil)
        #expect(try f.engine.collection(a, "books").owner === a)
    }
}
