import Foundation
import OKitEngine
import OKitPostgres
#if canImport(Glibc)
import Glibc
#endif

/// The shared-model workloads of `okit-run bench` (performance.md, "issue 18: shared models on PostgreSQL"), run
/// when `OKIT_BENCH_DATABASE_URL` names a PostgreSQL database the bench may write (scripts/bench starts a
/// throwaway cluster for it when PostgreSQL is installed):
///
/// - `pg_store_one`: one changed book stored to commit (the transaction with its version checks and NOTIFY), in a
///   shop of `books` books kept in the database; median over 101 stores, in ms.
/// - `pg_propagate_p99`: this process (A) stores one changed book; a second process (B, `okit-run serve` on the
///   same database, with a session on the list page that shows the book and its live-update stream open) applies
///   the announcement and pushes the page as stale; the time from A's store until B answers the page with the new
///   name, 99th percentile over 200 rounds, in ms.
///
/// The shop is model `bench<books>` of that database: seeded on the first run (one store of every row), reused by
/// later runs on the same database.
final class PostgresBench {
    let url: String
    let books: Int
    let folder: URL
    let engine: Engine
    let files: FileStorage
    let storage: PostgresStorage
    let model: Model
    var modelName: String { "bench\(books)" }
    /// How long seeding the database took (ms; 0 when the model was there already).
    private(set) var seedMs: Double = 0

    init(url: String, books: Int, folder: URL) throws {
        self.url = url
        self.books = books
        self.folder = folder
        let a = folder.appendingPathComponent("a")
        try FileManager.default.createDirectory(at: a, withIntermediateDirectories: true)
        engine = Engine(schema: try BenchShop.schema(), clock: VirtualClock(), ids: SeededIds(seed: 1))
        files = try FileStorage(dataFolder: a)
        storage = PostgresStorage(files: files, settings: try PostgresSettings.parse(url))
        let engine = self.engine
        let n = books
        var seeded = false
        let t = BenchRunner.now()
        model = try engine.register(model: "bench\(books)", type: "Shop", storage: storage, storageKind: .postgres) { root in
            seeded = true
            try PostgresBench.seed(root, books: n, engine: engine)
        }
        if seeded { seedMs = Double(BenchRunner.now() - t) / 1e6 }
        let count = try engine.collection(model.root, "books").count
        guard count == books else {
            throw BenchError("model \(modelName) in \(storage.settings.shown) holds \(count) books, not \(books)")
        }
    }

    /// The bench shop (BenchShop's shape: books with name, date, marked, price and 1–3 owned authors; the shop's
    /// authors), made as entities so the postgres storage stores it as its seed.
    static func seed(_ root: Entity, books n: Int, engine: Engine) throws {
        var r = BenchShop.Random(state: 42)
        let words = BenchShop.words
        func title(_ w: String) -> String { w.prefix(1).uppercased() + w.dropFirst() }
        let authorCount = max(10, n / 10)
        var names: [String] = []
        names.reserveCapacity(authorCount)
        let shopAuthors = try engine.collection(root, "authors")
        for _ in 0..<authorCount {
            let name = title(words[r.below(words.count)]) + " " + title(words[r.below(words.count)])
            names.append(name)
            try engine.insert(.entity(engine.make("Author", ["name": .string(name)])), into: shopAuthors, append: true)
        }
        let list = try engine.collection(root, "books")
        for _ in 0..<n {
            let name = (0..<3).map { _ in title(words[r.below(words.count)]) }.joined(separator: " ")
            let book = try engine.make("Book", [
                "name": .string(name),
                "date": .date(Date(timeIntervalSinceReferenceDate: Double(600_000_000 + r.below(100_000_000)))),
                "marked": .bool(r.unit() < 0.2),
                "price": .double(((1 + r.unit() * 79) * 100).rounded() / 100),
            ])
            try engine.insert(.entity(book), into: list, append: true)
            let authors = try engine.collection(book, "authors")
            var picked: Set<Int> = []
            let k = 1 + r.below(3)
            while picked.count < k { picked.insert(r.below(authorCount)) }
            for a in picked.sorted() {
                try engine.insert(.entity(engine.make("Author", ["name": .string(names[a])])), into: authors, append: true)
            }
        }
    }

    func bookList() throws -> EntityCollection { try engine.collection(model.root, "books") }

    /// Tells this run's names from an earlier run's on the same database (a name the row already has is no change).
    let run = String(UInt32.random(in: 0...UInt32.max), radix: 36)

    /// `pg_store_one`: one book's name changed, then a store; median of 101 (after 5 not counted), in ms.
    func storeOne() throws -> Double {
        let list = try bookList()
        var r = BenchShop.Random(state: 9)
        var times: [Double] = []
        for k in 0..<106 {
            guard let book = list.items[r.below(list.count)].entity else { continue }
            try engine.set(book, "name", .string("Stored \(run) \(k) \(r.below(1_000_000))"))
            let t = BenchRunner.now()
            let outcome = try engine.store(model)
            if k >= 5 { times.append(Double(BenchRunner.now() - t) / 1e6) }
            guard case .rows(let written, _) = outcome, written >= 1 else {
                throw BenchError("a store of one changed book wrote no row (\(outcome))")
            }
        }
        return WebBench.median(times)
    }

    /// The app process B serves: the bench schema, the same shared model, an unsorted list of the books (its
    /// first page shows the first 50).
    var serveApp: String {
        """
        local okit = require "okit"
        okit.entity("Author", { name = "string" })
        okit.entity("Book", { name = "string", date = "date", marked = "bool", price = "double", authors = "[Author]" })
        okit.entity("Shop", { books = "[Book]", authors = "[Author]" })
        local shop = okit.model("Shop", { name = "\(modelName)", storage = "postgres" })
        okit.state { shop }
        okit.list("books", { type = "Book", dataPath = "books", titlePath = "%Books", cell = { path = "name" } })
        okit.app { id = "pgbench", home = { "books" } }

        """
    }

    /// `pg_propagate_p99` (and the median, and the median time until B's stale event arrived, before B's page is
    /// fetched): `rounds` rounds after 5 not counted, in ms.
    func propagate(rounds: Int = 200) throws -> (p99: Double, median: Double, eventMedian: Double) {
        let b = try ServeProcess(app: serveApp, folder: folder.appendingPathComponent("b"), databaseURL: url)
        defer { b.stop() }
        let first = try LoopbackHTTP.get(port: b.port, path: "/books", cookie: nil)
        guard first.status == 200, let cookie = first.cookie else {
            throw BenchError("process B's books page answered \(first.status) without a session: \(first.body.prefix(300))")
        }
        let events = try EventStream(port: b.port, cookie: cookie)
        defer { events.close() }
        let list = try bookList()
        let shown = min(50, list.count)
        var latencies: [Double] = []
        var toEvent: [Double] = []
        for k in 0..<(rounds + 5) {
            // B's page is current (this GET also re-arms its watch); then A stores one change to a book it shows.
            let page = try LoopbackHTTP.get(port: b.port, path: "/books", cookie: cookie)
            guard page.status == 200 else { throw BenchError("process B's books page answered \(page.status)") }
            events.drain()
            guard let book = list.items[k % shown].entity else { continue }
            let name = "Propagated \(run) \(k)"
            try engine.set(book, "name", .string(name))
            let t = BenchRunner.now()
            _ = try engine.store(model)
            let deadline = t + 10_000_000_000
            var done = false
            var firstEvent: UInt64?
            while !done {
                guard let arrived = events.wait(until: deadline) else {
                    throw BenchError("process B pushed no stale event within 10 s of a store (round \(k))")
                }
                if firstEvent == nil { firstEvent = arrived }
                let r = try LoopbackHTTP.get(port: b.port, path: "/books", cookie: cookie)
                done = r.status == 200 && r.body.contains(name)
            }
            if k >= 5 {
                latencies.append(Double(BenchRunner.now() - t) / 1e6)
                toEvent.append(Double((firstEvent ?? t) - t) / 1e6)
            }
        }
        let sorted = latencies.sorted()
        let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
        return (p99, WebBench.median(latencies), WebBench.median(toEvent))
    }

    func close() {
        storage.close()
        files.close()
    }
}

/// `okit-run serve APP --port 0` as a child process of the bench, on a database; its port from its first line.
final class ServeProcess {
    let process = Process()
    let port: Int
    let log: URL

    init(app: String, folder: URL, databaseURL: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let appFile = folder.appendingPathComponent("app.lua")
        try app.write(to: appFile, atomically: true, encoding: .utf8)
        log = folder.appendingPathComponent("serve.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let out = try FileHandle(forWritingTo: log)
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["serve", appFile.path, "--port", "0", "--data", folder.appendingPathComponent("data").path]
        var env = ProcessInfo.processInfo.environment
        env["OKIT_DATABASE_URL"] = databaseURL
        process.environment = env
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let deadline = Date().addingTimeInterval(300)
        while true {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let r = text.range(of: "at http://127.0.0.1:") {
                let digits = text[r.upperBound...].prefix { $0.isNumber }
                if let p = Int(digits), text[r.upperBound...].dropFirst(digits.count).hasPrefix("/") { port = p; return }
            }
            guard process.isRunning, Date() < deadline else {
                if process.isRunning { process.terminate() }
                throw BenchError("okit-run serve (process B) did not start: \(text.suffix(500))")
            }
            usleep(20_000)
        }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}

/// HTTP/1.1 GETs to a loopback port over a socket (one request per connection), for the bench's process B.
enum LoopbackHTTP {
    struct Answer {
        let status: Int
        let cookie: String?
        let body: String
    }

    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket() failed") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard ok else { Glibc.close(fd); throw BenchError("cannot connect to 127.0.0.1:\(port)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    static func send(_ fd: Int32, _ text: String) throws {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw BenchError("send failed") }
            done += n
        }
    }

    static func request(_ path: String, port: Int, cookie: String?, accept: String) -> String {
        var r = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: \(accept)\r\nConnection: close\r\n"
        if let cookie { r += "Cookie: okit_session=\(cookie)\r\n" }
        return r + "\r\n"
    }

    /// A GET answered in full (until the server closes the connection); chunked bodies are decoded.
    static func get(port: Int, path: String, cookie: String?) throws -> Answer {
        let fd = try connect(port: port)
        defer { Glibc.close(fd) }
        try send(fd, request(path, port: port, cookie: cookie, accept: "text/html"))
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let split = (0..<max(0, data.count - 3)).first(where: { Array(data[$0..<$0 + 4]) == separator }) else {
            throw BenchError("a malformed answer to GET \(path)")
        }
        let head = String(decoding: data[0..<split], as: UTF8.self)
        var body = Array(data[(split + 4)...])
        let lines = head.split(separator: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var cookie: String?
        var chunked = false
        for line in lines.dropFirst() {
            let lower = line.lowercased()
            if lower.hasPrefix("set-cookie: okit_session=") {
                cookie = String(line.dropFirst("set-cookie: okit_session=".count).prefix { $0 != ";" })
            }
            if lower.hasPrefix("transfer-encoding:") && lower.contains("chunked") { chunked = true }
        }
        if chunked { body = dechunk(body) }
        return Answer(status: status, cookie: cookie, body: String(decoding: body, as: UTF8.self))
    }

    /// The bytes of a chunked body.
    static func dechunk(_ b: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < b.count {
            var j = i
            while j + 1 < b.count && !(b[j] == 13 && b[j + 1] == 10) { j += 1 }
            guard j + 1 < b.count else { break }
            let line = String(decoding: b[i..<j], as: UTF8.self)
            guard let size = Int(line.split(separator: ";").first.map(String.init) ?? "", radix: 16), size > 0 else { break }
            let start = j + 2, end = min(b.count, start + size)
            out += b[start..<end]
            i = end + 2
        }
        return out
    }
}

/// Process B's `/events` stream for one session, read on a thread of its own: each `event: stale` is counted.
final class EventStream: @unchecked Sendable {
    // @unchecked Sendable: `arrivals` and `closed` are read and written with `condition` held; `fd` is set once,
    // before the reading thread starts.
    private let condition = NSCondition()
    private var arrivals: [UInt64] = []
    private var closed = false
    private let fd: Int32

    init(port: Int, cookie: String) throws {
        fd = try LoopbackHTTP.connect(port: port)
        try LoopbackHTTP.send(fd, LoopbackHTTP.request("/events", port: port, cookie: cookie, accept: "text/event-stream"))
        Thread { [self] in self.read() }.start()
    }

    /// Reads the stream until it ends (`close()` shuts the socket).
    private func read() {
        var pending = ""
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            pending += String(decoding: buffer[0..<n], as: UTF8.self)
            let now = BenchRunner.now()
            var found = 0
            while let r = pending.range(of: "event: stale") {
                found += 1
                pending = String(pending[r.upperBound...])
            }
            if pending.count > 64 { pending = String(pending.suffix(32)) }
            if found > 0 {
                condition.lock()
                arrivals += Array(repeating: now, count: found)
                condition.broadcast()
                condition.unlock()
            }
        }
        Glibc.close(fd)
        condition.lock(); closed = true; condition.broadcast(); condition.unlock()
    }

    /// Forgets the events that arrived so far.
    func drain() { condition.lock(); arrivals = []; condition.unlock() }

    /// Waits for a stale event (taking it) until the uptime deadline (ns); when it arrived (uptime ns), or nil
    /// when none came.
    func wait(until deadline: UInt64) -> UInt64? {
        condition.lock()
        defer { condition.unlock() }
        while arrivals.isEmpty && !closed {
            let now = BenchRunner.now()
            if now >= deadline { return nil }
            _ = condition.wait(until: Date().addingTimeInterval(Double(deadline - now) / 1e9))
        }
        return arrivals.isEmpty ? nil : arrivals.removeFirst()
    }

    /// Ends the stream (the reading thread closes the socket when it sees the end).
    func close() { shutdown(fd, Int32(SHUT_RDWR)) }
}
