import Testing
@testable import OKitEngine

/// Edge cases: a list over a filtered collection when the filter hides elements between the rows, and when a
/// new element does not pass.
@Suite struct FilteredListHiddenRowsTests {
    func shell(_ dataPath: String, _ configure: (inout ListDeclaration) -> Void = { _ in }) throws -> (ShopFixture, AppShell) {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma", "Anna"])   // copies 1, 2, 3
        let shell = AppShell(engine: f.engine)
        var books = ListDeclaration(id: "books")
        books.dataPath = dataPath
        books.cellPath = "name"
        configure(&books)
        try shell.declare(books)
        try shell.start(home: ["books"])
        return (f, shell)
    }

    func texts(_ s: AppShell) throws -> [String] { try s.snapshot().screen.sections.flatMap(\.rows).compactMap(\.text) }

    @Test func reorderingAcrossAHiddenElement() throws {
        let (f, shell) = try shell("books[copies != 2]") { $0.reorder = "#true" }
        #expect(try texts(shell) == ["Dune", "Anna"])
        try shell.edit(true)
        try shell.move(from: "Anna", to: "Dune")
        #expect(try texts(shell) == ["Anna", "Dune"])
        #expect(try f.engine.get(f.root, "books/name").description == "Anna, Dune, Emma")
        try shell.move(from: "Anna", to: "Dune")
        #expect(try texts(shell) == ["Dune", "Anna"])
    }

    @Test func addingAnElementThatDoesNotPass() throws {
        let (f, shell) = try shell("books[copies > 1]") { $0.add = "#true"; $0.addName = "name"; $0.addAppend = "#true" }
        #expect(try texts(shell) == ["Emma", "Anna"])
        try shell.add(text: "Zoe")
        #expect(try f.engine.collection(f.root, "books").count == 4)
        #expect(try texts(shell) == ["Emma", "Anna"])
    }

    @Test func addingWithoutANameWhenTheNewElementDoesNotPass() throws {
        let (f, shell) = try shell("books[copies > 1]") { $0.add = "#true" }
        try shell.add(text: nil)
        #expect(try f.engine.collection(f.root, "books").count == 4)
        #expect(try texts(shell) == ["Emma", "Anna"])
    }
}
