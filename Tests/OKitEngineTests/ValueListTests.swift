import Testing
@testable import OKitEngine

/// A collection's elements keep room at the front (issue 16: a front insert moved every element).
@Suite struct ValueListTests {
    @Test func randomEditsMatchAnArray() {
        var r = SplitMix64(seed: 3)
        var list = ValueList()
        var array: [Int] = []
        for step in 0..<5000 {
            switch r.below(6) {
            case 0, 1:
                let i = r.below(3) == 0 ? 0 : r.below(array.count + 1)
                list.insert(.int(step), at: i)
                array.insert(step, at: i)
            case 2 where !array.isEmpty:
                let i = r.below(array.count)
                let v = list.remove(at: i)
                #expect(v.intValue == array.remove(at: i))
            case 3:
                list.append(.int(step))
                array.append(step)
            case 4 where !array.isEmpty:
                let i = r.below(array.count)
                list[i] = .int(-step)
                array[i] = -step
            default:
                if array.count > 3, r.below(20) == 0 {
                    list.removeSubrange(1..<3)
                    array.removeSubrange(1..<3)
                }
            }
            if step % 97 == 0 { #expect(list.map { $0.intValue ?? 0 } == array, "step \(step)") }
        }
        #expect(list.map { $0.intValue ?? 0 } == array)
        #expect(list.count == array.count)
    }

    @Test func frontInsertsKeepRoomAndEntitiesStayTheSame() throws {
        let f = try ShopFixture()
        try f.start(books: ["A"])
        let books = try f.engine.collection(f.root, "books")
        for i in 0..<1000 { try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("B\(i)")])), into: books) }
        #expect(books.count == 1001)
        #expect(books.items[0].entity?["name"]?.displayString == "B999")
        #expect(books.items[1000].entity?["name"]?.displayString == "A")
        #expect(books.items.head > 0, "room kept at the front")
        try f.engine.remove(at: 0, from: books)
        try f.engine.remove(at: 10, from: books)
        #expect(books.items[0].entity?["name"]?.displayString == "B998")
        #expect(books.items.allSatisfy { $0.entity != nil })
    }

    @Test func aListsChunkedOrderMatchesAnArrayThroughSplitsAndEmptiedChunks() {
        var r = SplitMix64(seed: 5)
        var order = ChunkedOrder((0..<Int32(9000)).map { $0 })
        var array = (0..<Int32(9000)).map { $0 }
        for step in 0..<30000 {
            if r.below(3) > 0 || array.isEmpty {
                let i = r.below(4) == 0 ? 0 : r.below(array.count + 1)
                order.insert(Int32(step), at: i)
                array.insert(Int32(step), at: i)
            } else {
                let i = r.below(array.count)
                #expect(order.remove(at: i) == array.remove(at: i))
            }
            if step % 5000 == 0 {
                #expect(Array(order) == array)
                #expect(order.chunks.allSatisfy { !$0.isEmpty && $0.count < 2 * ChunkedOrder.chunk })
            }
        }
        #expect(Array(order) == array)
        #expect(order.count == array.count)
        for i in stride(from: 0, to: array.count, by: 37) { #expect(order[i] == array[i]) }
        #expect(order.positions { $0 % 2 == 0 } == array.indices.filter { array[$0] % 2 == 0 })
        while !array.isEmpty { #expect(order.remove(at: 0) == array.removeFirst()) }
        #expect(order.count == 0)
        order.insert(7, at: 0)
        #expect(Array(order) == [7])
    }
}
