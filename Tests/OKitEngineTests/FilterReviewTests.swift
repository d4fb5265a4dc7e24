import Foundation
import Testing
@testable import OKitEngine

/// Review probes on filter steps (bindings.md "Filters"): hostile binding texts, tracking, writing.
///
/// The shop's books: Dune (price 10.5, copies 1), Emma (21, 2), Anna (31.5, 3).
@Suite struct FilterReviewTests {
    @Test(arguments: [
        "books[", "books[[", "books[\\", "books['", "books[']'", "books[a]]", "books[]]", "[x]", "books[x]x",
        "books[x] [y]", "books [copies > 1]", "books[copies > 1]]", "books[(]", "books[{]}]", "books[{x]",
        "books[ - 1]", "books[-]", "books[--1]", "books[0", "books[-1", "books[copies > 1][", "=books[copies > 1",
        "books[x][0][y]", "books[#x]", "books[@count]", "books[..]", "books[{..}]", "books[/x]", "books[x/y]",
        String(repeating: "books[", count: 3000), String(repeating: "[", count: 5000),
        "books[" + String(repeating: "(", count: 5000) + "]",
        "books[" + String(repeating: "a[", count: 2000) + String(repeating: "]", count: 2001),
        "books[name == '" + String(repeating: "\\", count: 999) + "']",
    ])
    func hostileTextsGiveErrorsOrValues(_ text: String) throws {
        let f = try ShopFixture()
        try f.start()
        do { _ = try f.engine.get(f.root, text) } catch {
            #expect(!"\(error)".isEmpty)
        }
        _ = BindingChecker(engine: f.engine).check(text, context: f.engine.schema.type(named: "Shop"))
    }
}
