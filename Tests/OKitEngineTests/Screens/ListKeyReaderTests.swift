import Testing
@testable import OKitEngine

/// A list's first pass reads `name` and `name/initial` straight from the row's slot (`ListKeyReader`); every
/// key it reads is the one the evaluator gives, with the same dependency recorded.
@Suite struct ListKeyReaderTests {
    @Test(arguments: ["name", "name/initial", "name/initial()", "name.initial", "comment", "comment/initial", "priceWithTax", "name/capitalize",
                      "!name", "name/initial/initial", "authors[0]/name", "", "'x'", "type"])
    func aKeyIsWhatTheEvaluatorGives(_ text: String) throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "émile", "", "Ünder"])
        try f.engine.set(f.book(1), "comment", .string("ça va"))
        let binding = try f.engine.compile(text)
        let reader = ListKeyReader(binding, engine: f.engine)
        let rows = (0..<4).map { f.book($0) } + [f.root]   // a row of another type too
        for _ in 0..<2 {   // the second time with the slot caches warm
            for e in rows {
                let expected = try f.engine.evaluate(binding, e, mode: .display)
                let (got, keys) = try f.engine.graph.recording { try reader.read(e, engine: f.engine) }
                let (_, expectedKeys) = try f.engine.graph.recording { try f.engine.evaluate(binding, e, mode: .display) }
                #expect(got.isSame(as: expected), "\(text) on \(e.type.name)")
                #expect(keys == expectedKeys, "\(text) on \(e.type.name)")
            }
        }
    }

    @Test func anInitialAnAppReplacedIsCalled() throws {
        let f = try ShopFixture()
        try f.start(books: ["dune"])
        let binding = try f.engine.compile("name/initial")
        _ = try f.engine.evaluate(binding, f.book(0), mode: .display)   // warm
        #expect(try ListKeyReader(binding, engine: f.engine).read(f.book(0), engine: f.engine).isSame(as: .string("d")))
        f.engine.extensions.register("string", "initial") { _, _, _ in .string("X") }
        #expect(try ListKeyReader(binding, engine: f.engine).read(f.book(0), engine: f.engine).isSame(as: .string("X")))
    }

    @Test func theCountingOrderKeepsTheDataOrderAmongEquals() {
        var rng = SplitMix64(seed: 3)
        let ranks = (0..<5_000).map { _ in rng.below(40) }
        let order = ListRowOrder.countingOrder(ranks.count, ranks: 40) { ranks[$0] }
        let expected = (0..<ranks.count).sorted { ranks[$0] != ranks[$1] ? ranks[$0] < ranks[$1] : $0 < $1 }
        #expect(order.map(Int.init) == expected)
    }

    @Test func textKeysGiveNoRanksOnceAKeyIsNotText() {
        var keys = TextKeys(capacity: 3)
        keys.add(.string("b")); keys.add(.string("a")); keys.add(.string("b"))
        #expect(keys.ranks(ascending: true) == [1, 0, 1])
        #expect(keys.distinctCount == 2)
        keys.add(.int(3))
        #expect(keys.ranks(ascending: true) == nil)
    }
}
