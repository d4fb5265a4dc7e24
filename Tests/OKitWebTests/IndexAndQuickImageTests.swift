import Testing
@testable import OKitEngine
@testable import OKitWeb

/// OKit's whole index on a page (issue 36 item 10): every letter is a link, one without a section leads to the
/// next section after it (else the last), "#" only to titles outside the index's letters; a quick action with an image alone is named by the image (item 11).
@Suite struct IndexAndQuickImageTests {
    func page(_ s: Snapshot) -> String { PageRenderer.renderString(s, Fixtures.context()) }

    @Test func everyLetterOfTheWholeIndexLeadsToASection() {
        var s = Fixtures.list()
        s.screen.index = ListIndexLetters.alphabet
        let html = page(s)
        #expect(html.contains("<li><a href=\"#section-1\">A</a></li>"), "A has no section: it leads to D's")
        #expect(html.contains("<li><a href=\"#section-1\">D</a></li>"))
        #expect(html.contains("<li><a href=\"#section-2\">E</a></li>"))
        #expect(html.contains("<li><a href=\"#section-2\">Z</a></li>"), "nothing after Z: the last section")
        #expect(html.contains("<li>#</li>"), "no title outside A–Z: # leads to no letter's section")
    }

    /// out-turkish finding 6: a Turkish page's index has Ç, and "#" no longer links to Ç's section.
    @Test func aTurkishIndexLinksItsOwnLettersAndHashOnlyToOtherTitles() {
        var s = Fixtures.list()
        s.screen.index = ListIndexLetters.alphabet(for: "tr")
        s.screen.sections[0].header = "C"
        s.screen.sections[1].header = "Ç"
        let html = page(s)
        #expect(html.contains("<li><a href=\"#section-2\">Ç</a></li>"), "\(html)")
        #expect(html.contains("<li><a href=\"#section-2\">Ğ</a></li>"), "nothing after Ç: the last section")
        #expect(html.contains("<li>#</li>"), "# leads to no letter's section (it led to Ç's)")
    }

    /// probe-ja: a Japanese page's index is iOS's (あ か さ … わ, A–Z, #), and a kana leads to its row's section
    /// (every letter of the A–Z index led to the last one).
    @Test func aJapaneseIndexLinksEachRowToItsSection() {
        var s = Fixtures.list()
        s.screen.index = ListIndexLetters.alphabet(for: "ja")
        s.screen.sections[0].header = "か"
        s.screen.sections[1].header = "は"
        let html = page(s)
        #expect(html.contains("<li><a href=\"#section-1\">か</a></li>"), "\(html)")
        #expect(html.contains("<li><a href=\"#section-2\">さ</a></li>"), "さ has no section: は's is next")
        #expect(html.contains("<li><a href=\"#section-1\">A</a></li>"), "Latin sorts before kana: the first kana's")
        #expect(html.contains("<li>#</li>"))
    }

    @Test func aQuickActionWithAnImageAloneIsNamedByItsImage() {
        var s = Fixtures.list()
        s.screen.sections[0].rows[0].quick = QuickSnapshot(title: "", enabled: true, image: "star")
        #expect(page(s).contains(">star</button>"), "\(page(s))")
    }
}
