import Foundation
import Testing
@testable import OKitEngine

@Suite struct BuiltinExtensionTests {
    let engine = Engine(schema: Schema(), clock: VirtualClock())
    static let may1 = Date(timeIntervalSince1970: 1_556_704_800)   // 2019-05-01T10:00:00Z, a Wednesday

    func call(_ v: Value, _ name: String, _ args: [Value] = []) throws -> String? {
        guard let fn = engine.extensions.resolve(for: v, name: name) else { Issue.record("no \(name)"); return nil }
        return try fn(v, args, engine).displayString
    }

    @Test func numbers() throws {
        engine.strings.add(language: "en", strings: ["entry": "Entry", "entrys": "Entries", "Price": "Preis"])
        #expect(try call(.int(3), "prefix", [.string("Copies:")]) == "Copies: 3")
        #expect(try call(.int(3), "prefixLocalized", [.string("Price")]) == "Preis 3")
        #expect(try call(.int(1), "prefixPlural", [.string("entry")]) == "Entry 1")
        #expect(try call(.int(2), "prefixPlural", [.string("entry")]) == "Entries 2")
        #expect(try call(.int(3), "suffix", [.string("pieces")]) == "3 pieces")
        #expect(try call(.int(3), "suffixLocalized", [.string("Price")]) == "3 Preis")
        #expect(try call(.int(1), "suffixPlural", [.string("entry")]) == "1 Entry")
        #expect(try call(.int(0), "suffixPlural", [.string("entry")]) == "0 Entries")
        #expect(try call(.int(2), "suffixPlural", [.string("piece")]) == "2 pieces", "no key: s + \"s\" unlocalized")
        #expect(try call(.double(1.0), "suffixPluralLocalized", [.string("piece")]) == "1 piece")
        #expect(try call(.int(3), "suffix") == "3")
        #expect(try call(.double(12.499), "round2") == "12.5")
        #expect(try call(.double(12.0), "round2") == "12")
        #expect(try call(.double(2.5), "round") == "3")
        #expect(try call(.double(3.14159), "round", [.int(3)]) == "3.142")
        #expect(try call(.double(1234.5), "format", [.string("#,##0.00")]) == "1,234.50")
        #expect(try call(.int(7), "format", [.string("000")]) == "007")
    }

    @Test func strings() throws {
        engine.strings.add(language: "en", strings: ["hello": "Hello!"])
        #expect(try call(.string("dune"), "initial") == "d", "the first character unchanged, as OKit")
        #expect(try call(.string("Dune"), "initial") == "D")
        #expect(try call(.string("ébène"), "initial") == "é")
        #expect(try call(.string(""), "initial") == nil)
        #expect(try call(.string("hello"), "localized") == "Hello!")
        #expect(try call(.string("dune messiah"), "capitalize") == "Dune messiah")
        #expect(try call(.string("Dune"), "upper") == "DUNE")
        #expect(try call(.string("Dune"), "lower") == "dune")
        #expect(try call(.string("  Dune \n"), "trim") == "Dune")
    }

    @Test func datesInEnglishAndUTC() throws {
        let d = Value.date(Self.may1)
        #expect(try call(d, "formatDate") == "May 1, 2019")
        #expect(try call(d, "formatFullDate") == "Wednesday, May 1, 2019")
        #expect(try call(d, "formatDateTime") == "5/1/19, 10:00 AM")
        #expect(try call(d, "formatTime") == "10:00 AM")
        #expect(try call(d, "formatISO") == "2019-05-01T10:00:00")
        #expect(try call(d, "format", [.string("yyyy-MM-dd HH:mm")]) == "2019-05-01 10:00")
        #expect(try call(.date(Date(timeIntervalSince1970: 1_556_740_800)), "formatTime") == "8:00 PM")
    }

    @Test func relativeDatesFollowTheAppClock() throws {
        let clock = VirtualClock(start: Self.may1)
        let e = Engine(schema: Schema(), clock: clock)
        func rel(_ secondsFromNow: Double, _ name: String) throws -> String? {
            let v = Value.date(Self.may1.addingTimeInterval(secondsFromNow))
            return try e.extensions.resolve(for: v, name: name)!(v, [], e).displayString
        }
        #expect(try rel(0, "formatRelativeDate") == "Today")
        #expect(try rel(-86_400, "formatRelativeDate") == "Yesterday")
        #expect(try rel(86_400, "formatRelativeDate") == "Tomorrow")
        #expect(try rel(-2 * 86_400, "formatRelativeDate") == "April 29, 2019")
        #expect(try rel(13 * 3600 + 59 * 60, "formatRelativeDate") == "Today", "23:59 UTC is still today")
        #expect(try rel(14 * 3600, "formatRelativeDate") == "Tomorrow", "midnight UTC is tomorrow")
        #expect(try rel(0, "formatRelativeDateTime") == "Today, 10:00 AM")
        #expect(try rel(0, "formatRelativeFullDate") == "Today")
        #expect(try rel(-3 * 86_400, "formatRelativeFullDate") == "Sunday, April 28, 2019")
        // In Berlin (UTC+2 in May) 23:00 UTC is already the next day.
        e.locale = AppLocale(language: "en", region: "US", timeZone: "Europe/Berlin")
        #expect(try rel(13 * 3600, "formatRelativeDate") == "Tomorrow")
        #expect(try rel(0, "formatTime") == "12:00 PM")
        e.strings.add(language: "en", strings: ["Today": "today!"])
        #expect(try rel(0, "formatRelativeDate") == "today!")
    }

    @Test func relativeDaysAreInTheAppsLanguageUnlessItGivesItsOwnWord() throws {
        let e = Engine(schema: Schema(), clock: VirtualClock(start: Self.may1))
        func rel(_ days: Double, _ name: String = "formatRelativeDate") throws -> String? {
            let v = Value.date(Self.may1.addingTimeInterval(days * 86_400))
            return try e.extensions.resolve(for: v, name: name)!(v, [], e).displayString
        }
        e.locale = AppLocale(language: "de")
        #expect(try [rel(-1), rel(0), rel(1)] == ["Gestern", "Heute", "Morgen"])
        #expect(try rel(0, "formatRelativeDateTime") == "Heute, 10:00")
        #expect(try rel(-2) == "29. April 2019")
        e.locale = AppLocale(language: "fr")
        #expect(try [rel(-1), rel(0), rel(1)] == ["Hier", "Aujourd’hui", "Demain"])
        e.strings.add(language: "fr", strings: ["Today": "Ce jour"])
        #expect(try rel(0) == "Ce jour", "the app's own word first")
        #expect(try rel(1) == "Demain")
        e.locale = AppLocale(language: "es", region: "MX")
        #expect(try rel(0) == "Hoy")
    }

    /// The day and the time are joined as the language joins a date and a time in `formatDateTime`, not with an
    /// English ", " (`今日, 9:00` and `اليوم, ٩:٠٠ ص` before).
    @Test func aRelativeDateTimeJoinsDayAndTimeAsTheLanguageDoes() throws {
        let e = Engine(schema: Schema(), clock: VirtualClock(start: Self.may1))
        func rel(_ name: String = "formatRelativeDateTime") throws -> String? {
            try e.extensions.resolve(for: .date(Self.may1), name: name)!(.date(Self.may1), [], e).displayString
        }
        #expect(try rel() == "Today, 10:00 AM")
        e.locale = AppLocale(language: "ja")
        #expect(try rel() == "今日 10:00")
        e.locale = AppLocale(language: "ar", region: "EG")
        #expect(try rel() == "اليوم، ١٠:٠٠ ص")
        #expect(try rel("formatDateTime")?.contains("، ١٠:٠٠ ص") == true, "the same join as formatDateTime")
        e.locale = AppLocale(language: "de")
        #expect(try rel() == "Heute, 10:00")
    }

    @Test func intervalsCountFromTheClock() throws {
        let clock = VirtualClock(start: Self.may1)
        let e = Engine(schema: Schema(), clock: clock)
        func interval(_ offset: Double) throws -> String? {
            let v = Value.date(Self.may1.addingTimeInterval(offset))
            return try e.extensions.resolve(for: v, name: "formatInterval")!(v, [], e).displayString
        }
        #expect(try interval(-(26 * 3600 + 3 * 60 + 7)) == "26:03:07")
        #expect(try interval(0) == "00:00:00")
        #expect(try interval(90) == "-00:01:30")
    }

    @Test func otherLanguagesUseTheirStylesWithPlainSpaces() throws {
        engine.locale = AppLocale(language: "de", region: "DE", timeZone: "UTC")
        let text = try #require(try call(.date(Self.may1), "formatDate"))
        #expect(text.contains("2019") && text.contains("Mai"))
        let time = try #require(try call(.date(Self.may1), "formatTime"))
        #expect(!time.unicodeScalars.contains { $0.value > 127 && $0.properties.isWhitespace })
        #expect(try call(.double(1234.5), "format", [.string("#,##0.00")]) == "1.234,50")
    }

    @Test func collectionsAndAny() throws {
        #expect(try call(.list([.string("a"), .null, .string("b")]), "join") == "a, b")
        #expect(try call(.list([.string("a"), .string("b")]), "join", [.string("; ")]) == "a; b")
        #expect(try call(.list([.string("b"), .string("Á"), .string("a"), .null, .int(3)]), "sorted") == "3, a, Á, b")
        #expect(try call(.null, "isEmpty") == "true")
        #expect(try call(.string(""), "isEmpty") == "true")
        #expect(try call(.string("x"), "isEmpty") == "false")
        #expect(try call(.null, "isNil") == "true")
        #expect(try call(.null, "default", [.string("none")]) == "none")
        #expect(try call(.string(""), "default", [.string("none")]) == "none")
        #expect(try call(.string("x"), "default", [.string("none")]) == "x")
        #expect(try call(.int(2), "eq", [.double(2)]) == "true")
        #expect(try call(.int(2), "eq", [.string("2")]) == "false")
        #expect(try call(.string("no"), "not") == "true")
    }

    /// Turkish and Azerbaijani pair i with İ and ı with I; Lithuanian keeps an accented i's dot; others as Unicode.
    @Test func casingFollowsTheAppsLanguage() throws {
        engine.locale = AppLocale(language: "tr", region: "TR")
        #expect(try call(.string("pilav"), "upper") == "PİLAV")
        #expect(try call(.string("İSTANBUL"), "lower") == "istanbul", "no combining dot above")
        #expect(try call(.string("IRMIK"), "lower") == "ırmık")
        #expect(try call(.string("istanbul pilavı"), "capitalize") == "İstanbul pilavı")
        #expect(try call(.string("Dune"), "upper") == "DUNE")
        engine.locale = AppLocale(language: "az")
        #expect(try call(.string("ilk"), "upper") == "İLK")
        engine.locale = AppLocale(language: "lt")
        #expect(try call(.string("Ĩ"), "lower") == "i\u{307}\u{303}")
        engine.locale = AppLocale(language: "en")
        #expect(try call(.string("pilav"), "upper") == "PILAV")
        #expect(try call(.string("istanbul"), "capitalize") == "Istanbul")
    }

    @Test func expressionsCaseInTheAppsLanguage() throws {
        let f = try ShopFixture()
        try f.start()
        let s = try f.engine.subscribe(f.book(0), "=upper('pilav')")
        #expect(s.value.description == "PILAV")
        f.engine.locale = AppLocale(language: "tr", region: "TR")
        #expect(s.isStale, "a change of language changes the casing")
        #expect(try f.engine.text(f.book(0), "=upper('pilav')") == "PİLAV")
        #expect(try f.engine.text(f.book(0), "=lower('IRMIK')") == "ırmık")
    }

    @Test func endToEndThroughBindings() throws {
        let f = try ShopFixture()
        try f.start()
        #expect(try f.engine.text(f.book(0), "copies/suffixPlural(#piece)") == "1 piece")
        #expect(try f.engine.text(f.book(1), "copies/suffixPlural(#piece)") == "2 pieces")
        #expect(try f.engine.text(f.book(0), "name/initial") == "D")
        #expect(try f.engine.text(f.book(0), "date/formatDate") == "May 1, 2019")
        #expect(try f.engine.text(f.book(0), "comment/default(#none)") == "none")
        #expect(try f.engine.text(f.root, "books/name/join('; ')") == "Dune; Emma; Anna")
        #expect(try f.engine.text(f.root, "books/name/sorted/join(', ')") == "Anna, Dune, Emma")
        #expect(try f.engine.text(f.book(0), "=round2(price * 1.2)") == "12.6")
        // A Lua-style extension replaces a built-in at the same type.
        f.engine.extensions.register("string", "initial") { _, _, _ in .string("?") }
        #expect(try f.engine.text(f.book(0), "name/initial") == "?")
        // Relative dates go stale when the clock moves.
        let s = try f.engine.subscribe(f.book(0), "date/formatRelativeDate")
        #expect(s.value.description == "Today")
        f.clock.advance(by: 86_400)
        f.engine.clockMoved()
        #expect(s.isStale && s.value.description == "Yesterday")
    }
}

@Suite struct MaskFormatterTests {
    @Test(arguments: [
        ("8085551212", "(###) ###-####", "(808) 555-1212"),
        ("808555", "(###) ###-####", "(808) 555-    "),
        ("80-85-55", "(###) ###", "(808) 555"),
        ("12", "000", "120"),
        ("ab12cd", "XX-00-xx", "AB-12-cd"),
        ("a", "XX-00", "A"),
        ("hello world", "*****", "hello"),
        ("1a", "__", "1a"),
        ("5", "\\#0", "#5"),
        ("", "###", "   "),
    ])
    func mask(_ input: String, _ format: String, _ expected: String) {
        #expect(MaskFormatter.mask(input, format: format) == expected)
    }

    @Test func unmaskRecoversTheInput() {
        #expect(MaskFormatter.unmask("(808) 555-1212", format: "(###) ###-####") == "8085551212")
        #expect(MaskFormatter.unmask("AB-12-cd", format: "XX-00-xx") == "AB12cd")
        #expect(MaskFormatter.unmask("(808) 555-    ", format: "(###) ###-####") == "808555")
        for phone in ["8085551212", "0000000000", "1234567890"] {
            #expect(MaskFormatter.unmask(MaskFormatter.mask(phone, format: "(###) ###-####"), format: "(###) ###-####") == phone)
        }
    }
}

@Suite struct StringsTableTests {
    @Test func stringsFilesParse() throws {
        let text = """
        /* A comment */
        "Book Shop" = "Buchladen";
        // line comment
        "quote" = "say \\"hi\\"\\n";
        entry = "Eintrag";
        "unicode" = "\\U00e9";
        """
        let t = StringsTable()
        try t.load(language: "de", stringsFileContents: Array(text.utf8))
        #expect(t.localize("Book Shop", language: "de") == "Buchladen")
        #expect(t.localize("quote", language: "de") == "say \"hi\"\n")
        #expect(t.localize("entry", language: "de") == "Eintrag")
        #expect(t.localize("unicode", language: "de") == "é")
        #expect(t.localize("missing", language: "de") == "missing")
        #expect(t.localize("entry", language: "de_AT") == "Eintrag", "falls back to the base language")
    }

    @Test func utf16FilesWithAByteOrderMarkParse() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for u in "\"a\" = \"b\";".utf16 { bytes.append(UInt8(u & 0xFF)); bytes.append(UInt8(u >> 8)) }
        let t = StringsTable()
        try t.load(language: "en", stringsFileContents: bytes)
        #expect(t.localize("a", language: "en") == "b")
    }

    @Test func errorsNameLineAndColumn() {
        let t = StringsTable()
        do {
            try t.load(language: "en", stringsFileContents: Array("\"a\" = \"b\";\n\"c\" \"d\";".utf8))
            Issue.record("no error")
        } catch let e as StringsFileError {
            #expect(e.line == 2 && e.column == 5)
            #expect(e.message == "expected \"=\"")
        } catch { Issue.record("\(error)") }
    }
}
