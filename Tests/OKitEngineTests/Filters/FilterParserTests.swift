import Testing
@testable import OKitEngine

/// Filter steps in paths (bindings.md "Filters"): how they parse, where they end, and their columns.
@Suite struct FilterParserTests {
    func render(_ text: String) throws -> String { ASTPrinter.render(try BindingParser.parse(text)) }

    @Test(arguments: [
        // an integer literal stays an index; anything else is a filter
        ("expenses[0]", "expenses[0]"),
        ("expenses[-1]/amount", "expenses[-1]/amount"),
        ("expenses[ 2 ]", "expenses[2]"),
        ("expenses[paid == false]", "expenses[({paid} == bool false)]"),
        ("expenses[paid ~= true]", "expenses[({paid} != bool true)]"),
        ("expenses[paid != true]", "expenses[({paid} != bool true)]"),
        ("expenses[paid]", "expenses[{paid}]"),
        ("expenses[not paid]", "expenses[(not {paid})]"),
        ("expenses[1 + 1]", "expenses[(int 1 + int 1)]"),
        ("expenses[-amount < 0]", "expenses[((-{amount}) < int 0)]"),
        // keys continue after a filter; an index after a filter ends the key path
        ("expenses[paid == false].@sum.amount", "expenses[({paid} == bool false)].@sum.amount"),
        ("expenses[paid].@count", "expenses[{paid}].@count"),
        ("expenses[paid][0]/amount", "expenses[{paid}][0]/amount"),
        ("expenses[paid][amount > 1]", "expenses[{paid}][({amount} > int 1)]"),
        ("expenses[paid]/amount", "expenses[{paid}]/amount"),
        ("a.items[x > 1].name", "a.items[({x} > int 1)].name"),
        ("/expenses[paid]", "/expenses[{paid}]"),
        ("m>expenses[paid]", "m>/expenses[{paid}]"),
        // predicate syntax: precedence, dotted paths, quotes, braces, calls, brackets
        ("books[price > 10 and author.ref.name == 'Herbert']",
         "books[(({price} > int 10) and ({author.ref.name} == \"Herbert\"))]"),
        ("books[a or b and not c]", "books[({a} or ({b} and (not {c})))]"),
        ("books[price * copies >= 20]", "books[(({price} * {copies}) >= int 20)]"),
        ("books[price / 2 > 5]", "books[(({price} / int 2) > int 5)]"),
        ("books[name == 'a, b/c]']", "books[({name} == \"a, b/c]\")]"),
        ("books[type in ('1', '2')]", "books[({type} in [\"1\", \"2\"])]"),
        ("books[{date/formatDate} == 'May 1, 2019']", "books[({date/formatDate} == \"May 1, 2019\")]"),
        ("books[authors[name == 'x'].@count > 0]", "books[({authors[({name} == \"x\")].@count} > int 0)]"),
        ("books[upper(name) == 'DUNE']", "books[(upper({name}) == \"DUNE\")]"),
        ("books[price > {/limit}]", "books[({price} > {/limit})]"),
        // several parts, call arguments, expressions
        ("%Open:, expenses[paid == false].@count", "loc(Open:) , expenses[({paid} == bool false)].@count"),
        ("fn(books[price > 1]), x", "fn(books[({price} > int 1)]) , x"),
        ("=expenses[paid == false].@sum.amount * 2", "expr(({expenses[({paid} == bool false)].@sum.amount} * int 2))"),
        ("=books[name == 'x'].@count > 0 ? 'y' : 'n'", "expr((({books[({name} == \"x\")].@count} > int 0) ? \"y\" : \"n\"))"),
        ("={books[price > 1]/name}", "expr({books[({price} > int 1)]/name})"),
    ])
    func filtersParse(_ text: String, _ expected: String) throws {
        #expect(try render(text) == expected, "\(text)")
    }

    @Test(arguments: [
        ("expenses[paid == false].@sum.amount", "path@1 expenses[({paid} == bool false)].@sum.amount@1 []@9 path@10 paid@10"),
        ("x, books[price > 1 and author.ref.name == 'H']/name",
         "path@1 x@1 path@4 books[(({price} > int 1) and ({author.ref.name} == \"H\"))]@4 []@9 path@10 price@10 path@24 author.ref.name@24 name@48"),
        ("=a[b > 1].@count", "path@2 a[({b} > int 1)].@count@2 []@3 path@4 b@4"),
    ])
    func filterColumns(_ text: String, _ expected: String) throws {
        #expect(ASTPrinter.columns(try BindingParser.parse(text)) == expected, "\(text)")
    }

    @Test func filtersNestAgainstTheLimit() {
        func nested(_ n: Int) -> String { String(repeating: "a[", count: n) + "x" + String(repeating: "]", count: n) }
        #expect((try? BindingParser.parse(nested(30))) != nil)
        do {
            _ = try BindingParser.parse(nested(65))
            Issue.record("65 nested filters parsed")
        } catch {
            #expect(error.message == "nesting deeper than 64")
        }
    }

    @Test func theFilterRecordsItsTextAndColumns() throws {
        let b = try BindingParser.parse("expenses[ paid == false ].@count")
        guard case .path(let p) = b.parts[0], case .property(let keys, nil, _) = p.segments[0], case .filter(let f) = keys[1] else {
            Issue.record("not a filter")
            return
        }
        #expect(f.text == "paid == false")
        #expect(f.column == 9 && f.closeColumn == 25)
        #expect(p.simpleSteps == nil, "a filter leaves the fast loop for plain paths")
    }
}
