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

    /// A row's text of several lines continues under its text, not at the start of the line.
    @Test func aMultilineTextContinuesUnderTheRowsText() throws {
        let session = try BuiltInWordsTests.clinic(language: "en")
        let terminal = TerminalShell(session: session, color: false)
        var snap = try session.shell.snapshot()
        snap.screen.sections[0].rows[0].text = "first line\nsecond line"
        let lines = terminal.render(snap).split(separator: "\n").map(String.init)
        let first = try #require(lines.firstIndex { $0.hasPrefix("  1. first line") }, "\(lines)")
        #expect(lines[first + 1].hasPrefix("     second line"), "\(lines)")
    }

    /// A switch shows the app's own yes and no in a language okit has words for, as `set` takes them; on/off in
    /// English and in a language okit has no words for.
    @Test func aSwitchShowsItsStateInTheAppsWords() throws {
        for (language, on, off) in [("de", "[ja]", "[nein]"), ("es", "[sí]", "[no]"), ("en", "[on]", "[off]"), ("nl", "[on]", "[off]")] {
            let session = try BuiltInWordsTests.clinic(language: language, strings: ["Insured": "Versichert"], insuredSwitch: true)
            let terminal = TerminalShell(session: session, color: false)
            try session.shell.tap(row: 1)
            #expect(terminal.render(try session.shell.snapshot()).contains(off), "\(language)")
            try session.shell.edit(true)
            try session.shell.set(cell: .key("Insured"), value: .bool(true))
            #expect(terminal.render(try session.shell.snapshot()).contains(on), "\(language)")
        }
    }

    /// A person types yes and no with or without their accents: si for sí, nao for não.
    @Test func aSwitchTakesYesAndNoWithoutTheirAccents() throws {
        for (language, yes, no) in [("es", "si", "NO"), ("pt", "Sim", "nao"), ("it", "si", "no"), ("es", "Sí", "no")] {
            let session = try BuiltInWordsTests.clinic(language: language, insuredSwitch: true)
            try session.shell.tap(row: 1)
            try session.shell.edit(true)
            try session.shell.set(cell: .key("Insured"), value: .string(yes))
            #expect(try session.shell.snapshot().screen.sections.flatMap(\.rows).contains { $0.control?.value == .bool(true) }, "\(language) \(yes)")
            try session.shell.set(cell: .key("Insured"), value: .string(no))
            #expect(try !session.shell.snapshot().screen.sections.flatMap(\.rows).contains { $0.control?.value == .bool(true) }, "\(language) \(no)")
        }
    }

    /// In a language okit has no words for, a switch shows the app's own Yes and No when it gives them.
    @Test func aSwitchShowsTheAppsOwnYesAndNo() throws {
        let session = try BuiltInWordsTests.clinic(language: "nl", strings: ["Yes": "Ja", "No": "Nee"], insuredSwitch: true)
        let terminal = TerminalShell(session: session, color: false)
        try session.shell.tap(row: 1)
        #expect(terminal.render(try session.shell.snapshot()).contains("[nee]"))
        try session.shell.edit(true)
        try session.shell.set(cell: .key("Insured"), value: .string("ja"))
        #expect(terminal.render(try session.shell.snapshot()).contains("[ja]"))
    }

    /// The shell's own marks — the search line (its text in the language's quotation marks), the index, "… N
    /// more", a presented screen, a picker's options, an image, the covered screen, offline — are in the app's
    /// language; the commands they name stay as typed.
    @Test func theShellsMarksAreInTheAppsLanguage() throws {
        for (language, expected) in [("de", ["Suche: „Re“  Bereiche: [Alle] Hund", "Index: A B", "… 7 weitere", "[eingeblendet · close]",
                                             "[Bild: rex.png]", "[gesperrt]", "(weiter mit authenticate; foreground kehrt zurück)",
                                             "[offline] die Datenbank ist nicht erreichbar", "Schnellaktion: Impfen"]),
                                     // French: a no-break space before the colon after each label; the search
                                     // text in the language's quotation marks, as a refusal quotes it.
                                     ("fr", ["recherche\u{A0}: «\u{A0}Re\u{A0}»  portées\u{A0}: [Tous] Hund", "index\u{A0}: A B",
                                             "[image\u{A0}: rex.png]", "… 7 de plus", "action rapide\u{A0}: Impfen"]),
                                     ("en", ["search: \"Re\"  scopes: [All] Hund", "index: A B", "… 7 more", "[presented · close]",
                                             "[image: rex.png]", "[covered]", "(authenticate to continue; foreground comes back)",
                                             "[offline] the database is out of reach", "quick: Impfen"])] {
            let session = try BuiltInWordsTests.clinic(language: language)
            let terminal = TerminalShell(session: session, color: false)
            var snap = try session.shell.snapshot()
            snap.screen.search = SearchSnapshot(visible: true, text: "Re", scopes: [session.engine.word(.all), "Hund"],
                                                scope: session.engine.word(.all))
            snap.screen.index = ["A", "B"]
            snap.screen.rowCount += 7
            snap.app.presented = true
            snap.app.offline = true
            snap.screen.sections[0].rows[0].image = "rex.png"
            snap.screen.sections[0].rows[0].quick = QuickSnapshot(title: "Impfen", enabled: true)
            var screen = terminal.render(snap)
            snap.app.covered = true
            screen += "\n" + terminal.render(snap)
            for text in expected { #expect(screen.contains(text), "\(language): \(text) in \(screen)") }
        }
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

    /// `?` names its groups and its note on ROW in the app's language, the commands as typed, in one column (it was
    /// English under every language: `Rows:`, `Navigation:`, "ROW is a position, …").
    @Test func theHelpIsInTheAppsLanguage() throws {
        let spanish = TerminalShell(session: try BuiltInWordsTests.clinic(language: "es"), color: false).help
        let lines = spanish.split(separator: "\n").map(String.init)
        #expect(lines.first == "Filas:      tap ROW · select ROW · accessory ROW · quick ROW · more ROW · delete ROW · move FROM TO", "\(spanish)")
        #expect(spanish.contains("\nNavegación: open ID [CONTEXT]") && spanish.contains("\nAvisos:     respond ACTION [FIELD…]"), "\(spanish)")
        #expect(spanish.contains("\n            store · relaunch · warnings · quit · quit! (sin guardar)\n"), "\(spanish)")
        #expect(lines.last?.hasPrefix("ROW es una posición, un id o el texto de una fila") == true, "\(spanish)")
        for english in ["Rows:", "Navigation:", "without storing", "ROW is a position"] {
            #expect(!spanish.contains(english), "\(english) in \(spanish)")
        }
        // A group's name longer than English's moves the commands' column, so they stay aligned.
        let italian = TerminalShell(session: try BuiltInWordsTests.clinic(language: "it"), color: false).help
        #expect(italian.contains("\nNavigazione: open ID") && italian.hasPrefix("Righe:       tap ROW")
                && italian.contains("\n             store · relaunch"), "\(italian)")
        let english = TerminalShell(session: try BuiltInWordsTests.clinic(language: "en"), color: false).help
        #expect(english.hasPrefix("Rows:       tap ROW") && english.contains("\nNavigation: open ID")
                && english.hasSuffix("\nROW is a position, an id or a row's text; quote words with spaces (\"Release Date\")."), "\(english)")
    }
}
