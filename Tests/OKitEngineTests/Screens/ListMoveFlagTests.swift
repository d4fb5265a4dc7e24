import Testing
@testable import OKitEngine

/// A list in edit mode says which rows `move` takes (an outside tester saw `"delete":false` on a locked row and
/// nothing about moving, then `move b2 → 1` was refused): the screen's `reorder` and each row's `move`, both only
/// in edit mode, true exactly when the command would move the row.
@Suite struct ListMoveFlagTests {
    let setup = ListCommandTests()

    func moves(_ s: AppShell) throws -> [Bool?] { try s.snapshot().screen.sections.flatMap(\.rows).map(\.move) }

    @Test func aRowItsFlagsHoldInPlaceIsNotMovable() throws {
        let (f, shell, _) = try setup.shell { $0.reorder = "#true"; $0.editEnabled = "!marked" }
        try f.engine.set(f.book(1), "marked", .bool(true))
        var snap = try shell.snapshot().screen
        #expect(snap.reorder == nil && snap.sections.flatMap(\.rows).allSatisfy { $0.move == nil }, "nothing outside edit mode")
        #expect(!snap.json.contains("\"move\"") && !snap.json.contains("\"reorder\""))
        try shell.edit(true)
        snap = try shell.snapshot().screen
        #expect(snap.reorder == true)
        #expect(try moves(shell) == [true, false, true], "Emma is marked")
        #expect(snap.json.contains("\"editing\":true,\"reorder\":true"), "\(snap.json)")
        #expect(snap.json.contains("\"delete\":false,\"move\":false"), "\(snap.json)")
        #expect(throws: ShellError.self, "what the flag says") { try shell.move(from: 2, to: 1) }
        try f.engine.set(f.book(1), "marked", .bool(false))
        #expect(try moves(shell) == [true, true, true], "it follows the model")
        try shell.move(from: 2, to: 1)
    }

    @Test func noRowMovesWithoutReorderGroupedOrWhileSearching() throws {
        let (_, plain, _) = try setup.shell()
        try plain.edit(true)
        #expect(try plain.snapshot().screen.reorder == false && moves(plain) == [false, false, false])
        let (_, grouped, _) = try setup.shell { $0.reorder = "#true"; $0.group = "name/initial" }
        try grouped.edit(true)
        #expect(try grouped.snapshot().screen.reorder == false && moves(grouped).allSatisfy { $0 == false })
        let (_, searched, _) = try setup.shell { $0.reorder = "#true"; $0.search = "#true" }
        try searched.edit(true)
        try searched.search("a")
        #expect(try searched.snapshot().screen.reorder == false && moves(searched).allSatisfy { $0 == false })
        #expect(throws: ShellError.self) { try searched.move(from: 1, to: 2) }
        try searched.search("")
        #expect(try searched.snapshot().screen.reorder == true && moves(searched) == [true, true, true])
    }
}
