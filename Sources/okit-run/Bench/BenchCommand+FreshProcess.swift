import ArgumentParser
import Foundation
import OKitEngine

/// The fresh-process workloads of `okit-run bench` (`FreshProcessBench`, `JournalBench`): the parent's side, which
/// prepares their data folders and runs the children, and the child's side.
extension BenchCommand {
    /// The workloads a fresh process measures.
    static let firstWorkloads = ["load_cold", "list_open_first", "list_search_first", "rss_peak"]

    /// `load_cold`, `list_open_first`, `list_search_first` and `rss_peak` from fresh processes on a copy of the
    /// shop `json`; `load_journal` from fresh processes on a copy with a journal of `JournalBench.records`
    /// records. Each is the median of `FreshProcessBench.runs` processes; a workload that could not run prints
    /// its line with value 0 and why.
    func runFreshProcesses(json: [UInt8], folder: URL, wanted: (String) -> Bool) {
        if Self.firstWorkloads.contains(where: wanted) {
            let first = folder.appendingPathComponent("first")
            do {
                let models = URL(fileURLWithPath: DataFolder(first).models, isDirectory: true)
                try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
                try Data(json).write(to: models.appendingPathComponent("default.json"))
                for f in try FreshProcessBench.measure(.firsts, folder: first, books: books) where wanted(f.workload) {
                    emit(f.workload, f.value, f.unit, kind: "first", extra: ",\"runs\":\(FreshProcessBench.runs)")
                }
            } catch {
                for w in Self.firstWorkloads where wanted(w) { emitFailure(w, w == "rss_peak" ? "MiB" : "ms", "\(error)") }
            }
        }
        if wanted("load_journal") {
            let journaled = folder.appendingPathComponent("journal")
            do {
                let held = try JournalBench.make(folder: journaled, json: json)
                for f in try FreshProcessBench.measure(.journal, folder: journaled, books: books) {
                    emit(f.workload, f.value, f.unit, kind: "first",
                         extra: ",\"runs\":\(FreshProcessBench.runs),\"records\":\(held)")
                }
            } catch { emitFailure("load_journal", "ms", "\(error)") }
        }
    }

    /// In the child (`--fresh-process WHAT:FOLDER`): measures `WHAT` on the data folder and prints its lines.
    func runFreshProcess(_ argument: String) throws {
        guard let colon = argument.firstIndex(of: ":"),
              let child = FreshProcessBench.Child(rawValue: String(argument[..<colon])) else {
            throw ValidationError("--fresh-process takes firsts:FOLDER or journal:FOLDER")
        }
        let folder = URL(fileURLWithPath: String(argument[argument.index(after: colon)...]), isDirectory: true)
        let figures = switch child {
        case .firsts: try FreshProcessBench.firsts(folder: folder, books: books)
        case .journal: try FreshProcessBench.journalLoad(folder: folder, books: books)
        }
        for f in figures { emit(f.workload, f.value, f.unit, kind: "first") }
    }
}
