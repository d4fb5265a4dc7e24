import Foundation
import Testing
@testable import OKitEngine

/// The web's conflict notice quoted values as JSON inside a German sentence (`jetzt "Dune A"`, `jetzt 1500.0`):
/// each value now shows as its cell shows it — a number as a text cell writes it, a date as a date cell shows it,
/// yes or no in the language's words — in the language's quotation marks. The record keeps the JSON texts.
@Suite struct ConflictNoticeTests {
    func record(_ field: String, theirs: String, mine: String) -> ConflictRecord {
        ConflictRecord(time: Date(timeIntervalSince1970: 0), model: "default", type: "Book", id: "dune", field: field,
                       base: "null", theirs: theirs, mine: mine)
    }

    func fixture(_ language: String) throws -> ShopFixture {
        let f = try ShopFixture()
        f.engine.locale = AppLocale(language: language, region: "", timeZone: "UTC")
        return f
    }

    @Test func eachValueShowsAsItsCellShowsItInTheLanguagesQuotes() throws {
        let f = try fixture("de")
        func notice(_ field: String, _ theirs: String, _ mine: String) -> String {
            f.engine.conflictNotice(record(field, theirs: theirs, mine: mine))
        }
        #expect(notice("name", "\"Dune A\"", "\"Dune B\"") == "Jemand anderes hat name dieses Eintrags (Book) zuerst geändert: "
            + "jetzt „Dune A“; Ihr Wert „Dune B“ wurde nicht gespeichert (er steht im Konfliktprotokoll des Servers).")
        #expect(notice("price", "1500.0", "12.5").contains("jetzt „1500“; Ihr Wert „12,5“ wurde"))
        #expect(notice("copies", "1500", "7").contains("jetzt „1500“; Ihr Wert „7“ wurde"))
        #expect(notice("date", "\"2019-05-01T10:00:00Z\"", "\"2020-01-02T00:00:00Z\"").contains("jetzt „01.05.19, 10:00“; Ihr Wert „02.01.20, 00:00“"))
        #expect(notice("marked", "true", "false").contains("jetzt „Ja“; Ihr Wert „Nein“"))
        #expect(notice("comment", "null", "\"Gut\"").contains("jetzt „“; Ihr Wert „Gut“"))
        #expect(notice("tags", "[\"a\"]", "[]").contains("jetzt „[\"a\"]“; Ihr Wert „[]“"), "a list stays as written")
    }

    /// The field and type as the app's strings name them (they were the Lua names: `name`, `Book`).
    @Test func theFieldAndTypeAreNamedAsTheAppsStringsNameThem() throws {
        let f = try fixture("de")
        f.engine.strings.add(language: "de", strings: ["name": "Titel", "Book": "Buch"])
        #expect(f.engine.conflictNotice(record("name", theirs: "\"A\"", mine: "\"B\"")).hasPrefix("Jemand anderes hat Titel dieses Eintrags (Buch) zuerst"))
        #expect(f.engine.conflictNotice(record("copies", theirs: "1", mine: "2")).hasPrefix("Jemand anderes hat copies dieses Eintrags (Buch)"),
                "a label okit derives and finds no string for stays in lower case in the sentence")
        #expect(f.engine.conflictNotice(record("gone", theirs: "1", mine: "2")).hasPrefix("Jemand anderes hat gone dieses"), "a field the schema lacks: as recorded")
    }

    @Test func englishQuotesAndFormatsToo() throws {
        let f = try fixture("en")
        let r = record("price", theirs: "1500.0", mine: "12.5")
        #expect(f.engine.conflictNotice(r) == "Someone else changed price of this Book first: it is now \"1500\"; your \"12.5\" "
            + "was not stored (it is kept in the server's conflict record).")
        #expect(r.warning.contains("another process stored 1500.0 first; this process's 12.5 was not stored"), "the log keeps JSON")
    }

    /// A person at a browser cannot use a path on the server: in every language the notice says the value is kept in
    /// the server's conflict record; the warning (the process's log) keeps the file's name.
    @Test func theNoticeNamesNoServerPathInAnyLanguage() throws {
        let r = record("name", theirs: "\"A0\"", mine: "\"B0\"")
        for language in ["en", "fr", "de", "it", "pt", "es"] {
            let notice = try fixture(language).engine.conflictNotice(r)
            #expect(!notice.contains("conflicts.jsonl") && !notice.contains("okit/"), "\(language): \(notice)")
        }
        #expect(try fixture("en").engine.conflictNotice(r).hasSuffix("your \"B0\" was not stored (it is kept in the server's conflict record)."))
        #expect(r.warning.contains("(kept in okit/conflicts.jsonl)"))
    }
}
