import Testing
@testable import OKitEngine

/// The evaluator's tight loop for plain field paths walks without retaining the entities on its way; what it
/// gives and records is what the general path gives and records (the first evaluation of a binding takes the
/// general path and warms the slot caches, the second the tight loop).
@Suite struct FastPathTests {
    @Test(arguments: ["books[0]/name", "books[-1]/name", "books[99]/name", "books[-99]/name", "name[0]",
                      "books[1]/authors[0]/name", "books[0]/authors[0]/name", "books[0]/comment", "books[0]/price",
                      "books", "books[0]", "books[0]/name/initial", "books[0]/tags[0]", "books[0]/dates[0]/date",
                      "books[2]/author", "favorites[0]/name", "!books[0]/marked", "books[0]/authors[5]",
                      "books[0]/name/isEmpty", "books[0]/comment/isEmpty", "!books[0]/name/isEmpty", "books[0]/tags/count",
                      "books[0]/authors/name", "books[0]/comment/name/isEmpty", "books[1]/authors[0]/name/isEmpty"])
    func theTightLoopGivesAndRecordsWhatTheGeneralPathDoes(_ text: String) throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma", "Anna"])
        let author = try f.engine.make("Author", ["name": .string("Frank")])
        try f.engine.insert(.entity(author), into: f.engine.collection(f.book(0), "authors"))
        try f.engine.insert(.string("sci-fi"), into: f.engine.collection(f.book(0), "tags"))
        let b = try f.engine.compile(text)
        let (first, firstKeys) = try f.engine.graph.recording { try f.engine.evaluate(b, f.root) }
        let (second, secondKeys) = try f.engine.graph.recording { try f.engine.evaluate(b, f.root) }
        #expect(second.isSame(as: first), "\(text)")
        #expect(secondKeys == firstKeys, "\(text)")
    }

    @Test func aRemovedBookReadsAsNothing() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        let b = try f.engine.compile("books[1]/name")
        #expect(try f.engine.evaluate(b, f.root).isSame(as: .string("Emma")))
        try f.engine.remove(at: 1, from: f.engine.collection(f.root, "books"))
        #expect(try f.engine.evaluate(b, f.root).isNull)
        #expect(try f.engine.evaluate(f.engine.compile("books[0]/name"), f.root).isSame(as: .string("Dune")))
    }
}
