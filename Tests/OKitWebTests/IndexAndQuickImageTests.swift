import Testing
@testable import OKitEngine
@testable import OKitWeb

/// OKit's whole index on a page (issue 36 item 10): every letter is a link, one without a section leads to the
/// next section after it (else the last); a quick action with an image alone is named by the image (item 11).
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
        #expect(html.contains("<li><a href=\"#section-2\">#</a></li>"))
    }

    @Test func aQuickActionWithAnImageAloneIsNamedByItsImage() {
        var s = Fixtures.list()
        s.screen.sections[0].rows[0].quick = QuickSnapshot(title: "", enabled: true, image: "star")
        #expect(page(s).contains(">star</button>"), "\(page(s))")
    }
}
