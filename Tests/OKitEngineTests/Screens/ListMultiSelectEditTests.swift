import Testing
@testable import OKitEngine

/// OKit's multi-select edit mode (issue 36 item 11): with `selectPath`, edit mode selects rows and shows no delete
/// controls, so rows are not deletable there and a delete is refused with the reason, changing nothing.
@Suite struct ListMultiSelectEditTests {
    func shell(_ configure: (inout ListDeclaration) -> Void = { _ in }) throws -> (ShopFixture, AppShell) {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma", "Anna"])
        let shell = AppShell(engine: f.engine)
        var books = ListDeclaration(id: "books")
        books.type = "Book"
        books.dataPath = "books"; books.cellPath = "name"; books.deletePrompt = "#false"
        configure(&books)
        try shell.declare(books)
        try shell.start(home: ["books"])
        return (f, shell)
    }

    func deletable(_ s: AppShell) throws -> [Bool] { try s.snapshot().screen.sections.flatMap(\.rows).map(\.delete) }

    @Test func rowsAreNotDeletableWhileSelecting() throws {
        let (f, shell) = try shell { $0.selectPath = "marked" }
        #expect(try deletable(shell) == [true, true, true], "outside edit mode the rows can be deleted (swipe)")
        try shell.edit(true)
        #expect(try deletable(shell) == [false, false, false])
        let error = #expect(throws: ShellError.self) { try shell.delete(row: "Emma") }
        #expect(error?.description.contains("selectPath") == true, "\(String(describing: error))")
        #expect(try f.engine.collection(f.root, "books").count == 3, "nothing deleted")
        try shell.select(row: "Emma")
        #expect(try shell.snapshot().screen.sections[0].rows.map(\.selected) == [false, true, false])
        try shell.edit(false)
        try shell.delete(row: "Emma")
        #expect(try f.engine.collection(f.root, "books").count == 2, "after edit mode a delete works again")
    }

    @Test func withoutSelectPathEditModeKeepsDeleting() throws {
        let (f, shell) = try shell()
        try shell.edit(true)
        #expect(try deletable(shell) == [true, true, true])
        try shell.delete(row: "Emma")
        #expect(try f.engine.collection(f.root, "books").count == 2)
    }
}
