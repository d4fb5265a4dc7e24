import ArgumentParser
import OKitEngine

/// The names `--only` takes: every workload `okit-run bench` prints, and the extra figures printed only when named.
extension BenchCommand {
    /// The workloads of the web front end measured in-process (`runWeb`).
    static let webWorkloads = ["serve_page", "serve_page_cached", "serve_push_p99", "serve_rps", "nginx_static_rps",
                               "serve_reget_1000_inprocess"]

    /// Every name `--only` takes, in the order the bench prints them.
    static var workloadNames: [String] {
        ["rss_loaded", "load", "load_parse", "index_build", "path_eval", "path_eval_one_by_one", "invalidate_100",
         "invalidate_10000", "list_open", "list_search", "store", "store_one", "sqlite_load", "sqlite_store",
         "sqlite_store_one"]
            + firstWorkloads + ["load_journal", "path_eval_lua_ext", "startup", "add_one", "delete_one"]
            + webWorkloads + ["serve_push_median", "pg_store_one", "pg_propagate_p99", "pg_propagate_median", "pg_seed"]
            + pgWriterWorkloads.map(\.0)
    }

    /// `--only`'s names, each one the bench knows: a misspelled name would run nothing and print nothing.
    static func checkOnly(_ only: String) throws {
        let known = workloadNames
        for name in only.split(separator: ",", omittingEmptySubsequences: false).map(String.init) where !known.contains(name) {
            let near = NameSuggestion.closest(to: name, in: known).map { " (did you mean \($0)?)" } ?? ""
            let what = name.isEmpty ? "an empty name" : "no workload \"\(name)\""
            throw ValidationError("--only: \(what)\(near); the workloads are \(known.joined(separator: ", "))")
        }
    }
}
