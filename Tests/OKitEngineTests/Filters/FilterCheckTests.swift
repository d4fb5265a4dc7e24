import Foundation
import Testing
@testable import OKitEngine

/// `okit-run check` types a filter's predicate against the element type (bindings.md "Filters"): unknown names
/// are found with their column and a did-you-mean; a filter on something that is not a collection is reported.
@Suite struct FilterCheckTests {
    let f: ShopFixture
    let checker: BindingChecker

    init() throws {
        f = try ShopFixture()
        try f.start()
        checker = BindingChecker(engine: f.engine)
    }

    func issues(_ text: String, on type: String = "Shop") -> [String] {
        checker.check(text, context: f.engine.schema.type(named: type)).map { "\($0.column): \($0.message)" }
    }

    @Test(arguments: [
        ("books[copies > 1]/name", [String]()),
        ("books[copies > 1 and author.ref.name == 'x'].@sum.price", []),
        ("books[copiess > 1]/name", ["7: Book has no field \"copiess\" (did you mean \"copies\"?)"]),
        ("books[author.ref.nam == 'x']", ["18: Author has no field \"nam\" (did you mean \"name\"?)"]),
        ("books[copies > 1].@sum.prise", ["24: Book has no field \"prise\" (did you mean \"price\"?)"]),
        ("books[copies > 1]/nme", ["19: Book has no field \"nme\" (did you mean \"name\"?)"]),
        ("books[copies > 1].nme", ["19: Book has no field \"nme\" (did you mean \"name\"?)"]),
        ("=books[markd].@count > 0", ["8: Book has no field \"markd\" (did you mean \"marked\"?)"]),
        ("books[authors[nme == 'x'].@count > 0]", ["15: Author has no field \"nme\" (did you mean \"name\"?)"]),
        ("books[{name/initail} == 'D']", ["13: no extension \"initail\" for string values (did you mean \"initial\"?)"]),
        ("name[x > 1]", ["5: a filter [x > 1] needs a collection; this is a string"]),
        ("books[0][copies > 1]", ["9: unexpected \"[\""]),
        ("books[{/nme} == 'x']", ["9: Shop has no field \"nme\" (did you mean \"name\"?)"]),
        // comparisons of a field with a literal of another type
        ("books[marked == 'no']", ["7: \"marked\" is a bool and \"no\" a string: the comparison == is always false"]),
        ("books[copies != '2']", ["7: \"copies\" is a number and \"2\" a string: the comparison != is always true"]),
        ("books[ price ~= 'a']", ["8: \"price\" is a number and \"a\" a string: the comparison ~= is always true"]),
        ("books['a' ~=  price]", ["15: \"price\" is a number and \"a\" a string: the comparison ~= is always true"]),
        ("books['a' != price]", ["14: \"price\" is a number and \"a\" a string: the comparison != is always true"]),
        ("books[1 < name]", ["11: \"name\" is a string and 1 a number: the comparison < is always false"]),
        ("books[not (copies > 1 and author.ref.name == 2)]",
         ["27: \"author.ref.name\" is a string and 2 a number: the comparison == is always false"]),
        ("books[copies == 2 and comment == nil and price >= 1.5 and name ~= 'x' and marked == true]", []),
    ])
    func predicatesAreCheckedOnTheElementType(_ text: String, _ expected: [String]) {
        #expect(issues(text) == expected, "\(text)")
    }

    @Test func aPredicateOnScalarsOrAnUnknownTypeChecksOnlyAbsolutePaths() {
        #expect(issues("tags[x == 'a']", on: "Book") == [])
        #expect(issues("tags[{/nme} == 'a']", on: "Book") == ["8: Shop has no field \"nme\" (did you mean \"name\"?)"])
    }
}
