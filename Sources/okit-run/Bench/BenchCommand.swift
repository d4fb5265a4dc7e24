import ArgumentParser
import Foundation
import OKitEngine
import OKitLua

/// `okit-run bench --books N`: the workloads of performance.md, one JSON line each.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run the benchmark workloads on a generated shop and print one JSON line per workload."
    )

    @Option(name: .long, help: "Number of books in the generated shop.")
    var books: Int = 100_000

    @Option(name: .long, help: "Run only these workloads (comma-separated).")
    var only: String?

    func validate() throws {
        guard books >= 100 else { throw ValidationError("--books must be at least 100") }
    }

    func run() throws {
        let selected = only.map { Set($0.split(separator: ",").map(String.init)) }
        func wanted(_ w: String) -> Bool { selected?.contains(w) ?? true }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dataDir = URL(fileURLWithPath: DataFolder(folder).models, isDirectory: true)
        try FileManager.default.createDirectory(at: dataDir, withIntermediateDirectories: true)
        let json = BenchShop.json(books: books)
        try Data(json).write(to: dataDir.appendingPathComponent("default.json"))
        var bench = BenchRunner(folder: folder, books: books)

        // rss_loaded first, before other workloads grow the heap.
        try bench.loadOnce()
        if wanted("rss_loaded") { emit("rss_loaded", BenchRunner.residentMiB(), "MiB") }
        if wanted("load") { emit("load", try bench.load(), "ms") }
        if selected?.contains("load_parse") == true { emit("load_parse", try bench.parseOnly(), "ms") }
        if wanted("index_build") { emit("index_build", try bench.firstLookup(), "ms"); try bench.loadOnce() }
        if wanted("path_eval") { emit("path_eval", try bench.pathEval(), "ns") }
        if wanted("invalidate_100") { emit("invalidate_100", try bench.invalidate(cells: 100), "µs") }
        if wanted("invalidate_10000") { emit("invalidate_10000", try bench.invalidate(cells: 10_000), "µs") }
        if wanted("list_open") { emit("list_open", try bench.listOpen(), "ms") }
        if wanted("list_search") { emit("list_search", try bench.listSearch(), "ms") }
        if wanted("store") { emit("store", try bench.storeAll(), "ms") }
        if wanted("store_one") { emit("store_one", try bench.storeOne(), "ms") }
        if wanted("path_eval_lua_ext") { emit("path_eval_lua_ext", try bench.pathEvalLuaExtension(), "ns") }
        if wanted("startup") { emit("startup", try bench.startup(), "ms") }
    }

    func emit(_ workload: String, _ value: Double, _ unit: String) {
        let v = (value * 1000).rounded() / 1000
        let line = "{\"workload\":\"\(workload)\",\"value\":\(v),\"unit\":\"\(unit)\"}\n"
        StandardStreams.output(line)
    }
}
