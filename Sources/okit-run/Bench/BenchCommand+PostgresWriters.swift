import Foundation

/// The pg workloads with many processes (`PostgresWritersBench`), after the shared model is in the database.
extension BenchCommand {
    /// Their names and units.
    static let pgWriterWorkloads: [(String, String)] = [1, 2, 4, 8].flatMap { n in
        [("pg_stores_per_s_\(n)", "1/s"), ("pg_update_per_s_\(n)", "1/s")]
    } + [("pg_propagate_p99_8", "ms"), ("pg_join", "ms"), ("pg_join_rss_peak", "MiB")]

    /// How long each run of N processes works together (`OKIT_BENCH_PG_SECONDS`, default 5).
    static var pgSeconds: Double {
        ProcessInfo.processInfo.environment["OKIT_BENCH_PG_SECONDS"].flatMap(Double.init) ?? 5
    }

    func runPostgresWriters(folder: URL, wanted: (String) -> Bool) {
        let seconds = Self.pgSeconds
        for n in [1, 2, 4, 8] {
            let stores = "pg_stores_per_s_\(n)", updates = "pg_update_per_s_\(n)"
            if wanted(stores) || (n == 8 && wanted("pg_propagate_p99_8")) {
                do {
                    let r = try PostgresWritersBench.run("pg-writer", processes: n, books: books, seconds: seconds, folder: folder)
                    if wanted(stores) { emit(stores, r.perSecond, "1/s", kind: "total_of_\(n)_processes_over_\(Int(seconds))_s") }
                    if n == 8 && wanted("pg_propagate_p99_8") {
                        emit("pg_propagate_p99_8", PostgresWritersBench.p99(r.samples), "ms", kind: "p99_of_\(r.samples.count)")
                    }
                } catch {
                    emitFailure(stores, "1/s", "\(error)")
                }
            }
            if wanted(updates) {
                do {
                    let r = try PostgresWritersBench.run("pg-sql", processes: n, books: books, seconds: seconds, folder: folder)
                    emit(updates, r.perSecond, "1/s", kind: "total_of_\(n)_clients_over_\(Int(seconds))_s")
                } catch { emitFailure(updates, "1/s", "\(error)") }
            }
        }
        if wanted("pg_join") || wanted("pg_join_rss_peak") {
            do {
                let r = try PostgresWritersBench.join(books: books, folder: folder)
                if wanted("pg_join") { emit("pg_join", r.ms, "ms", kind: "first") }
                if wanted("pg_join_rss_peak") { emit("pg_join_rss_peak", r.peakMiB, "MiB", kind: "first") }
            } catch { emitFailure("pg_join", "ms", "\(error)") }
        }
    }
}
