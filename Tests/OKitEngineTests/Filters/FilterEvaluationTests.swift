import Foundation
import Testing
@testable import OKitEngine

/// Filters in paths (bindings.md "Filters"): which elements each predicate keeps, indexing against filtering,
/// filters under aggregates and expressions, writing through a filter.
///
/// The shop's books: Dune (price 10.5, copies 1), Emma (21, 2, marked), Anna (31.5, 3); each with one author,
/// "Author of <name>".
@Suite struct FilterEvaluationTests {
    let f: ShopFixture

    init() throws {
        f = try ShopFixture()
        try f.start()
        try f.engine.set(f.book(1), "marked", .bool(true))
    }

    func names(_ text: String) throws -> String { try f.engine.get(f.root, text + "/name").description }

    @Test(arguments: [
        ("books[copies == 2]", "Emma"),
        ("books[copies != 2]", "Dune, Anna"),
        ("books[copies ~= 2]", "Dune, Anna"),
        ("books[copies < 2]", "Dune"),
        ("books[copies <= 2]", "Dune, Emma"),
        ("books[copies > 2]", "Anna"),
        ("books[copies >= 2]", "Emma, Anna"),
        ("books[copies > 1 and price < 30]", "Emma"),
        ("books[copies == 1 or copies == 3]", "Dune, Anna"),
        ("books[not marked]", "Dune, Anna"),
        ("books[!marked]", "Dune, Anna"),
        ("books[marked]", "Emma"),
        ("books[marked == false]", "Dune, Anna"),
        ("books[price * copies > 40]", "Emma, Anna"),
        ("books[copies + 1 == 3]", "Emma"),
        ("books[copies % 2 == 1]", "Dune, Anna"),
        ("books[-copies < -2]", "Anna"),
        ("books[name == 'Dune']", "Dune"),
        ("books[name < 'E']", "Dune, Anna"),
        ("books[name .. '!' == 'Emma!']", "Emma"),
        ("books[copies between 2 and 3]", "Emma, Anna"),
        ("books[name in ('Anna', 'Dune')]", "Dune, Anna"),
        ("books[comment == nil]", "Dune, Emma, Anna"),
        ("books[marked ? false : true]", "Dune, Anna"),
        ("books[true]", "Dune, Emma, Anna"),
        ("books[false]", ""),
        ("books[nil]", ""),
        ("books[1 + 1]", "Dune, Emma, Anna"),
        ("books[copies == '2']", ""),
        ("books[authors.@count > 0]", "Dune, Emma, Anna"),
        ("books[authors[name == 'Author of Emma'].@count > 0]", "Emma"),
        ("books[upper(name) == 'ANNA']", "Anna"),
        ("books[{name/initial} == 'D']", "Dune"),
        ("books[{../name} == 'Book Shop' and copies > 2]", "Anna"),
        ("books[price > {/books[0]/price}]", "Emma, Anna"),
        ("books[copies > 1][copies < 3]", "Emma"),
        ("/books[copies > 1]", "Emma, Anna"),
    ])
    func eachOperatorInAPredicate(_ binding: String, _ expected: String) throws {
        #expect(try names(binding) == expected, "\(binding)")
    }

    @Test func anIntegerIndexesAndAnythingElseFilters() throws {
        #expect(try names("books[1]") == "Emma")
        #expect(try names("books[-1]") == "Anna")
        #expect(try names("books[copies > 1][0]") == "Emma")
        #expect(try names("books[copies > 1][-1]") == "Anna")
        #expect(try f.engine.get(f.root, "books[copies > 5][0]/name").isNull, "out of range is nil")
        #expect(try names("books[0 + 1]") == "Dune, Emma, Anna", "an expression, truthy on every book")
        #expect(try f.engine.get(f.root, "=books[1 + 0].@count").isSame(as: .int(3)))
    }

    @Test func filtersUnderAggregatesAndExpressions() throws {
        func get(_ text: String) throws -> Value { try f.engine.get(f.root, text) }
        #expect(try get("books[copies > 1].@count").isSame(as: .int(2)))
        #expect(try get("books[copies > 1].@sum.copies").isSame(as: .int(5)))
        #expect(try get("books[marked == false].@sum.price").isSame(as: .double(42)))
        #expect(try get("books[copies > 1].@avg.copies").isSame(as: .double(2.5)))
        #expect(try get("books[copies > 1].@min.price").isSame(as: .double(21)))
        #expect(try get("books[copies > 1].@max.name").isSame(as: .string("Emma")))
        #expect(try get("books[copies > 1].@first/name").isSame(as: .string("Emma")))
        #expect(try get("books[copies > 1]/copies/@sum").isSame(as: .int(5)))
        #expect(try get("books[copies > 9].@count").isSame(as: .int(0)))
        #expect(try get("books[copies > 9].@sum.copies").isSame(as: .int(0)))
        #expect(try get("books[copies > 9].@first").isNull)
        #expect(try get("=books[copies > 1].@count * 10").isSame(as: .int(20)))
        #expect(try get("=books[name == 'Dune'].@count > 0 ? 'yes' : 'no'").isSame(as: .string("yes")))
        #expect(try get("books[copies > 1]/authors/name").description == "Author of Emma, Author of Anna")
        #expect(try get("%Open:, books[marked == false].@count").isSame(as: .string("Open: 2")))
    }

    @Test func aFilterOnSomethingElseIsNil() throws {
        #expect(try f.engine.get(f.book(0), "name[copies > 1]").isNull)
        #expect(try f.engine.get(f.book(0), "comment[x]").isNull)
    }

    @Test func aPredicateOnScalarElementsSeesNilPaths() throws {
        try f.engine.insert(.string("a"), into: f.engine.collection(f.book(0), "tags"))
        #expect(try f.engine.get(f.book(0), "tags[true].@count").isSame(as: .int(1)))
        #expect(try f.engine.get(f.book(0), "tags[x == nil].@count").isSame(as: .int(1)))
    }

    @Test func writingGoesThroughAnIndexedFilterButNotAFilter() throws {
        try f.engine.set(f.root, binding: "books[copies > 1][0]/name", .string("Emma 2"))
        #expect(try f.book(1)["name"]?.description == "Emma 2")
        #expect(throws: BindingWriteError.self) { try f.engine.set(f.root, binding: "books[copies > 1]", .null) }
        #expect(throws: BindingWriteError.self) { try f.engine.set(f.root, binding: "books[copies > 1]/name", .string("x")) }
    }

    @Test func aFilteredListDataPathDoesNotChangeTheRowsType() throws {
        let checker = BindingChecker(engine: f.engine)
        let shop = f.engine.schema.type(named: "Shop")
        #expect(checker.entityType(after: "books[copies > 1]", from: shop)?.name == "Book")
        #expect(checker.entityType(after: "books[copies > 1][0]/authors[name == 'x']", from: shop)?.name == "Author")
    }
}
