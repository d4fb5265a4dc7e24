import Testing
@testable import OKitEngine

/// A refusal of a value no option or segment names quotes every text in the language's own quotation marks: the
/// German tester's `„Licht“ hat keine Option "Mond"` mixed „…“ with the command line's "…".
@Suite struct ChoiceRefusalQuoteTests {
    let setup = DetailCellBehaviourTests()

    func refusals(language: String) throws -> [String] {
        let (f, s) = try setup.screen([
            CellDeclaration(kind: "picker", properties: ["path": "%Light", "optionValues": "On,Off", "selectionPath": "comment"]),
            CellDeclaration(kind: "segment", properties: ["path": "%Size", "segmentsPath": "#S,#L", "selectIndexPath": "type"]),
        ])
        f.engine.locale = AppLocale(language: language, region: "", timeZone: "UTC")
        try s.setEditing(true)
        var out: [String] = []
        for (cell, value) in [("Light", Value.string("Moon")), ("Size", .string("XL")), ("Size", .int(7))] {
            do { try s.set(cell: .key(cell), value: value) } catch { out.append("\(error)") }
        }
        return out
    }

    @Test func everyTextOfTheRefusalIsInTheLanguagesQuotes() throws {
        let de = try refusals(language: "de")
        #expect(de == [
            "„Light“ hat keine Option „Moon“ (Optionen: 1 „On“, 2 „Off“; geben Sie den Text einer Option oder ihre Position ab 1 an)",
            "„Size“ hat kein Segment „XL“ (Segmente: „S“, „L“; geben Sie einen Titel oder einen Index ab 0 an)",
            "„Size“ hat kein Segment 7 (Segmente: „S“, „L“; geben Sie einen Titel oder einen Index ab 0 an)",
        ], "\(de)")
        let en = try refusals(language: "en")
        #expect(en.first == "cell \"Light\" has no option \"Moon\" (options: 1 \"On\", 2 \"Off\"; pass an option's text or its 1-based position)")
        for (language, open, close) in [("es", "«", "»"), ("fr", "«\u{A0}", "\u{A0}»"), ("it", "«", "»"), ("pt", "“", "”")] {
            let first = try #require(try refusals(language: language).first)
            #expect(first.contains("\(open)Moon\(close)") && first.contains("1 \(open)On\(close)") && !first.contains("\""), "\(language): \(first)")
        }
    }
}
