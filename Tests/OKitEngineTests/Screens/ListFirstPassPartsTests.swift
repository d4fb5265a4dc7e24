import Testing
@testable import OKitEngine

/// The parts a list's first pass is made of (issue 16: each replaced a slower general one) give what the general
/// one gave.
@Suite struct ListFirstPassPartsTests {
    @Test func anEntitySlotMapAgreesWithADictionaryThroughInsertsUpdatesAndRemovals() throws {
        let f = try ShopFixture()
        try f.start(books: [])
        // Slot i holds entity i's row, as the table's slots do; the map keeps only the slots.
        let entities = try (0..<3000).map { _ in try f.engine.make("Book", [:]) }
        let ids = entities.map(ObjectIdentifier.init)
        let entityAt = { (s: Int32) in ids[Int(s)] }
        var map = EntitySlotMap(capacity: 8)
        var reference: [ObjectIdentifier: Int32] = [:]
        var r = SplitMix64(seed: 44)
        for step in 0..<40_000 {
            let i = r.below(entities.count)
            if r.below(3) == 0 {
                map.set(ids[i], nil, entityAt: entityAt)
                reference[ids[i]] = nil
            } else {
                map.set(ids[i], Int32(i), entityAt: entityAt)
                reference[ids[i]] = Int32(i)
            }
            if step % 997 == 0 {
                for x in ids { #expect(map.slot(of: x, entityAt: entityAt) == reference[x]) }
            }
        }
        #expect(map.count == reference.count)
        for x in ids { #expect(map.slot(of: x, entityAt: entityAt) == reference[x]) }
    }

    /// A list keeps one row of keys per book: 80 bytes (search and scope texts kept beside the rows, the flags in
    /// the group key's padding; 120 before issue 38, 12 MB for 100,000 books).
    @Test func aRowOfKeysIsAtMostEightyBytes() {
        #expect(MemoryLayout<ListScreen.Row>.stride <= 80)
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
                    let x = ListScreen.Row(entity: try ShopFixture().engine.make("Book", [:]), seq: 0, groupTitle: nil, group: .null,
                                           hiddenDisplay: false, hiddenEdit: false, sort: .string(texts[i]))
                    let y = ListScreen.Row(entity: x.entity, seq: 1, groupTitle: nil, group: .null,
                                           hiddenDisplay: false, hiddenEdit: false, sort: .string(texts[j]))
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
