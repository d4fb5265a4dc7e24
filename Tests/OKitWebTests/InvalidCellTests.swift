import Testing
@testable import OKitEngine
@testable import OKitWeb

/// A detail cell whose value breaks a field rule (lua-api.md "Validation") shows the rule's message at the cell,
/// escaped, and its field points at it.
@Suite struct InvalidCellTests {
    static func page(invalid: String?) -> String {
        var row = Fixtures.cell("text", "Name", ControlSnapshot(value: .string(""), enabled: true, placeholder: "Name"))
        row.id = "Name"
        row.invalid = invalid
        var screen = ScreenSnapshot(id: "book", kind: "detail")
        screen.editing = true
        screen.sections = [SectionSnapshot(header: nil, footer: nil, rows: [row])]
        screen.rowCount = 1
        return PageRenderer.renderString(Snapshot(app: Fixtures.app(), screen: screen), Fixtures.context())
    }

    @Test func theMessageIsShownAtTheCellAndTheFieldPointsAtIt() {
        let html = InvalidCellTests.page(invalid: "Name is required \(Fixtures.evil)")
        #expect(html.contains("<p id=\"invalid-1-1\" class=\"okit-invalid\">Name is required &lt;script&gt;alert(1)&lt;/script&gt;</p>"), "\(html)")
        #expect(html.contains("aria-invalid=\"true\" aria-describedby=\"invalid-1-1\""))
        #expect(html.contains("okit-cell-invalid"))
        #expect(!html.contains(Fixtures.evil))
    }

    @Test func aValidCellHasNoMessage() {
        let html = InvalidCellTests.page(invalid: nil)
        #expect(!html.contains("okit-invalid") && !html.contains("aria-invalid"))
    }
}
