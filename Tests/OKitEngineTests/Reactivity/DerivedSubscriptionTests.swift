import Testing
@testable import OKitEngine

/// An evaluation that reads another subscription's cached value depends on that subscription
/// (`DependencyKey.derived`): it goes stale when the inner one does, also when the inner value came from its
/// cache and nothing was read again.
@Suite struct DerivedSubscriptionTests {
    @Test func anOuterEvaluationGoesStaleWithTheInnerOneItRead() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        let books = try f.engine.collection(f.shop.root, "books")
        let dune = try #require(books.items.first?.entity)
        let emma = try #require(books.items.last?.entity)
        let inner = try f.engine.subscribe(dune, "name")
        _ = inner.value
        var outerStale = 0
        let outer = f.engine.graph.subscribe({ inner.value }, onStale: { _ in outerStale += 1 })
        #expect(outer.value.displayString == "Dune")
        #expect(outer.dependencies.count == 1)                // the inner subscription, not what it read
        try f.engine.set(emma, "name", .string("Emma W"))
        #expect(outerStale == 0 && !outer.isStale)
        try f.engine.set(dune, "name", .string("Dune Messiah"))
        #expect(outerStale == 1 && outer.isStale)
        #expect(outer.value.displayString == "Dune Messiah")
        try f.engine.set(dune, "name", .string("Dune II"))  // read again: told again
        #expect(outerStale == 2)
    }

    /// The edge lives on the inner subscription (`derivedReaders`): a cancelled outer one leaves it, and the inner
    /// one going stale then tells nobody; an outer one that stops reading the inner one leaves it too.
    @Test func aCancelledOrChangedOuterEvaluationLeavesTheInnerOne() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        let books = try f.engine.collection(f.shop.root, "books")
        let dune = try #require(books.items.first?.entity)
        let inner = try f.engine.subscribe(dune, "name")
        _ = inner.value
        let edges = f.engine.graph.edgeCount
        var outerStale = 0
        let outer = f.engine.graph.subscribe({ inner.value }, onStale: { _ in outerStale += 1 })
        #expect(inner.derivedReaders.count == 1 && f.engine.graph.edgeCount == edges + 1)
        outer.cancel()
        #expect(inner.derivedReaders.isEmpty && f.engine.graph.edgeCount == edges)
        try f.engine.set(dune, "name", .string("Dune Messiah"))
        #expect(outerStale == 0)

        var readInner = true
        let other = f.engine.graph.subscribe({ readInner ? inner.value : .null }, onStale: { _ in outerStale += 1 })
        #expect(inner.derivedReaders.count == 1)
        readInner = false
        try f.engine.set(dune, "name", .string("Dune II"))
        #expect(outerStale == 1)
        _ = other.value                                      // now reads nothing: the edge goes
        #expect(inner.derivedReaders.isEmpty)
        try f.engine.set(dune, "name", .string("Dune III"))
        #expect(outerStale == 1)
        other.cancel()
    }

    /// Up to two keys read are kept inline, more in a list; staleness and edges follow each form, and a piece added
    /// later (`extend`) moves them to the list.
    @Test func oneTwoAndThreeReadsEachMakeTheSubscriptionStale() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma", "Anna"])
        let books = try (0..<3).map { try f.book($0) }
        for n in 1...3 {
            var stale = 0
            let s = f.engine.graph.subscribe({
                var out = ""
                for b in books.prefix(n) { out += (try? f.engine.get(b, "name"))?.displayString ?? "" }
                return .string(out)
            }, onStale: { _ in stale += 1 })
            #expect(s.dependencies.count == n && s.reads.count == n)
            #expect(n > 2 ? s.read0 == nil && s.manyReads.count == n : s.read0 != nil && s.manyReads.isEmpty)
            try f.engine.set(books[n - 1], "name", .string("Renamed \(n)"))
            #expect(stale == 1, "\(n) reads: the last one read changed")
            _ = s.value
            #expect(s.dependencies.count == n, "read again: the same keys")
            s.cancel()
        }
        let edges = f.engine.graph.edgeCount
        let s = f.engine.graph.subscribe({ try f.engine.get(books[0], "name") })
        try f.engine.graph.extend(s, piece: nil) { _ in _ = try f.engine.get(books[1], "name"); _ = try f.engine.get(books[2], "name") }
        #expect(s.dependencies.count == 3 && s.manyReads.count == 3 && f.engine.graph.edgeCount == edges + 3)
        s.cancel()
        #expect(f.engine.graph.edgeCount == edges && s.readsNothing)
    }

    /// A subscription made inside another evaluation that read nothing never goes stale: the outer evaluation does
    /// not depend on it (an edge would only keep it alive). A detail screen's constant section made the outer
    /// snapshot's reads change at the first change that reached the screen (a detach and a free, cold in memory).
    @Test func anInnerSubscriptionThatReadNothingIsNotADependency() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        let dune = f.book(0)
        let g = f.engine.graph
        var constant: Subscription?
        var reading: Subscription?
        let outer = g.subscribe({
            constant = g.subscribe({ .int(1) })
            reading = g.subscribe({ try f.engine.read(dune, "name") })
            return .null
        })
        let deps = outer.dependencies
        #expect(deps.count == 1)
        if case .derived(let d)? = deps.first { #expect(d === reading) } else { Issue.record("no derived edge: \(deps)") }
        #expect(constant?.readsNothing == true)

        var declaration = DetailDeclaration(id: "book")
        declaration.titlePath = "name"
        declaration.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "table", properties: ["path": "name", "detailPath": "price"])])]
        let screen = try DetailScreen(engine: f.engine, declaration: declaration, context: dune)
        let snapshot = g.subscribe({ _ = try screen.snapshot(); return .null })
        let before = snapshot.dependencies.count
        #expect(before == 2, "the title bar and the cell; the constant section is no dependency")
        try f.engine.set(dune, "name", .string("Dune Messiah"))
        let edges = g.edgeCount
        _ = snapshot.value
        #expect(snapshot.dependencies.count == before)
        #expect(g.edgeCount == edges)
        #expect(try screen.snapshot().title == "Dune Messiah")
    }
}
