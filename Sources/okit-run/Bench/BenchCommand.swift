import ArgumentParser
import Foundation
import OKitEngine
import OKitLua
import OKitWeb

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

    /// The bench started as its own child (`FreshProcessBench`): `firsts:FOLDER` or `journal:FOLDER`.
    @Option(name: .long, help: ArgumentHelp("Measure a fresh process's first figures on a prepared data folder.", visibility: .hidden))
    var freshProcess: String?

    func validate() throws {
        guard books >= 100 else { throw ValidationError("--books must be at least 100") }
        if let only, freshProcess == nil { try Self.checkOnly(only) }
    }

    func run() throws {
        if let freshProcess {
            if freshProcess.hasPrefix("pg-"), try PostgresWritersBench.child(freshProcess, books: books) {
                // As okit-run ends a session (RunApp): the memory goes back whole, the model is not released entity
                // by entity while the other children still store.
                Foundation.exit(0)
            }
            return try runFreshProcess(freshProcess)
        }
        let selected = only.map { Set($0.split(separator: ",").map(String.init)) }
        func wanted(_ w: String) -> Bool { selected?.contains(w) ?? true }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dataDir = URL(fileURLWithPath: DataFolder(folder).models, isDirectory: true)
        try FileManager.default.createDirectory(at: dataDir, withIntermediateDirectories: true)
        // The generated shop is kept as a file, not in memory: its bytes (27 MB at 100,000 books) counted in
        // `rss_loaded` as if the loaded model held them.
        let shopFile = folder.appendingPathComponent("shop.json")
        do {
            let json = Data(BenchShop.json(books: books))
            try json.write(to: shopFile)
            try json.write(to: dataDir.appendingPathComponent("default.json"))
        }
        var bench = BenchRunner(folder: folder, books: books)

        // rss_loaded first, before other workloads grow the heap.
        try bench.loadOnce()
        if wanted("rss_loaded") { emit("rss_loaded", BenchRunner.residentMiB(), "MiB", kind: "first") }
        if wanted("load") { emit("load", try bench.load(), "ms", kind: "best_of_5") }
        if selected?.contains("load_parse") == true { emit("load_parse", try bench.parseOnly(), "ms", kind: "best_of_5") }
        if wanted("index_build") { emit("index_build", try bench.firstLookup(), "ms", kind: "first"); try bench.loadOnce() }
        if wanted("path_eval") { emit("path_eval", try bench.pathEval(), "ns", kind: "best_of_3") }
        if wanted("path_eval_one_by_one") { emit("path_eval_one_by_one", try bench.pathEval(oneByOne: true), "ns", kind: "best_of_3") }
        if wanted("invalidate_100") { emit("invalidate_100", try bench.invalidate(cells: 100), "µs", kind: "best_of_3") }
        if wanted("invalidate_10000") { emit("invalidate_10000", try bench.invalidate(cells: 10_000), "µs", kind: "best_of_3") }
        if wanted("list_open") { emit("list_open", try bench.listOpen(), "ms", kind: "best_of_3") }
        if wanted("list_search") { emit("list_search", try bench.listSearch(), "ms", kind: "mean_of_26") }
        if wanted("store") { emit("store", try bench.storeAll(), "ms", kind: "best_of_3") }
        if wanted("store_one") { emit("store_one", try bench.storeOne(), "ms", kind: "median_of_21") }
        let sqliteWorkloads = ["sqlite_load", "sqlite_store", "sqlite_store_one"]
        if sqliteWorkloads.contains(where: wanted) {
            // One shop in memory at a time (1,000,000 books twice would be the memory of both).
            bench.engine = nil; bench.model = nil; bench.storage = nil
            let sqlite = try SQLiteBench(source: dataDir.appendingPathComponent("default.json"),
                                         folder: folder.appendingPathComponent("sqlite"))
            if wanted("sqlite_load") { emit("sqlite_load", try sqlite.load(), "ms", kind: "best_of_5") }
            if wanted("sqlite_store") { emit("sqlite_store", try sqlite.storeAll(), "ms", kind: "best_of_3") }
            if wanted("sqlite_store_one") { emit("sqlite_store_one", try sqlite.storeOne(), "ms", kind: "median_of_21") }
            sqlite.close()
        }
        if Self.firstWorkloads.contains(where: wanted) || wanted("load_journal") {
            // The fresh processes hold the shop themselves; the journal's maker loads one of its own.
            bench.engine = nil; bench.model = nil; bench.storage = nil
            runFreshProcesses(json: [UInt8](try Data(contentsOf: shopFile)), folder: folder, wanted: wanted)
        }
        if wanted("path_eval_lua_ext") { emit("path_eval_lua_ext", try bench.pathEvalLuaExtension(), "ns", kind: "best_of_3") }
        if wanted("startup") { emit("startup", try bench.startup(), "ms", kind: "median_of_7") }
        if wanted("add_one") || wanted("delete_one") {
            bench.engine = nil; bench.model = nil; bench.storage = nil
            let adds = try AddBench(folder: folder)
            if wanted("add_one") { emit("add_one", try adds.addOne(rounds: 1000), "ms", kind: "mean_of_1000") }
            if wanted("delete_one") { emit("delete_one", try adds.deleteOne(rounds: 1000), "ms", kind: "mean_of_1000") }
        }
        if Self.webWorkloads.contains(where: wanted) {
            bench.engine = nil; bench.model = nil; bench.storage = nil
            runWeb(folder: folder, wanted: wanted)
        }
        if (["pg_store_one", "pg_propagate_p99"] + Self.pgWriterWorkloads.map(\.0)).contains(where: wanted) {
            bench.engine = nil; bench.model = nil; bench.storage = nil
            runPostgres(folder: folder, wanted: wanted)
        }
    }

    /// The shared-model workloads (PostgresBench) on the database `OKIT_BENCH_DATABASE_URL` names; without one
    /// (PostgreSQL not installed) they print their lines with value 0 and why they did not run.
    func runPostgres(folder: URL, wanted: (String) -> Bool) {
        let lines = ([("pg_store_one", "ms"), ("pg_propagate_p99", "ms")] + Self.pgWriterWorkloads).filter { wanted($0.0) }
        guard let url = ProcessInfo.processInfo.environment["OKIT_BENCH_DATABASE_URL"], !url.isEmpty else {
            for (w, unit) in lines {
                emitFailure(w, unit, "not run: no PostgreSQL (OKIT_BENCH_DATABASE_URL is not set; scripts/bench sets it when PostgreSQL is installed)")
            }
            return
        }
        guard books <= 200_000 else {
            // The shop is seeded into the database one statement per row (about 33 s per 100,000 books here):
            // at 1,000,000 books that alone would take several minutes of every run.
            for (w, unit) in lines {
                emitFailure(w, unit, "not run above 200,000 books: seeding the database with the shop writes one statement per row (minutes at this size)")
            }
            return
        }
        let pg: PostgresBench
        do { pg = try PostgresBench(url: url, books: books, folder: folder.appendingPathComponent("pg")) } catch {
            for (w, unit) in lines { emitFailure(w, unit, "the shop could not be kept in PostgreSQL: \(error)") }
            return
        }
        defer { pg.close() }
        if only?.contains("pg_seed") == true { emit("pg_seed", pg.seedMs, "ms", kind: "first") }
        if wanted("pg_store_one") {
            do { emit("pg_store_one", try pg.storeOne(), "ms", kind: "median_of_101") } catch { emitFailure("pg_store_one", "ms", "\(error)") }
        }
        if wanted("pg_propagate_p99") {
            do {
                let r = try pg.propagate(rounds: 200)
                emit("pg_propagate_p99", r.p99, "ms", kind: "p99_of_200")
                if only?.contains("pg_propagate_median") == true {
                    emit("pg_propagate_median", r.median, "ms", kind: "median_of_200")
                    emit("pg_propagate_event_median", r.eventMedian, "ms", kind: "median_of_200")
                }
            } catch { emitFailure("pg_propagate_p99", "ms", "\(error)") }
        }
        runPostgresWriters(folder: folder.appendingPathComponent("pg"), wanted: wanted)
    }

    /// The web workloads (WebBench); one that fails prints its line with value 0 and an `error` field.
    func runWeb(folder: URL, wanted: (String) -> Bool) {
        let app: WebBench
        do { app = try WebBench(folder: folder) } catch {
            for (w, unit) in [("serve_page", "ms"), ("serve_push_p99", "ms"), ("serve_rps", "1/s"), ("nginx_static_rps", "1/s")] where wanted(w) {
                emitFailure(w, unit, "the bench app did not load: \(error)")
            }
            return
        }
        if wanted("serve_page") || wanted("serve_page_cached") {
            switch Blocking.wait({ try await app.servePage(rounds: 60) }) {
            case .success(let r):
                if wanted("serve_page") { emit("serve_page", r.page, "ms", kind: "median_of_60") }
                // Only with --only: the same GET with no write before it (the snapshot cached), and the page size.
                if only?.contains("serve_page_cached") == true {
                    emit("serve_page_cached", r.cached, "ms", kind: "median_of_60")
                    emit("serve_page_bytes", Double(r.bytes), "B", kind: "first")
                }
            case .failure(let e): emitFailure("serve_page", "ms", "\(e)")
            }
        }
        // Only with --only: the server's own time for 1,000 viewers' re-GETs after a write (WebBench+Reget).
        if only?.contains("serve_reget_1000_inprocess") == true {
            switch Blocking.wait({ try await app.regetInProcess() }) {
            case .success(let r):
                emit("serve_reget_1000_inprocess", r.totalMs, "ms", kind: "median_of_5")
                emit("serve_reget_per_viewer_inprocess", r.perViewerUs, "us", kind: "median_of_5")
            case .failure(let e): emitFailure("serve_reget_1000_inprocess", "ms", "\(e)")
            }
        }
        // The viewers share the list's rows (one keeper per list): every size runs.
        if wanted("serve_push_p99") {
            let rounds = books > 20_000 ? 3 : 20
            switch Blocking.wait({ try await app.servePush(rounds: rounds) }) {
            case .success(let r):
                // Each round's write reaches 100 sessions: 100 latencies a round.
                emit("serve_push_p99", r.p99, "ms", kind: "p99_of_\(rounds * 100)")
                if only?.contains("serve_push_median") == true {
                    emit("serve_push_median", r.median, "ms", kind: "median_of_\(rounds * 100)")
                }
            case .failure(let e): emitFailure("serve_push_p99", "ms", "\(e)")
            }
        }
        var page: [UInt8]?
        if wanted("serve_rps") || wanted("nginx_static_rps") {
            do {
                let r = try app.serveRPS(seconds: wanted("serve_rps") ? 5 : 1)
                page = r.page
                if wanted("serve_rps") { emit("serve_rps", r.rps, "1/s", kind: "mean_over_5s") }
            } catch { if wanted("serve_rps") { emitFailure("serve_rps", "1/s", "\(error)") } }
        }
        if wanted("nginx_static_rps") {
            do {
                guard let page else { throw BenchError("no page to serve: the okit server did not answer") }
                emit("nginx_static_rps", try WebBench.nginxRPS(page: page, folder: folder, seconds: 5), "1/s", kind: "mean_over_5s")
            } catch { emitFailure("nginx_static_rps", "1/s", "\(error)") }
        }
    }

    /// Prints one figure's line. `kind` says how it was taken (performance.md, "How each figure is measured"): `first` (the first
    /// time, once), `best_of_N`, `median_of_N`, `mean_of_N`, `p99_of_N` (over N repeats), `mean_over_5s`
    /// (a rate); `extra` adds members (already JSON) after it.
    func emit(_ workload: String, _ value: Double, _ unit: String, kind: String, extra: String = "") {
        let v = (value * 1000).rounded() / 1000
        let line = "{\"workload\":\"\(workload)\",\"value\":\(v),\"unit\":\"\(unit)\",\"kind\":\"\(kind)\"\(extra)}\n"
        StandardStreams.output(line)
    }

    /// A workload that could not run: value 0, kind `not_run`, and why.
    func emitFailure(_ workload: String, _ unit: String, _ error: String) {
        let line = "{\"workload\":\"\(workload)\",\"value\":0,\"unit\":\"\(unit)\",\"kind\":\"not_run\",\"error\":\(jsonString(error))}\n"
        StandardStreams.output(line)
    }

    func jsonString(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
