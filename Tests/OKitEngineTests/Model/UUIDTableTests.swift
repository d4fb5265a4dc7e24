import Testing
@testable import OKitEngine

/// The id index's flat table (`UUIDTable`) against a dictionary: adds, bulk adds, replacements and removals in
/// random order, with a small table so that probes run long and removals shift runs back across the wrap.
@Suite struct UUIDTableTests {
    func entity() -> Entity { Entity(type: EntityType(name: "T", hasId: true)) }

    @Test func randomOperationsAgreeWithADictionary() {
        var rng = SplitMix64(seed: 7)
        let table = UUIDTable()
        var model: [UInt64: Entity] = [:]
        // Few distinct high halves and low halves: many ids share buckets' neighbourhoods.
        func key() -> (UInt64, UInt64) { (rng.next() % 64, rng.next() % 8) }
        for round in 0..<20_000 {
            let (hi, lo) = key()
            let k = hi << 8 | lo
            switch rng.below(4) {
            case 0, 1:
                let e = entity()
                let existing = table.insertIfAbsent(hi, lo, e)
                #expect(existing === model[k], "round \(round)")
                if model[k] == nil { model[k] = e }
            case 2:
                table.remove(hi, lo)
                model[k] = nil
            default:
                let e = entity()
                table.replace(hi, lo, with: e)
                model[k] = e
            }
            if round % 97 == 0 {
                #expect(table.count == model.count)
                for h in 0..<UInt64(64) { for l in 0..<UInt64(8) { #expect(table.find(h, l) === model[h << 8 | l]) } }
            }
        }
    }

    @Test func aBulkAddKeepsTheFirstAndReturnsTheOthers() {
        let table = UUIDTable()
        let kept = entity()
        #expect(table.insertIfAbsent(1, 1, kept) == nil)
        var entries: [UUIDTable.Entry] = []
        var made: [Entity] = []
        for i in 0..<50_000 {
            let e = entity()
            made.append(e)
            entries.append(UUIDTable.Entry(hi: UInt64(i) &* 0x9E37_79B9, lo: UInt64(i % 3), entity: .passRetained(e)))
        }
        let twin = entity()
        entries.append(UUIDTable.Entry(hi: 1, lo: 1, entity: .passRetained(twin)))
        entries.append(UUIDTable.Entry(hi: 1, lo: 1, entity: .passRetained(kept)))   // already there: kept once
        table.reserve(table.count + entries.count)
        let dropped = entries.compactMap { table.insertReserved($0.hi, $0.lo, $0.entity) }
        #expect(dropped.count == 1 && dropped[0] === twin)
        #expect(table.count == 50_001)
        #expect(table.find(1, 1) === kept)
        for i in stride(from: 0, to: 50_000, by: 997) {
            #expect(table.find(UInt64(i) &* 0x9E37_79B9, UInt64(i % 3)) === made[i])
        }
        #expect(table.find(2, 2) == nil)
    }

    @Test func theTableHoldsItsEntities() {
        let table = UUIDTable()
        weak var gone: Entity?
        do {
            let e = entity()
            gone = e
            _ = table.insertIfAbsent(5, 5, e)
        }
        #expect(gone != nil, "held by the table")
        table.remove(5, 5)
        #expect(gone == nil, "released when removed")
    }
}
