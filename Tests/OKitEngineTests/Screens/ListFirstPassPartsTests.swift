import Testing
@testable import OKitEngine

/// The parts a list's first pass is made of (issue 16: each replaced a slower general one) give what the general
/// one gave.
@Suite struct ListFirstPassPartsTests {
    @Test func anEntitySlotMapAgreesWithADictionaryThroughInsertsUpdatesAndRemovals() throws {
        let f = try ShopFixture()
        try f.start(books: [])
        let entities = try (0..<3000).map { _ in try f.engine.make("Book", [:]) }
        var map = EntitySlotMap(capacity: 8)
        var reference: [ObjectIdentifier: Int32] = [:]
        var r = SplitMix64(seed: 44)
        for step in 0..<40_000 {
            let e = ObjectIdentifier(entities[r.below(entities.count)])
            if r.below(3) == 0 {
                map[e] = nil
                reference[e] = nil
            } else {
                map[e] = Int32(step)
                reference[e] = Int32(step)
            }
            if step % 997 == 0 {
                for x in entities { #expect(map[ObjectIdentifier(x)] == reference[ObjectIdentifier(x)]) }
            }
        }
        #expect(map.count == reference.count)
        for x in entities { #expect(map[ObjectIdentifier(x)] == reference[ObjectIdentifier(x)]) }
    }

    @Test func indexLettersFromLetterBytesCountRunsAndNoticeScatteredLetters() {
        func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
        var l = ListIndexLetters(letterBytes: bytes("AAAB#BC"))
        #expect(l.letters == ["A", "B", "#", "C"])
        // Not contiguous (B's rows are split by #): a row coming in cannot be placed; the letters are recomputed.
        #expect(!l.inserted("Bob", at: 0, count: 8) { _ in "Bob" })
        l = ListIndexLetters(letterBytes: bytes("AABBC"))
        #expect(l.inserted("Bert", at: 2, count: 6) { ["A", "A", "Bert", "B", "B", "C"][$0] })
        l.removed("Cleo")
        #expect(l.letters == ["A", "B"])
        #expect(ListIndexLetters(letterBytes: []).letters.isEmpty)
        for title: String? in [nil, "", "apple", "Zed", "3 men", "élan", "Øre", "日本"] {
            #expect(String(UnicodeScalar(ListIndexLetters.letterByte(title))) == ListIndexLetters.letter(title), "\(title ?? "nil")")
        }
    }

    /// The read-ahead of a first pass reads only what is there: rows of a type with fewer slots than the key's
    /// slot, a packed id in slot 0, values that are not entities, a run shorter than the distances.
    @Test func readingAheadReadsOnlyValuesThatAreThere() throws {
        let f = try ShopFixture()
        try f.start(books: (0..<40).map { "A book title long enough for the heap \($0)" })
        let genre = try f.engine.make("Genre", ["name": .string("a genre name long enough for the heap")])
        #expect(genre.slotCount < f.book(0).slotCount && f.book(0).packedId != nil)
        let nameSlot = try #require(f.book(0).type.slot(of: "name"))
        var values: [Value] = []
        for i in 0..<40 { values += [.entity(f.book(i)), .entity(genre), .string("text \(i)"), .null, .int(i)] }
        for slot in [-1, 0, nameSlot, Int(f.book(0).slotCount) - 1] {
            for count in [0, 1, 5, values.count] {
                values.prefix(count).withUnsafeBufferPointer { run in
                    for i in run.indices { EntityReadAhead.step(run, i, slot: slot) }
                }
            }
        }
        #expect(f.book(3)["name"]?.description == "A book title long enough for the heap 3", "nothing changed")
    }

    @Test func textsAreTheSameWhenTheirBytesAre() {
        var d = DistinctTexts()
        let composed = "\u{E9}lan", decomposed = "e\u{301}lan"
        #expect(composed == decomposed, "Swift's == says canonically equivalent")
        let a = d.number(of: composed), b = d.number(of: decomposed)
        #expect(a != b, "distinct by their bytes, as compareScalars orders them")
        #expect(d.number(of: String(composed)) == a)
        // A text and its prefixes, and the empty text, are distinct (compared with the copies of their bytes).
        let prefixes = ["", "a", "ab", "abc", "abcdefgh", "abcdefghi"].map { d.number(of: $0) }
        #expect(Set(prefixes).count == 6 && ["", "a", "ab", "abc", "abcdefgh", "abcdefghi"].map { d.number(of: $0) } == prefixes)
        // Many texts, long and short, all found again.
        let texts = (0..<5000).map { i in String(repeating: "x", count: i % 40) + "\(i)" }
        let numbers = texts.map { d.number(of: $0) }
        #expect(texts.map { d.number(of: $0) } == numbers)
        #expect(Set(numbers).count == texts.count)
    }

    @Test func ranksOrderFoldedThenAsTheyAre() throws {
        var keys = TextKeys(capacity: 0)
        let texts = ["beta", "Alpha", "alpha", "élan", "Echo", "", "zulu", "ALPHA", "Beta", "echo", "Éclair", "10", "9"]
        for t in texts { keys.add(.string(t)) }
        for ascending in [true, false] {
            let ranks = try #require(keys.ranks(ascending: ascending))
            // The order `ListRowOrder` keeps rows in, one comparison at a time.
            let order = ListRowOrder(grouped: false, sorted: true, groupAscending: true, ascending: ascending)
            for i in texts.indices {
                for j in texts.indices where i != j {
                    let x = ListScreen.Row(entity: try ShopFixture().engine.make("Book", [:]), group: .null, groupTitle: nil, search: nil,
                                           filter: nil, sort: .string(texts[i]), seq: 0, hiddenDisplay: false, hiddenEdit: false)
                    let y = ListScreen.Row(entity: x.entity, group: .null, groupTitle: nil, search: nil, filter: nil,
                                           sort: .string(texts[j]), seq: 1, hiddenDisplay: false, hiddenEdit: false)
                    #expect((ranks[i] < ranks[j]) == order.before(x, y), "\(texts[i]) / \(texts[j]) ascending \(ascending)")
                }
            }
        }
    }

    @Test func initialIsTheFirstCharacter() {
        #expect(StringExtensions.initial("Alpha") == "A")
        #expect(StringExtensions.initial("a") == "a")
        #expect(StringExtensions.initial("") == "")
        #expect(StringExtensions.initial("e\u{301}tude") == "e\u{301}")
        #expect(StringExtensions.initial("\r\nx") == "\r\n")
        #expect(StringExtensions.initial("日本") == "日")
        #expect(StringExtensions.initial("👍🏽ok") == "👍🏽")
    }
}
