import Foundation
import OKitEngine
import OKitLua

/// The books the path workloads of performance.md take as context, in the order `../shared/bench/peers.lua` walks them:
/// x₀ = 42, x ← (1103515245·x + 12345) mod 2³¹, book number x mod N (0-based; peers.lua's `x % n + 1` in Lua's
/// 1-based tables), the first book the one after the first step.
struct BookSequence {
    /// The generator's state (x).
    var x: UInt64 = 42

    /// The next book number below `books`.
    mutating func next(_ books: Int) -> Int {
        x = (1_103_515_245 &* x &+ 12_345) % 2_147_483_648
        return Int(x % UInt64(books))
    }

    /// The first `count` book numbers of the sequence.
    static func numbers(count: Int, books: Int) -> [Int] {
        var s = BookSequence()
        return (0..<count).map { _ in s.next(books) }
    }
}

extension BenchRunner {
    /// How many evaluations a path workload times per pass: as many as peers.lua walks, 1,000,000, unless
    /// `OKIT_BENCH_PATH_EVALUATIONS` says fewer (the tests of the bench's lines, on a debug build, take 10,000).
    static let pathEvaluations = ProcessInfo.processInfo.environment["OKIT_BENCH_PATH_EVALUATIONS"]
        .flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 1_000_000

    /// `path_eval`: the relative binding `authors[0]/name` evaluated with a book as context, the books of
    /// `BookSequence` over all N books (1,000,000 evaluations, as peers.lua's `table_walk_ns`); ns per
    /// evaluation, best of 3 passes. `oneByOne`: `path_eval_one_by_one`, each evaluation a call of
    /// `Engine.evaluate(_:_:)` on one book (what code that evaluates one context at a time pays: no read-ahead).
    func pathEval(oneByOne: Bool = false) throws -> Double {
        guard let engine else { return 0 }
        let books = try bookList().items.map { $0.entity! }
        return try Self.timeEvaluations(engine, try engine.compile("authors[0]/name"), on: books, oneByOne: oneByOne)
    }

    /// `path_eval_lua_ext`: `name/initial` where `initial` is a Lua extension function (the shop loaded by a Lua
    /// app declaring the same schema), on the same books as `path_eval` (peers.lua's `walk_plus_fn_ns`); ns per
    /// evaluation, best of 3 passes.
    mutating func pathEvalLuaExtension() throws -> Double {
        engine = nil; model = nil; storage = nil
        let appFile = folder.appendingPathComponent("app.lua")
        try BenchShop.luaApp.write(to: appFile, atomically: true, encoding: .utf8)
        var options = LuaAppOptions()
        options.storageKinds = .builtIn
        options.dataFolder = folder
        let app = try LuaApp(options: options)
        try app.load(appFile: appFile)
        guard let root = app.engine.defaultModel?.root else { return 0 }
        let books = try app.engine.collection(root, "books").items.map { $0.entity! }
        return try Self.timeEvaluations(app.engine, try app.engine.compile("name/initial"), on: books)
    }

    /// Evaluates `binding` with the books of `BookSequence` as context, `pathEvaluations` times per pass (the
    /// sequence made before timing, as peers.lua makes its `idx`; no warm-up pass, as peers.lua), through
    /// `Engine.evaluate(_:on:inOrder:)` — the books array and the sequence of places in it, as peers.lua's
    /// `doc.books[idx[k]]`; the best of 3 passes' ns per evaluation.
    static func timeEvaluations(_ engine: Engine, _ binding: Binding, on books: [Entity], oneByOne: Bool = false) throws -> Double {
        let order = BookSequence.numbers(count: pathEvaluations, books: books.count)
        var sink = 0
        var best = Double.infinity
        for _ in 0..<3 {
            let t = BenchRunner.now()
            if oneByOne {
                for k in order {
                    if case .string(let s) = try engine.evaluate(binding, books[k]) { sink &+= s.utf8.count }
                }
            } else {
                try engine.evaluate(binding, on: books, inOrder: order) { _, value in
                    if case .string(let s) = value { sink &+= s.utf8.count }
                }
            }
            best = min(best, Double(BenchRunner.now() - t) / Double(order.count))
        }
        if sink == 42 { print("") }
        return best
    }
}
