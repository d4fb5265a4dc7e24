import Foundation
import Testing
@testable import OKitEngine

@Suite struct DependencyTrackingTests {
    @Test func aWriteMakesStaleExactlyTheBindingsThatReadIt() throws {
        let f = try ShopFixture()
        try f.start()
        var notified: [String] = []
        let s0 = try f.engine.subscribe(f.book(0), "name") { _ in notified.append("b0") }
        let s1 = try f.engine.subscribe(f.book(1), "name") { _ in notified.append("b1") }
        let s2 = try f.engine.subscribe(f.book(0), "price") { _ in notified.append("p0") }
        #expect(s0.value.description == "Dune")
        try f.engine.set(f.book(0), "name", .string("Dune Messiah"))
        #expect(notified == ["b0"])
        #expect(s0.isStale && !s1.isStale && !s2.isStale)
        #expect(s0.value.description == "Dune Messiah")
        #expect(s0.evaluationCount == 2 && s1.evaluationCount == 1 && s2.evaluationCount == 1)
        _ = s0.value
        #expect(s0.evaluationCount == 2, "re-evaluation is lazy and happens once")
    }

    /// An entity's readers — the first inline, the others in a list the write reads ahead (`warmReaders`) — are
    /// reached by a write of the field they read and only by it, also after some are cancelled.
    @Test func aWriteReachesEveryReaderOfTheFieldWhereverItIsKept() throws {
        let f = try ShopFixture()
        try f.start()
        let book = f.book(0)
        let names = try (0..<6).map { _ in try f.engine.subscribe(book, "name") }
        let prices = try (0..<3).map { _ in try f.engine.subscribe(book, "price") }
        try f.engine.set(book, "name", .string("Dune Messiah"))
        #expect(names.allSatisfy { $0.isStale } && !prices.contains { $0.isStale })
        for s in names { _ = s.value }
        names[0].cancel()
        names[3].cancel()
        try f.engine.set(book, "name", .string("Dune II"))
        #expect(!names[0].isStale && !names[3].isStale)
        #expect([1, 2, 4, 5].allSatisfy { names[$0].isStale })
        try f.engine.set(book, "price", .double(2))
        #expect(prices.allSatisfy { $0.isStale })
    }

    @Test func aTransactionNotifiesOnceAfterAllWrites() throws {
        let f = try ShopFixture()
        try f.start()
        var seen: [String] = []
        let s = try f.engine.subscribe(f.book(0), "%Price: ,price, %for ,name") { sub in seen.append(sub.value.description) }
        try f.engine.transaction {
            try f.engine.set(f.book(0), "price", .double(1))
            try f.engine.set(f.book(0), "name", .string("X"))
            #expect(seen.isEmpty, "no notification inside the transaction")
        }
        #expect(seen == ["Price: 1 for X"], "one notification, and it sees the whole transaction")
        #expect(s.evaluationCount == 2)
    }

    @Test func readsThroughRefsAreTracked() throws {
        let f = try ShopFixture()
        try f.start()
        let a = try f.engine.make("Author", ["name": .string("Herbert")])
        let b = try f.engine.make("Author", ["name": .string("Asimov")])
        for x in [a, b] { try f.engine.insert(.entity(x), into: f.engine.collection(f.directory.root, "authors")) }
        try f.engine.set(f.book(0), "author", .entity(a))
        let s = try f.engine.subscribe(f.book(0), "author/ref/name")
        #expect(s.value.description == "Herbert")
        try f.engine.set(b, "name", .string("Isaac"))
        #expect(!s.isStale, "another author's name is not read")
        try f.engine.set(a, "name", .string("Frank"))
        #expect(s.isStale)
        #expect(s.value.description == "Frank")
        try f.engine.set(f.book(0), "author", .entity(b))
        #expect(s.isStale)
        #expect(s.value.description == "Isaac")
        try f.engine.remove(.entity(b), from: f.engine.collection(f.directory.root, "authors"))
        #expect(s.isStale, "the id the ref resolved is gone")
        #expect(s.value.isNull)
        try f.engine.insert(.entity(b), into: f.engine.collection(f.directory.root, "authors"))
        #expect(s.isStale, "the id is back")
        #expect(s.value.description == "Isaac")
    }

    @Test func aggregatesTrackMembershipAndTheMappedField() throws {
        let f = try ShopFixture()
        try f.start()
        let count = try f.engine.subscribe(f.root, "books.@count")
        let sum = try f.engine.subscribe(f.root, "books.@sum.copies")
        try f.engine.set(f.book(0), "name", .string("X"))
        #expect(!count.isStale && !sum.isStale)
        try f.engine.set(f.book(2), "copies", .int(10))
        #expect(!count.isStale && sum.isStale)
        #expect(sum.value.isSame(as: .int(13)))
        try f.engine.insert(.entity(f.engine.make("Book", ["copies": .int(1)])), into: f.engine.collection(f.root, "books"))
        #expect(count.isStale && sum.isStale)
        #expect(count.value.isSame(as: .int(4)) && sum.value.isSame(as: .int(14)))
        try f.engine.move(in: f.engine.collection(f.root, "books"), from: 0, to: 1)
        #expect(count.isStale, "order is part of membership")
    }

    @Test func computedFieldsAndExtensionsAreTrackedThroughTheirReads() throws {
        let f = try ShopFixture()
        try f.start()
        var calls = 0
        f.engine.extensions.register("Book", "shortName") { v, _, e in
            calls += 1
            return .string(String((try e.read(v.entity!, "name").displayString ?? "").prefix(2)))
        }
        let computed = try f.engine.subscribe(f.book(0), "formatMarked")
        let ext = try f.engine.subscribe(f.book(0), "shortName")
        #expect(ext.value.description == "Du" && calls == 1)
        try f.engine.set(f.book(0), "price", .double(3))
        #expect(!computed.isStale && !ext.isStale)
        #expect(calls == 1)
        try f.engine.set(f.book(0), "marked", .bool(true))
        #expect(computed.isStale && !ext.isStale)
        #expect(computed.value.description == "marked")
        try f.engine.set(f.book(0), "name", .string("Emma"))
        #expect(ext.isStale)
        #expect(ext.value.description == "Em" && calls == 2)
    }

    @Test func costFollowsTheAffectedBindings() throws {
        let f = try ShopFixture()
        try f.start(books: (0..<2000).map { "Book \($0)" })
        var subs: [Subscription] = []
        var notified = 0
        for i in 0..<2000 {
            subs.append(try f.engine.subscribe(f.book(i), "name") { _ in notified += 1 })
            subs.append(try f.engine.subscribe(f.book(i), "=price * copies") { _ in notified += 1 })
        }
        try f.engine.set(f.book(1234), "name", .string("changed"))
        #expect(notified == 1)
        let stale = subs.filter { $0.isStale }
        #expect(stale.count == 1 && stale[0] === subs[2468])
        let before = subs.reduce(0) { $0 + $1.evaluationCount }
        for s in subs { _ = s.value }
        #expect(subs.reduce(0) { $0 + $1.evaluationCount } == before + 1)
    }

    @Test func rollbackRestoresValuesAndDependentsSeeThem() throws {
        let f = try ShopFixture()
        try f.start()
        let s = try f.engine.subscribe(f.book(0), "name")
        let count = try f.engine.subscribe(f.root, "books.@count")
        #expect(throws: FixtureError.self) {
            try f.engine.transaction {
                try f.engine.set(f.book(0), "name", .string("temp"))
                try f.engine.insert(.entity(f.engine.make("Book")), into: f.engine.collection(f.root, "books"))
                throw FixtureError.boom
            }
        }
        #expect(f.book(0)["name"]!.description == "Dune")
        #expect(s.value.description == "Dune")
        #expect(count.value.isSame(as: .int(3)))
        #expect(try f.engine.collection(f.root, "books").count == 3)
    }

    @Test func nestedTransactionsJoinTheOuterOne() throws {
        let f = try ShopFixture()
        try f.start()
        var notified = 0
        _ = try f.engine.subscribe(f.book(0), "name") { _ in notified += 1 }
        try f.engine.transaction {
            try f.engine.transaction { try f.engine.set(f.book(0), "name", .string("a")) }
            #expect(notified == 0)
            try f.engine.set(f.book(0), "name", .string("b"))
        }
        #expect(notified == 1)
    }

    @Test func cancelledSubscriptionsStopTracking() throws {
        let f = try ShopFixture()
        try f.start()
        let s = try f.engine.subscribe(f.book(0), "name")
        let edges = f.engine.graph.edgeCount
        s.cancel()
        #expect(f.engine.graph.edgeCount == edges - 1)
        try f.engine.set(f.book(0), "name", .string("x"))
        #expect(!s.isStale)
    }

    @Test func localeAndClockChangesReachTheirReaders() throws {
        let f = try ShopFixture()
        try f.start()
        let loc = try f.engine.subscribe(nil, "%Book")
        let plain = try f.engine.subscribe(f.book(0), "name")
        f.engine.locale = AppLocale(language: "de")
        #expect(loc.isStale && !plain.isStale)
    }
}
