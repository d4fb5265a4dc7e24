import Foundation
import OKitEngine
import OKitPostgres
#if canImport(Glibc)
import Glibc
#endif

/// The shared-model workloads with many processes (issue 39 item 3, performance.md "Shared-model writes"):
/// `okit-run bench` starts itself again as children (`--fresh-process pg-writer:…`, `pg-sql:…`, `pg-join:…`) on
/// the model `PostgresBench` keeps in the database, and measures from outside them:
///
/// - `pg_stores_per_s_N`: N processes, each an engine on the shared model that, like a session before each
///   command, applies what the others announced and then stores one single-field edit of one of its own books;
///   all run for `seconds` together; total stores per second.
/// - `pg_update_per_s_N`: N plain SQL clients, each `UPDATE "Book" SET name = … WHERE id = …` of one of its own
///   books, committed, for as long, on the same database in the same run (what the database itself takes).
/// - `pg_propagate_p99_8`: during the 8-process run every tenth store of a process renames its probe book; each
///   process notes when it applied another's probe name; the time from that store's commit to the change applied
///   in another process, 99th percentile over every (store, process) pair, in ms.
/// - `pg_join` and `pg_join_rss_peak`: a fresh process joining the model: from the schema to the model ready (as
///   `load_cold`), and its peak resident memory.
enum PostgresWritersBench {
    /// One child of a run: the process, its stdin and its stdout.
    struct Child {
        let process: Process
        let input: FileHandle
        let lines: PipeLines
    }

    /// Starts `okit-run bench --books N --fresh-process SPEC` with pipes on stdin and stdout.
    static func start(_ spec: String, books: Int) throws -> Child {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        p.arguments = ["bench", "--books", String(books), "--fresh-process", spec]
        let inPipe = Pipe(), outPipe = Pipe()
        p.standardInput = inPipe
        p.standardOutput = outPipe
        try p.run()
        return Child(process: p, input: inPipe.fileHandleForWriting, lines: PipeLines(outPipe.fileHandleForReading))
    }

    /// Runs `n` children of `kind` (`pg-writer` or `pg-sql`) for `seconds` together; returns the total of their
    /// operations per second, and (writers) the propagation samples in ms.
    static func run(_ kind: String, processes n: Int, books: Int, seconds: Double, folder: URL) throws -> (perSecond: Double, samples: [Double]) {
        let dir = folder.appendingPathComponent("\(kind)-\(n)")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var children: [Child] = []
        defer { for c in children where c.process.isRunning { c.process.terminate() } }
        for i in 0..<n { children.append(try start("\(kind):\(i):\(n):\(dir.path)", books: books)) }
        for c in children {
            guard let line = c.lines.next(), line == "ready" else { throw BenchError("a \(kind) child did not get ready") }
        }
        for c in children { c.input.write(Data("go \(seconds)\n".utf8)) }
        var total = 0.0
        for c in children {
            guard let line = c.lines.next(), line.hasPrefix("done "), let count = Double(line.dropFirst(5)) else {
                throw BenchError("a \(kind) child did not finish")
            }
            total += count
            c.process.waitUntilExit()
        }
        return (total / seconds, kind == "pg-writer" ? try propagation(dir, processes: n) : [])
    }

    /// The propagation samples the writers of a run noted (`c WRITER SEQ NS` for a probe store's commit, `s WRITER
    /// SEQ NS` for another's probe applied), in ms.
    static func propagation(_ dir: URL, processes n: Int) throws -> [Double] {
        var commits: [String: UInt64] = [:]
        var seen: [(String, UInt64)] = []
        for i in 0..<n {
            let text = try String(contentsOf: dir.appendingPathComponent("w\(i).txt"), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let f = line.split(separator: " ")
                guard f.count == 4, let t = UInt64(f[3]) else { continue }
                if f[0] == "c" { commits["\(f[1]) \(f[2])"] = t } else { seen.append(("\(f[1]) \(f[2])", t)) }
            }
        }
        return seen.compactMap { key, t in commits[key].map { t >= $0 ? Double(t - $0) / 1e6 : 0 } }
    }

    static func p99(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return 0 }
        return s[min(s.count - 1, Int((Double(s.count) * 0.99).rounded(.up)) - 1)]
    }

    /// `pg_join`: a fresh process joins the model; its time from the schema to the model ready and its peak RSS.
    static func join(books: Int, folder: URL) throws -> (ms: Double, peakMiB: Double) {
        let dir = folder.appendingPathComponent("pg-join")
        try? FileManager.default.removeItem(at: dir)
        let c = try start("pg-join:0:1:\(dir.path)", books: books)
        guard let line = c.lines.next(), line.hasPrefix("joined ") else { throw BenchError("the joining process did not finish") }
        c.process.waitUntilExit()
        let f = line.split(separator: " ")
        guard f.count == 3, let ms = Double(f[1]), let peak = Double(f[2]) else { throw BenchError("the joining process said \(line)") }
        return (ms, peak)
    }
}

/// Lines from a pipe, read as they come.
final class PipeLines {
    let handle: FileHandle
    private var buffer: [UInt8] = []

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next line (without its newline), or nil at the end.
    func next() -> String? {
        while true {
            if let i = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<i], as: UTF8.self)
                buffer.removeSubrange(...i)
                return line
            }
            let data = handle.availableData
            if data.isEmpty { return nil }
            buffer += data
        }
    }
}
