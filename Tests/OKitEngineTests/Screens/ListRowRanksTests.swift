import Testing
@testable import OKitEngine

/// `ListRowOrder.ranks`: equal texts share a rank, ranks follow the folded order (case- and diacritic-blind,
/// then case-sensitive), across the growth of its table of distinct texts.
@Suite struct ListRowRanksTests {
    @Test(arguments: [true, false])
    func ranksFollowTheFoldedOrderAcrossManyDistinctTexts(ascending: Bool) throws {
        var rng = SplitMix64(seed: 11)
        let words = (0..<3_000).map { i -> String in
            let base = "name \(i % 1_500)"
            return i % 3 == 0 ? base.uppercased() : (i % 5 == 0 ? "é" + base : base)
        }
        let column = (0..<20_000).map { _ in words[rng.below(words.count)] }
        let ranks = try #require(ListRowOrder.ranks(column.count, { .string(column[$0]) }, ascending: ascending))
        #expect(ranks.count == column.count)
        for _ in 0..<20_000 {
            let a = rng.below(column.count), b = rng.below(column.count)
            let (x, y) = (column[a], column[b])
            if x == y { #expect(ranks[a] == ranks[b]); continue }
            let (fx, fy) = (ListScreen.fold(x), ListScreen.fold(y))
            let before = fx != fy ? (ascending ? fx < fy : fx > fy) : ValueOrder.compareScalars(x, y) < 0
            #expect((ranks[a] < ranks[b]) == before, "\(x) / \(y)")
        }
    }

    @Test func aKeyThatIsNotTextGivesNoRanks() {
        #expect(ListRowOrder.ranks(3, { $0 == 1 ? .int(1) : .string("a") }, ascending: true) == nil)
    }
}
