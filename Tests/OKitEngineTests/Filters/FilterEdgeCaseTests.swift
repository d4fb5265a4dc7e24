import Foundation
import Testing
@testable import OKitEngine

/// Edge cases of filter steps (bindings.md "Filters"): hostile binding texts, tracking, writing.
///
/// The shop's books: Dune (price 10.5, copies 1), Emma (21, 2), Anna (31.5, 3).
@Suite struct FilterEdgeCaseTests {
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

/// Edge cases: tracking through predicates that read the root, a method, a nested filter, the parent.
@Suite struct FilterTrackingEdgeCaseTests {
    @Test func absoluteReadsInAPredicateAreTracked() throws {
        let f = try ShopFixture()
        try f.start()
        let s = try f.engine.subscribe(f.root, "books[name == {/name}].@count")
        #expect(s.value.isSame(as: .int(0)))
        try f.engine.set(f.root, "name", .string("Emma"))
        #expect(s.isStale)
        #expect(s.value.isSame(as: .int(1)))
        try f.engine.set(f.book(0), "copies", .int(9))
        #expect(!s.isStale)
    }

    @Test func readsInsideAMethodAndANestedFilterAreTracked() throws {
        let f = try ShopFixture()
        try f.start()
        let m = try f.engine.subscribe(f.root, "books[{label(#!)} == 'Dune!'].@count")
        let n = try f.engine.subscribe(f.root, "books[authors[name == 'x'].@count > 0].@count")
        #expect(m.value.isSame(as: .int(1)) && n.value.isSame(as: .int(0)))
        try f.engine.set(f.book(1), "copies", .int(9))
        #expect(!m.isStale && !n.isStale)
        try f.engine.set(f.book(1), "name", .string("Dune"))
        #expect(m.isStale && !n.isStale)
        #expect(m.value.isSame(as: .int(2)))
        let author = try f.engine.collection(f.book(2), "authors").items[0].entity!
        try f.engine.set(author, "name", .string("x"))
        #expect(n.isStale && !m.isStale)
        #expect(n.value.isSame(as: .int(1)))
        try f.engine.insert(.entity(try f.engine.make("Author", ["name": .string("x")])),
                            into: f.engine.collection(f.book(0), "authors"), append: true)
        #expect(n.isStale)
        #expect(n.value.isSame(as: .int(2)))
    }

    @Test func parentReadsInAPredicateAreTracked() throws {
        let f = try ShopFixture()
        try f.start()
        let s = try f.engine.subscribe(f.book(0), "authors[{../copies} > 1].@count")
        #expect(s.value.isSame(as: .int(0)))
        try f.engine.set(f.book(0), "copies", .int(5))
        #expect(s.isStale)
        #expect(s.value.isSame(as: .int(1)))
    }
}

/// Edge cases: `okit-run check` reports a filter whose predicate reads nothing from the element.
@Suite struct FilterConstantCheckTests {
    @Test(arguments: [
        ("books[- 1]/name", ["6: the filter [- 1] reads nothing from the element, so it keeps every element or none; an index is an integer literal such as [0] or [-1]"]),
        ("books[(0)]", ["6: the filter [(0)] reads nothing from the element, so it keeps every element or none; an index is an integer literal such as [0] or [-1]"]),
        ("books[1 + 1].@count", ["6: the filter [1 + 1] reads nothing from the element, so it keeps every element or none; an index is an integer literal such as [0] or [-1]"]),
        ("books[-1]/name", []),
        ("books[{/name} == 'x']", []),
        ("books[len('ab') > 1]", []),
        ("books[copies > 1 + 1]", []),
    ])
    func aConstantPredicateIsReported(_ text: String, _ expected: [String]) throws {
        let f = try ShopFixture()
        try f.start()
        let issues = BindingChecker(engine: f.engine).check(text, context: f.engine.schema.type(named: "Shop"))
        #expect(issues.map { "\($0.column): \($0.message)" } == expected)
    }
}
