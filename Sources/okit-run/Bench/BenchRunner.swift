import Foundation
import OKitBackends
import OKitEngine
import OKitLua

/// The timed parts of `okit-run bench`.
struct BenchRunner {
    let folder: URL
    let books: Int
    var engine: Engine?
    var storage: FileStorage?
    var model: Model?

    init(folder: URL, books: Int) {
        self.folder = folder
        self.books = books
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Resident memory of this process in MiB (VmRSS).
    static func residentMiB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kb = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
            return kb / 1024
        }
        return 0
    }

    /// Loads the shop into a fresh engine; keeps it for the other workloads.
    mutating func loadOnce() throws {
        engine = nil; model = nil; storage = nil
        let e = Engine(schema: try BenchShop.schema(), clock: VirtualClock(), ids: SeededIds(seed: 1))
        let s = try FileStorage(dataFolder: folder)
        model = try e.register(model: "default", type: "Shop", storage: s)
        engine = e
        storage = s
    }

    /// Best of 5 loads, in ms.
    mutating func load() throws -> Double {
        var best = Double.infinity
        for _ in 0..<5 {
            engine = nil; model = nil; storage = nil
            let t = BenchRunner.now()
            try loadOnce()
            best = min(best, Double(BenchRunner.now() - t) / 1e6)
        }
        return best
    }

    /// `okit-run` on a 30-line app to its first output, whole process, median of 7 runs in ms.
    func startup() throws -> Double {
        let dir = folder.appendingPathComponent("startup")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let appFile = dir.appendingPathComponent("app.lua")
        try BenchShop.startupApp.write(to: appFile, atomically: true, encoding: .utf8)
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var times: [Double] = []
        for k in 0..<7 {
            let t = BenchRunner.now()
            try Self.spawnAndWait(exe.path, [appFile.path, "--data", dir.appendingPathComponent("data\(k)").path])
            times.append(Double(BenchRunner.now() - t) / 1e6)
        }
        return times.sorted()[times.count / 2]
    }

    /// Runs a program with its output to /dev/null (or standard output and error to the files `output` and
    /// `errors`) and waits for it, as Python's `subprocess.run` does for the peer (`posix_spawn`, then
    /// `waitpid`): Foundation's `Process` adds about 30 ms of its own on Linux, which is not okit's start-up.
    /// Returns the child's wait status.
    @discardableResult
    static func spawnAndWait(_ path: String, _ arguments: [String], output: String = "/dev/null",
                             errors: String = "/dev/null") throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        // The child starts as from a shell: no signal blocked, every signal's default action (the Swift runtime and
        // Dispatch change both in this process).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard rc == 0 else { throw BenchError("cannot start \(path): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    /// The list screen of performance.md over all books: rowSort name, group name/initial, searchPath name.
    static func listDeclaration() -> ListDeclaration {
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"
        d.titlePath = "%Books"
        d.rowSort = "name"
        d.group = "name/initial"
        d.search = "#true"
        d.searchPath = "name"
        d.cellPath = "name"
        d.index = "#true"
        return d
    }

    /// Open the list screen and produce its first 50 rows (ms, best of 3).
    func listOpen() throws -> Double {
        guard let engine else { return 0 }
        var best = Double.infinity
        for _ in 0..<3 {
            let t = BenchRunner.now()
            let screen = try ListScreen(engine: engine, declaration: Self.listDeclaration(), context: root)
            let snap = try screen.snapshot(offset: 0, limit: 50)
            best = min(best, Double(BenchRunner.now() - t) / 1e6)
            // Closing the screen (freeing its rows) is not part of opening it.
            withExtendedLifetime(screen) { if snap.rowCount == 0 { print("") } }
        }
        return best
    }

    /// On the open list screen, type one more search character and produce the first 50 rows (ms per keystroke).
    func listSearch() throws -> Double {
        guard let engine else { return 0 }
        let screen = try ListScreen(engine: engine, declaration: Self.listDeclaration(), context: root)
        _ = try screen.snapshot(offset: 0, limit: 50)
        let words = ["alpha", "bravo", "charlie", "delta", "echo"]
        var keystrokes = 0
        let t = BenchRunner.now()
        for w in words {
            var typed = ""
            for ch in w {
                typed.append(ch)
                screen.search(typed)
                let snap = try screen.snapshot(offset: 0, limit: 50)
                if snap.rowCount < 0 { print("") }
                keystrokes += 1
            }
            screen.search("")
        }
        return Double(BenchRunner.now() - t) / 1e6 / Double(keystrokes)
    }

    /// The first lookup by id after a load: it builds the id index (ms).
    mutating func firstLookup() throws -> Double {
        try loadOnce()
        let t = BenchRunner.now()
        _ = engine?.lookup(id: "not-an-id")
        return Double(BenchRunner.now() - t) / 1e6
    }

    /// Only the file read and parse (no id index, no hooks), best of 5, in ms — for profiling `load`.
    mutating func parseOnly() throws -> Double {
        var best = Double.infinity
        for _ in 0..<5 {
            engine = nil; model = nil; storage = nil
            let e = Engine(schema: try BenchShop.schema(), clock: VirtualClock(), ids: SeededIds(seed: 1))
            let s = try FileStorage(dataFolder: folder)
            let t = BenchRunner.now()
            let loaded = try s.load(name: "default", rootType: e.schema.type(named: "Shop")!, engine: e)
            best = min(best, Double(BenchRunner.now() - t) / 1e6)
            _ = loaded
        }
        return best
    }

    var root: Entity { model!.root }

    func bookList() throws -> EntityCollection { try engine!.collection(root, "books") }

    /// With `cells` detail screens open on distinct books (one bound cell each, kept up to date through a
    /// subscription on the screen's snapshot), change one book's name and bring every affected snapshot up to
    /// date; per change in µs.
    func invalidate(cells: Int) throws -> Double {
        guard let engine else { return 0 }
        let list = try bookList()
        let step = max(1, list.count / cells)
        var declaration = DetailDeclaration(id: "book")
        declaration.titlePath = "name"
        declaration.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "table", properties: ["path": "name", "detailPath": "price"])])]
        var screens: [DetailScreen] = []
        var subs: [Subscription] = []
        var stale: [Subscription] = []
        var targets: [Entity] = []
        var titles = 0
        for i in 0..<cells {
            guard let book = list.items[(i * step) % list.count].entity else { continue }
            targets.append(book)
            let screen = try DetailScreen(engine: engine, declaration: declaration, context: book)
            screens.append(screen)
            subs.append(engine.graph.subscribe({
                let snap = try screen.snapshot()
                if snap.title != nil { titles += 1 }
                return .null
            }, onStale: { stale.append($0) }))
        }
        let rounds = 2000
        var r = BenchShop.Random(state: 7)
        var best = Double.infinity
        for pass in 0..<3 {
            let t = BenchRunner.now()
            for k in 0..<rounds {
                try BenchRunner.change(engine, targets[r.below(targets.count)], to: "Renamed \(pass) \(k)") {
                    for s in stale { _ = s.value }
                    stale.removeAll(keepingCapacity: true)
                }
            }
            best = min(best, Double(BenchRunner.now() - t) / Double(rounds) / 1e3)
        }
        for s in subs { s.cancel() }
        if titles == 42 { print("") }
        return best
    }

    /// One change of `invalidate`: a book renamed and the snapshots it made stale brought up to date. Not inlined,
    /// so that a profiler can count this alone (`valgrind --toggle-collect`).
    @inline(never)
    static func change(_ engine: Engine, _ book: Entity, to name: String, then refresh: () throws -> Void) throws {
        try engine.set(book, "name", .string(name))
        try refresh()
    }

    /// Store the whole shop after one field changed in every book, in ms (best of 3).
    func storeAll() throws -> Double {
        guard let engine, let model else { return 0 }
        let list = try bookList()
        var best = Double.infinity
        for pass in 0..<3 {
            for item in list.items { try engine.set(item.entity!, "marked", .bool(pass % 2 == 0)) }
            let t = BenchRunner.now()
            try engine.store(model)
            best = min(best, Double(BenchRunner.now() - t) / 1e6)
        }
        return best
    }

    /// Store after one field of one book changed, in ms (median of 21).
    func storeOne() throws -> Double {
        guard let engine, let model else { return 0 }
        let list = try bookList()
        var times: [Double] = []
        var r = BenchShop.Random(state: 9)
        for k in 0..<21 {
            let book = list.items[r.below(list.count)].entity!
            try engine.set(book, "name", .string("Changed \(k)"))
            let t = BenchRunner.now()
            try engine.store(model)
            times.append(Double(BenchRunner.now() - t) / 1e6)
        }
        return times.sorted()[times.count / 2]
    }
}
