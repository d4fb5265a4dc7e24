import Foundation
import Testing
import OKitTestSupport
@testable import okit_run

/// `okit-run bench`'s lines (quality.md, third edition): every figure says how it was taken, and the figures of a
/// fresh process and of a journaled model are there. Run on a tiny shop; no duration is asserted, only that each
/// workload printed a positive value and its kind.
@Suite struct BenchWorkloadTests {
    /// One printed line's members.
    struct Line {
        let workload: String
        let value: Double
        let kind: String
        let object: [String: Any]
    }

    /// `okit-run bench --books 200 --only WORKLOADS`, its lines by workload (the path workloads 10,000 evaluations a
    /// pass, not a million: `OKIT_BENCH_PATH_EVALUATIONS`).
    static func bench(_ workloads: [String]) throws -> [String: Line] {
        try #require(OKitRun.isBuilt)
        let r = try OKitRun.run(["bench", "--books", "200", "--only", workloads.joined(separator: ",")],
                                environment: ["OKIT_BENCH_PATH_EVALUATIONS": "10000"], timeout: 600)
        #expect(r.code == 0, "bench failed: \(r.err)")
        var lines: [String: Line] = [:]
        for text in r.out.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
            let w = try #require(object["workload"] as? String)
            let v = try #require((object["value"] as? NSNumber)?.doubleValue)
            lines[w] = Line(workload: w, value: v, kind: object["kind"] as? String ?? "", object: object)
        }
        return lines
    }

    @Test func theFreshProcessFiguresPrintTheirFirstValues() throws {
        let workloads = ["load_cold", "list_open_first", "list_search_first", "rss_peak", "load_journal"]
        let lines = try Self.bench(workloads)
        for w in workloads {
            let line = try #require(lines[w], "no line for \(w)")
            #expect(line.value > 0, "\(w): \(line.object)")
            #expect(line.kind == "first", "\(w): \(line.object)")
            #expect(line.object["error"] == nil, "\(w): \(line.object)")
            #expect(line.object["runs"] as? Int == 3, "\(w): \(line.object)")
        }
        // The journal holds records made by real stores (as many as a 200-book shop's file allows).
        #expect((lines["load_journal"]?.object["records"] as? Int ?? 0) > 0)
    }

    @Test func everyLineSaysWhichKindOfFigureItIs() throws {
        let kinds = ["load": "best_of_5", "path_eval": "best_of_3", "path_eval_lua_ext": "best_of_3",
                     "list_open": "best_of_3", "list_search": "mean_of_26", "store_one": "median_of_21",
                     "index_build": "first", "rss_loaded": "first"]
        let lines = try Self.bench(Array(kinds.keys))
        for (w, kind) in kinds {
            let line = try #require(lines[w], "no line for \(w)")
            #expect(line.value > 0, "\(w): \(line.object)")
            #expect(line.kind == kind, "\(w): \(line.object)")
        }
    }

    /// A name `--only` does not know is refused before anything runs, with the nearest one: it ran nothing and
    /// printed nothing, and a person took that for a bench that had nothing to say.
    @Test func aMisspelledWorkloadIsRefusedWithTheNearestName() throws {
        try #require(OKitRun.isBuilt)
        let r = try OKitRun.run(["bench", "--books", "200", "--only", "load,path_evl"])
        #expect(r.code == 2, "\(r.out) \(r.err)")
        #expect(r.out.isEmpty, "nothing ran: \(r.out)")
        #expect(r.err.contains("--only: no workload \"path_evl\" (did you mean path_eval?); the workloads are rss_loaded, load,"), "\(r.err)")
        let empty = try OKitRun.run(["bench", "--books", "200", "--only", "load,,store"])
        #expect(empty.code == 2 && empty.err.contains("--only: an empty name"), "\(empty.err)")
        // Every name a line can carry is one --only takes, the numbered PostgreSQL ones too.
        for name in ["load_cold", "rss_peak", "load_journal", "serve_reget_1000_inprocess", "pg_stores_per_s_8",
                     "pg_update_per_s_1", "pg_propagate_p99_8", "pg_join_rss_peak", "serve_push_median"] {
            #expect(BenchCommand.workloadNames.contains(name), "\(name)")
        }
        #expect(throws: Never.self) { try BenchCommand.checkOnly("load,store,path_eval_lua_ext") }
    }
}
