import Testing
@testable import OKitEngine

/// A long collection becomes chunked the first time a change in its middle would move many elements, so that
/// deleting from a 1,000,000-book list costs as much as from a short one (issue 16); it stays a value as arrays are.
@Suite struct ValueChunksTests {
    func ints(_ l: ValueList) -> [Int] { l.map { $0.intValue ?? .min } }

    func runs(_ l: ValueList) -> [Int] {
        var out: [Int] = []
        l.forEachRun { run in out += run.map { $0.intValue ?? .min } }
        return out
    }

    @Test func aShortListOrAnEditAtItsEndsStaysFlat() {
        var list = ValueList((0..<(3 * ValueList.flatMoveLimit)).map { Value.int($0) })
        list.insert(.int(-1), at: 0)
        list.remove(at: list.count - 1)
        list.remove(at: 1)
        list.append(.int(-2))
        list.insert(.int(-3), at: list.count - 10)
        let flat = !list.isChunked; #expect(flat)
        list.remove(at: list.count / 2)
        let chunked = list.isChunked; #expect(chunked, "a delete in the middle that moves more than flatMoveLimit")
    }

    @Test func randomEditsOfALongListMatchAnArray() throws {
        var r = SplitMix64(seed: 9)
        var list = ValueList((0..<20_000).map { Value.int($0) })
        var array = Array(0..<20_000)
        var wasChunked = false
        for step in 0..<40_000 {
            switch r.below(10) {
            case 0, 1, 2:
                let i = r.below(array.count + 1)
                list.insert(.int(step), at: i)
                array.insert(step, at: i)
            case 3, 4, 5, 6 where !array.isEmpty:
                let i = r.below(array.count)
                #expect(list.remove(at: i).intValue == array.remove(at: i))
            case 7:
                list.append(.int(step))
                array.append(step)
            case 8 where !array.isEmpty:
                let i = r.below(array.count)
                list[i] = .int(-step)
                array[i] = -step
                #expect(list[i].intValue == -step)
            default:
                if r.below(500) == 0, array.count > 10 {
                    list.removeSubrange(3..<7)   // a chunked list becomes flat again
                    array.removeSubrange(3..<7)
                }
            }
            wasChunked = wasChunked || list.isChunked
            if step % 4999 == 0 {
                #expect(ints(list) == array, "step \(step)")
                #expect(list.chunks?.isWellFormed ?? true, "step \(step)")
            }
        }
        #expect(wasChunked)
        #expect(list.count == array.count)
        #expect(ints(list) == array)
        #expect(Array(list).map { $0.intValue ?? .min } == array)
        #expect(runs(list) == array)
        for i in stride(from: 0, to: array.count, by: 13) { #expect(list[i].intValue == array[i]) }
        for i in stride(from: array.count - 1, through: 0, by: -29) { #expect(list[i].intValue == array[i]) }
        // Emptied to nothing from the middle, then used again.
        while !array.isEmpty {
            let i = array.count / 2
            #expect(list.remove(at: i).intValue == array.remove(at: i))
            if array.count % 1000 == 0 {
                #expect(list.chunks?.isWellFormed ?? true, "chunks emptied in the middle join their neighbours")
                #expect(ints(list) == array)
            }
        }
        #expect(list.isEmpty && ints(list).isEmpty && runs(list).isEmpty)
        list.insert(.int(7), at: 0)
        list.append(.int(8))
        #expect(ints(list) == [7, 8])
    }

    @Test func aChunkedListIsAValue() {
        var list = ValueList((0..<20_000).map { Value.int($0) })
        list.remove(at: 10_000)
        let chunked = list.isChunked; #expect(chunked)
        let before = ints(list)
        var copy = list
        list.remove(at: 5_000)
        list[0] = .int(-1)
        #expect(ints(copy) == before, "a copy keeps what it had")
        copy.insert(.int(-2), at: 12_000)
        #expect(list[0].intValue == -1 && list.count == before.count - 1)
        #expect(copy[12_000].intValue == -2 && copy.count == before.count + 1)
        // Iterating while the list changes reads what the list had when the loop began, as with an array.
        var seen = 0
        for v in list {
            if seen < 100 { list.remove(at: 9_000) }
            #expect(v.intValue != nil)
            seen += 1
        }
        #expect(seen == before.count - 1)
        #expect(list.count == before.count - 101)
    }

    @Test func aChunkedCollectionFindsReadsAndWritesItsEntities() throws {
        let f = try ShopFixture()
        try f.start(books: (0..<10_000).map { "B\($0)" })
        let books = try f.engine.collection(f.root, "books")
        let flatJSON = JSONWriter.entityJSON(f.root)
        let e = try #require(books.items[5_000].entity)
        // Removing and putting back a book in the middle makes the list chunked with the same elements.
        #expect(try f.engine.remove(.entity(e), from: books, near: 4_990) == 5_000)
        var chunked = books.items.isChunked
        #expect(chunked)
        #expect(books.index(of: e) == nil)
        try f.engine.insert(.entity(e), into: books, at: 5_000)
        chunked = books.items.isChunked
        #expect(chunked)
        #expect(JSONWriter.entityJSON(f.root) == flatJSON, "a store writes the same document")
        for near in [0, 4_000, 5_000, 9_999] { #expect(books.index(of: e, near: near) == 5_000) }
        #expect(try f.engine.get(f.root, "books[5000]/name").displayString == "B5000")
        #expect(try f.engine.get(f.root, "books[-1]/name").displayString == "B9999")
        #expect(try f.engine.get(f.root, "books[10000]/name").isNull)
        #expect(try f.engine.get(f.root, "books/@count").intValue == 10_000)
        try f.engine.remove(at: 7_000, from: books)
        #expect(try f.engine.get(f.root, "books[7000]/name").displayString == "B7001")
    }
}
