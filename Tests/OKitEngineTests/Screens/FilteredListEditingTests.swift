import Testing
@testable import OKitEngine

/// A list over a filtered collection (`books[copies > 1]`) adds to, deletes from and reorders the collection the
/// filter applies to (bindings.md "Filters"); its rows follow the predicate.
@Suite struct FilteredListEditingTests {
    func shell(_ configure: (inout ListDeclaration) -> Void = { _ in }) throws -> (ShopFixture, AppShell) {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma", "Anna"])   // copies 1, 2, 3
        let shell = AppShell(engine: f.engine)
        var books = ListDeclaration(id: "books")
        books.dataPath = "books[copies != 1]"
        books.cellPath = "name"
        books.titlePath = "%Books"
        configure(&books)
        try shell.declare(books)
        try shell.start(home: ["books"])
        return (f, shell)
    }

    func texts(_ s: AppShell) throws -> [String] { try s.snapshot().screen.sections.flatMap(\.rows).compactMap(\.text) }

    @Test func addingGoesIntoTheFilteredCollection() throws {
        let (f, shell) = try shell { $0.add = "#true"; $0.addName = "name"; $0.addAppend = "#true" }
        #expect(try texts(shell) == ["Emma", "Anna"])
        #expect(try shell.snapshot().screen.buttons.map(\.title).contains("+"))
        try shell.add(text: "Zoe")   // copies 0: passes copies != 1
        #expect(try f.engine.collection(f.root, "books").count == 4)
        #expect(try texts(shell) == ["Emma", "Anna", "Zoe"])
    }

    @Test func deletingRemovesFromTheCollection() throws {
        let (f, shell) = try shell { $0.delete = "#true"; $0.deletePrompt = "#false" }
        #expect(try shell.snapshot().screen.sections[0].rows.map(\.delete) == [true, true])
        try shell.delete(row: "Emma")
        #expect(try texts(shell) == ["Anna"])
        #expect(try f.engine.get(f.root, "books/name").description == "Dune, Anna")
    }

    @Test func reorderingMovesInTheCollection() throws {
        let (f, shell) = try shell { $0.reorder = "#true" }
        try shell.edit(true)
        try shell.move(from: "Anna", to: "Emma")
        #expect(try texts(shell) == ["Anna", "Emma"])
        #expect(try f.engine.get(f.root, "books/name").description == "Dune, Anna, Emma")
    }
}
