import Foundation
import OKitTestSupport
import Testing
@testable import OKitEngine
@testable import OKitLua

/// What an outside tester writing a Turkish app found (out-turkish): a region that is no code, a plural form
/// Turkish never takes, ISO 639-2 codes, and `os.date`/`os.time` following the machine's `TZ`.
@Suite struct TurkishAppTests {
    static let app = LanguageInputTests.app

    @Test func aRegionThatIsNoCodeIsRefusedWithTheCodeToWrite() throws {
        #expect(AppLocale.regionCode("TR") == "TR" && AppLocale.regionCode("tr") == "TR" && AppLocale.regionCode("419") == "419")
        #expect(AppLocale.regionCode("XX") == nil && AppLocale.regionCode("Türkiye") == nil && AppLocale.regionCode("turkey") == nil)
        #expect(AppLocale.regionAdvice("turkey") == "\"turkey\" is not a region code: write TR (Türkiye)")
        #expect(AppLocale.regionAdvice("Türkiye") == "\"Türkiye\" is not a region code: write TR (Türkiye)")
        #expect(AppLocale.regionAdvice("Deutschland", language: "de") == "\"Deutschland\" is not a region code: write DE (Germany)")
        #expect(AppLocale.regionAdvice("XX") == "\"XX\" is not a region code: write an ISO 3166 code such as DE, TR or US")
        let t = try TempApp(["app.lua": Self.app + "\nokit.locale { language = 'tr', region = 'turkey' }\n"])
        #expect { try t.launch() } throws: { "\($0)".contains("okit.locale: region: \"turkey\" is not a region code: write TR (Türkiye)") }
        let kept = try TempApp(["app.lua": Self.app + "\nokit.locale { language = 'tr', region = 'tr' }\n"])
        try kept.launch().run("assert(okit.locale().region == 'TR', okit.locale().region)")
    }

    @Test func checkNamesABadRegion() throws {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let t = try TempApp(["app.lua": Self.app + "\nokit.locale { language = 'tr', region = 'XX' }\n"])
        let r = try OKitRun.run(["check", t.folder.appendingPathComponent("app.lua").path])
        #expect(r.out.contains("okit.locale: region: \"XX\" is not a region code"), "\(r.out)\(r.err)")
    }

    @Test func iso639TwoCodesAreAnsweredWithTheirTwoLetterCode() throws {
        #expect(AppLocale.languageAdvice("tur") == "\"tur\" is an ISO 639-2 code: write tr (Turkish)")
        #expect(AppLocale.languageAdvice("deu").hasSuffix("write de (German)") && AppLocale.languageAdvice("ger").hasSuffix("write de (German)"))
        #expect(AppLocale.languageAdvice("fre").hasSuffix("write fr (French)") && AppLocale.languageAdvice("fra").hasSuffix("write fr (French)"))
        #expect(AppLocale.languageAdvice("xyz").contains("such as de, en or fr"))
        let t = try TempApp(["app.lua": Self.app + "\nokit.locale { language = 'tur' }\n"])
        #expect { try t.launch() } throws: { "\($0)".contains("okit.locale: language: \"tur\" is an ISO 639-2 code: write tr (Turkish)") }
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let r = try OKitRun.run([t.folder.appendingPathComponent("app.lua").path, "--json", "--data", t.data.path, "--lang", "tur"])
        #expect(r.code != 0 && r.err.contains("--lang: \"tur\" is an ISO 639-2 code: write tr (Turkish)"), "\(r.err)")
    }

    @Test func checkNamesAPluralFormTheLanguageNeverTakes() throws {
        let result = try CheckFindingsTests.check(Self.app + """

        okit.locale { language = "tr" }
        okit.strings("tr", { Items = "Öğeler", items = { few = "öğeler", other = "öğe" } })
        """)
        let line = result.problems.first { $0.contains("the few form of \"items\" is never shown") }
        #expect(line?.hasPrefix("app.lua:8:") == true && line?.contains("no count takes few in Turkish, whose counts take one, other; remove it") == true,
                "\(result.problems)")
    }

    static let zoned = """
    okit.locale { timeZone = "Europe/Istanbul" }
    """

    /// The virtual clock is 2019-05-01T10:00:00Z: 13:00 in Istanbul (+03), 06:00 in New York (EDT, -04).
    static let clockScript = """
    assert(os.date("%H:%M %Z") == "13:00 +03", os.date("%H:%M %Z"))
    assert(os.date("%Y-%m-%d %z %%z") == "2019-05-01 +0300 %z", os.date("%Y-%m-%d %z %%z"))
    assert(os.date("!%H:%M") == "10:00", os.date("!%H:%M"))
    local t = os.date("*t")
    assert(t.hour == 13 and t.day == 1 and t.isdst == false and t.yday == 121, t.hour)
    assert(os.time(t) == 1556704800, os.time(t))
    assert(os.time { year = 2019, month = 5, day = 1, hour = 13 } == 1556704800)
    local over = { year = 2019, month = 13, day = 32, hour = 0 }
    assert(os.time(over) == os.time { year = 2020, month = 2, day = 1, hour = 0 } and over.year == 2020 and over.month == 2 and over.day == 1)
    assert(not pcall(os.time, { year = 2019, month = 5 }))
    okit.locale { timeZone = "America/New_York" }
    assert(os.date("%H:%M %z") == "06:00 -0400" and os.date("*t").isdst == true, os.date("%H:%M %z"))
    assert(os.time { year = 2019, month = 1, day = 1, hour = 0 } == 1546318800, "EST in January")
    print("clock ok")
    """

    @Test func osDateAndTimeFollowTheAppsTimeZone() throws {
        let t = try TempApp(["app.lua": Self.app + "\n" + Self.zoned + "\n"])
        try t.launch().run(Self.clockScript)
    }

    /// The same script gives the same answers whatever the machine's `TZ`.
    @Test(arguments: ["UTC", "Asia/Tokyo", "America/Los_Angeles", "Europe/Istanbul", ""])
    func osDateIsTheSameUnderEveryTZ(_ tz: String) throws {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let folder = try TempFolder()
        let app = folder.url.appendingPathComponent("app.lua")
        try (Self.app + "\n" + Self.zoned + "\n").write(to: app, atomically: true, encoding: .utf8)
        let r = try OKitRun.run([app.path, "--data", folder.url.appendingPathComponent("data").path, "--clock", "virtual"],
                                env: ["TZ": tz], script: Self.clockScript, in: folder)
        #expect(r.code == 0 && (r.out + r.err).contains("clock ok"), "TZ=\(tz): \(r.out)\(r.err)")
    }
}
