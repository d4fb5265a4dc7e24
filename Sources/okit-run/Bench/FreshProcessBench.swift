import Foundation
import OKitEngine

/// The figures of a fresh process (performance.md, "How each figure is measured"): what a person waits for when okit starts, nothing
/// warmed. `okit-run bench` starts itself again as a child (`--fresh-process WHAT:FOLDER`, on a data folder the
/// parent prepared, its file in the page cache) and the child times its own first load, first list open, first
/// search keystroke, first lookup by id and peak memory; the parent runs the child `runs` times and reports the
/// median of each figure.
enum FreshProcessBench {
    /// How many fresh processes the parent runs for each figure (the median is reported).
    static let runs = 3

    /// One figure: its workload name, value and unit.
    typealias Figure = (workload: String, value: Double, unit: String)

    /// What a child measures.
    enum Child: String {
        /// `load_cold`, `list_open_first`, `rss_peak` and `list_search_first`, in that order in one process.
        case firsts
        /// `load_journal`: the first load of a model with a journal.
        case journal
    }

    /// In the child: the first load of the shop in `folder` (`load_cold`: from the schema to the model ready, as
    /// `load`), the list screen of `list_open` opened and its first 50 rows (`list_open_first`), the first
    /// lookup of a book by id, the process's peak resident memory (`rss_peak`, getrusage's ru_maxrss), then one
    /// search keystroke on the open list and its first 50 rows (`list_search_first`).
    static func firsts(folder: URL, books: Int) throws -> [Figure] {
        var bench = BenchRunner(folder: folder, books: books)
        var t = BenchRunner.now()
        try bench.loadOnce()
        let load = Double(BenchRunner.now() - t) / 1e6
        guard let engine = bench.engine else { throw BenchError("the shop did not load") }
        t = BenchRunner.now()
        let screen = try ListScreen(engine: engine, declaration: BenchRunner.listDeclaration(), context: bench.root)
        let opened = try screen.snapshot(offset: 0, limit: 50)
        let open = Double(BenchRunner.now() - t) / 1e6
        guard opened.rowCount > 0 else { throw BenchError("the list showed no rows") }
        var sequence = BookSequence()
        let list = try bench.bookList()
        guard let id = list.items[sequence.next(list.count)].entity?.id, engine.lookup(id: id) != nil else {
            throw BenchError("a book was not found by its id")
        }
        let peak = peakResidentMiB()
        t = BenchRunner.now()
        screen.search("a")
        let searched = try screen.snapshot(offset: 0, limit: 50)
        let keystroke = Double(BenchRunner.now() - t) / 1e6
        if searched.rowCount < 0 { print("") }
        return [("load_cold", load, "ms"), ("list_open_first", open, "ms"), ("rss_peak", peak, "MiB"),
                ("list_search_first", keystroke, "ms")]
    }

    /// In the child: the first load of the model in `folder` (its journal read and applied), from the schema to
    /// the model ready.
    static func journalLoad(folder: URL, books: Int) throws -> [Figure] {
        var bench = BenchRunner(folder: folder, books: books)
        let t = BenchRunner.now()
        try bench.loadOnce()
        let load = Double(BenchRunner.now() - t) / 1e6
        guard bench.model != nil else { throw BenchError("the model did not load") }
        return [("load_journal", load, "ms")]
    }

    /// This process's peak resident memory so far, in MiB: `VmHWM` of /proc/self/status, the high-water mark of
    /// this program's own memory. Not getrusage's ru_maxrss: Linux carries the larger of it and the memory the
    /// process had before `exec` across the `exec`, and a child spawned by the bench (vfork) had the bench's
    /// (`rss_peak` read 499 MiB at 100,000 books, the bench process's own peak).
    static func peakResidentMiB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Double(line.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? "") else {
            var usage = rusage()
            guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
            return Double(usage.ru_maxrss) / 1024
        }
        return kib / 1024
    }

    /// In the parent: runs `okit-run bench --books N --fresh-process child:folder` `runs` times and returns the
    /// median of each figure the children printed, in the order the first printed them.
    static func measure(_ child: Child, folder: URL, books: Int) throws -> [Figure] {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let out = folder.appendingPathComponent("fresh-\(child.rawValue).out").path
        let err = folder.appendingPathComponent("fresh-\(child.rawValue).err").path
        var order: [(String, String)] = []
        var values: [String: [Double]] = [:]
        for _ in 0..<runs {
            let status = try BenchRunner.spawnAndWait(
                exe, ["bench", "--books", "\(books)", "--fresh-process", "\(child.rawValue):\(folder.path)"],
                output: out, errors: err)
            let said = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            guard status == 0 else { throw BenchError("the fresh process failed (status \(status)): \(said)") }
            for figure in try parse(String(contentsOfFile: out, encoding: .utf8)) {
                if values[figure.workload] == nil { order.append((figure.workload, figure.unit)) }
                values[figure.workload, default: []].append(figure.value)
            }
        }
        return order.map { w, unit in
            let xs = values[w]!.sorted()
            return (w, xs[xs.count / 2], unit)
        }
    }

    /// The figures of a child's JSON lines.
    static func parse(_ text: String) throws -> [Figure] {
        try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let w = object["workload"] as? String, let v = object["value"] as? Double,
                  let unit = object["unit"] as? String else { throw BenchError("not a figure: \(line)") }
            return (w, v, unit)
        }
    }
}
