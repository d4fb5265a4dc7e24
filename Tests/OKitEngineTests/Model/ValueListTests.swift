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

    /// The first front insert into an array filled by appends moves the elements into the room at its back,
    /// in place (a 1,000,000-book list's first add allocated 24 MB); without such room it allocates.
    @Test func aFrontInsertUsesTheRoomAtTheBackInPlace() {
        var list = ValueList()
        list.reserveCapacity(1200)
        for i in 0..<1000 { list.append(.int(i)) }
        let capacity = list.storage.capacity
        list.insert(.int(-1), at: 0)
        #expect(list.storage.capacity == capacity, "no new buffer")
        #expect(list.head == capacity - 1001)
        list.insert(.int(-2), at: 0)
        list.insert(.int(-3), at: 2)
        #expect(list.map { $0.intValue ?? 0 } == [-2, -1, -3] + Array(0..<1000))
        var full = ValueList((0..<64).map { Value.int($0) })
        full.append(contentsOf: (0..<(full.storage.capacity - full.count)).map { _ in Value.int(99) })
        full.insert(.int(-1), at: 0)
        #expect(full.head >= 8 && full.first?.intValue == -1 && full[1].intValue == 0)
        #expect(full.count == full.storage.count - full.head)
    }

    @Test func anEntityIsFoundOutwardFromWhereItWas() throws {
        let f = try ShopFixture()
        try f.start(books: (0..<50).map { "B\($0)" })
        let books = try f.engine.collection(f.root, "books")
        let e = try #require(books.items[17].entity)
        for near in [-5, 0, 16, 17, 18, 49, 1000] { #expect(books.index(of: e, near: near) == 17) }
        let stranger = try f.engine.make("Book", ["name": .string("X")])
        #expect(books.index(of: stranger, near: 3) == nil)
        #expect(try f.engine.remove(.entity(e), from: books, near: 40) == 17)
        #expect(books.index(of: e) == nil)
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
