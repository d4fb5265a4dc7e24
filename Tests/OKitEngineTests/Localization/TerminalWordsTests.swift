import Testing
@testable import OKitEngine
@testable import okit_run

/// The terminal shell draws the built-in words in the app's language: bar buttons, edit mode, OKit's alerts.
@Suite struct TerminalWordsTests {
    @Test func theShellDrawsGermanWords() throws {
        let session = try BuiltInWordsTests.clinic(language: "de", strings: ["Pets": "Tiere"])
        let terminal = TerminalShell(session: session, color: false)
        var screen = terminal.render(try session.shell.snapshot())
        #expect(screen.contains("Tiere") && screen.contains("[Bearbeiten] [+]"), "\(screen)")
        try session.shell.edit(true)
        try session.shell.delete(row: 1)
        screen = terminal.render(try session.shell.snapshot())
        #expect(screen.contains("Tiere (in Bearbeitung)") && screen.contains("[Fertig]"), "\(screen)")
        #expect(screen.contains("┌ Löschen bestätigen") && screen.contains("│ Möchten Sie den Eintrag wirklich löschen?"), "\(screen)")
        #expect(screen.contains("1 Ja  2 Nein"), "\(screen)")
    }

    @Test func theShellDrawsEnglishAsBefore() throws {
        let session = try BuiltInWordsTests.clinic(language: "en")
        let terminal = TerminalShell(session: session, color: false)
        try session.shell.edit(true)
        try session.shell.delete(row: 1)
        let screen = terminal.render(try session.shell.snapshot())
        #expect(screen.contains("Pets (editing)") && screen.contains("[Done]") && screen.contains("┌ Confirm Deletion"), "\(screen)")
        #expect(screen.contains("1 Yes  2 No"), "\(screen)")
    }
}
