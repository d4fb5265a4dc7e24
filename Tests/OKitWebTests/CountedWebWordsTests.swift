import Testing
@testable import OKitEngine
@testable import OKitWeb

/// The web's own words with a count (a search too long, wrong attempts, sessions, uploads) take the form of the
/// count's CLDR plural category: the app's Russian forms (`1001 символ`, `1002 символа`, `1005 символов`), French's
/// singular for 0 and 1 (`0 seconde`).
@Suite struct CountedWebWordsTests {
    static let russian: @Sendable (Engine) -> Void = { engine in
        engine.strings.add(language: "ru", strings: [
            BuiltInWord.searchTooLongOne.rawValue: "Текст поиска слишком длинный (%1$@ символ; не больше %2$@)."])
        engine.strings.add(language: "ru", forms: [BuiltInWord.searchTooLong.rawValue: [
            .few: "Текст поиска слишком длинный (%1$@ символа; не больше %2$@).",
            .many: "Текст поиска слишком длинный (%1$@ символов; не больше %2$@).",
            .other: "Текст поиска слишком длинный (%1$@ символа; не больше %2$@)."]])
    }

    func searched(_ b: WebAppTests.Browser, _ length: Int) async -> String {
        await b.page("/owners?text=" + String(repeating: "x", count: length))
    }

    @Test func aSearchTooLongIsCountedInTheAppsLanguage() async throws {
        let ru = WebAppTests.Browser(try await LanguagePageTests.serve(language: "ru", Self.russian))
        #expect(await searched(ru, 1001).contains("(1001 символ; не больше 1000)"))
        #expect(await searched(ru, 1002).contains("(1002 символа; не больше 1000)"))
        #expect(await searched(ru, 1005).contains("(1005 символов; не больше 1000)"))
        #expect(await searched(ru, 1011).contains("(1011 символов; не больше 1000)"), "11 is many, not one")
        let fr = WebAppTests.Browser(try await LanguagePageTests.serve(language: "fr"))
        #expect(await searched(fr, 1001).contains("(1001 caractères"))
    }

    @Test func theServersShortPagesCountInTheAppsLanguage() async throws {
        func body(_ web: WebApp, _ word: BuiltInWord, _ n: Int) async -> String {
            String(decoding: await web.said(429, word, count: n).body, as: UTF8.self)
        }
        let fr = try await LanguagePageTests.serve(language: "fr")
        #expect(await body(fr, .tooManyAttempts, 0).contains("réessayez dans 0 seconde."))
        #expect(await body(fr, .tooManyAttempts, 1).contains("réessayez dans 1 seconde."))
        #expect(await body(fr, .tooManyAttempts, 30).contains("réessayez dans 30 secondes."))
        let en = try await LanguagePageTests.serve(language: "en")
        #expect(await body(en, .tooManyAttempts, 1).contains("try again in 1 second."))
        #expect(await body(en, .tooManyPeople, 1).contains("(1 session)"))
        #expect(await body(en, .uploadsBusy, 2).contains("2 uploads are being read"))
    }
}
