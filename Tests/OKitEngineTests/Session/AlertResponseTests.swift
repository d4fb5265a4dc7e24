import Testing
@testable import OKitEngine

/// `respond` names an action by its title — the exact title first, else the one title equal without regard to
/// case — or by its 1-based position (issue 12).
@Suite struct AlertResponseTests {
    func shell(actions: [String], chosen: @escaping (Int) -> Void) throws -> (ShopFixture, AppShell) {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        let shell = AppShell(engine: f.engine)
        var books = ListDeclaration(id: "books")
        books.dataPath = "books"; books.cellPath = "name"
        try shell.declare(books)
        try shell.start(home: ["books"])
        shell.present(PendingAlert(kind: "sheet", title: nil, message: nil, actions: actions) { choice, _ in chosen(choice) })
        return (f, shell)
    }

    @Test(arguments: [("archive", 1), ("DUPLICATE", 2), ("Cancel", 3), ("cancel", 3), ("2", 2)])
    func anActionIsChosenWithoutRegardToCase(_ typed: String, _ expected: Int) throws {
        var chosen = 0
        let (f, shell) = try shell(actions: ["Archive", "Duplicate", "Cancel"]) { chosen = $0 }
        try shell.respond(typed)
        #expect(chosen == expected)
        #expect(shell.pendingAlert == nil)
        _ = f
    }

    @Test func theExactTitleWinsAndTwoCaseOnlyMatchesAreRefused() throws {
        var chosen = 0
        let (f, shell) = try shell(actions: ["ok", "OK", "Cancel"]) { chosen = $0 }
        try shell.respond("OK")
        #expect(chosen == 2, "the exact title first")
        shell.present(PendingAlert(kind: "alert", title: nil, message: nil, actions: ["ok", "OK"]) { choice, _ in chosen = choice })
        #expect(throws: ShellError.self) { try shell.respond("Ok") }
        #expect(shell.pendingAlert != nil, "an ambiguous answer changes nothing")
        #expect(throws: ShellError.self) { try shell.respond("Archive") }
        _ = f
    }
}
