import Foundation
import OKitBackends
import OKitEngine
import OKitLua
import OKitWeb
#if canImport(Glibc)
import Glibc
#endif

/// The web workloads of performance.md (`serve_page`, `serve_rps` with its peer `nginx_static_rps`,
/// `serve_push_p99`): the benchmark shop as a Lua app with the books list screen (rowSort name, group
/// name/initial, search, index) and a book detail, loaded into a `WebApp` as `okit-run serve` loads it.
final class WebBench: @unchecked Sendable {
    // @unchecked Sendable: driven by the bench's one task at a time; the app itself lives in `web`, on the
    // engine's own executor.
    let folder: URL
    let web: WebApp
    let options: ServeOptions

    /// The bench shop's schema (as `BenchShop.luaApp`, with the built-in `initial`) and its two screens.
    static let app = BenchShop.luaShopApp + """
    okit.list("books", {
      type = "Book", dataPath = "books", titlePath = "%Books",
      rowSort = "name", group = "name/initial", search = "#true", searchPath = "name", index = "#true",
      cell = { path = "name" }, segue = "book",
    })
    okit.detail("book", {
      titlePath = "name",
      sections = { { okit.cell.text { path = "name", textPath = "name" } } },
    })
    okit.app { id = "bench", version = 1, home = { "books" } }
    """

    /// Loads the app on `folder` (whose `models/default.json` is the bench shop) into a new `WebApp`.
    init(folder: URL, maxSessions: Int = 2000) throws {
        self.folder = folder
        let appFile = folder.appendingPathComponent("web-app.lua")
        try WebBench.app.write(to: appFile, atomically: true, encoding: .utf8)
        var options = ServeOptions()
        options.port = 0
        options.maxSessions = maxSessions
        self.options = options
        let web = WebApp(options: options)
        self.web = web
        let dataFolder = folder
        let loaded = Blocking.wait {
            try await web.load {
                var o = LuaAppOptions()
                o.storageKinds = .builtIn
                o.dataFolder = dataFolder
                o.print = { _ in }
                let luaApp = try LuaApp(options: o)
                try luaApp.load(appFile: appFile)
                return WebHostedApp(session: luaApp.session, owner: luaApp)
            }
        }
        if case .failure(let error) = loaded { throw error }
    }

    static func ms(since t: UInt64) -> Double { Double(BenchRunner.now() - t) / 1e6 }

    static func median(_ xs: [Double]) -> Double { xs.isEmpty ? 0 : xs.sorted()[xs.count / 2] }

    // MARK: serve_page

    /// The list page's first book (its detail path, which the writer session opens).
    static func firstBookPath(_ html: String) -> String? {
        guard let r = html.range(of: "href=\"/books/book~") else { return nil }
        return "/books/book~" + html[r.upperBound...].prefix { $0 != "\"" }
    }

    /// A reader session on the list page and a writer session on the detail of a book the list shows.
    func readerAndWriter() async throws -> (reader: BenchBrowser, writer: BenchBrowser, book: String) {
        let reader = BenchBrowser(web), writer = BenchBrowser(web)
        let list = await reader.get("/books")
        guard list.status == 200, let book = WebBench.firstBookPath(list.text) else {
            throw BenchError("the books page answered \(list.status) without a book link")
        }
        let detail = await writer.get(book)
        guard detail.status == 200 else { throw BenchError("the book page \(book) answered \(detail.status)") }
        // The detail's text cell takes values in edit mode.
        let edit = await writer.command(from: book, [("command", "edit"), ("on", "true")])
        guard edit.status == 303 else { throw BenchError("edit on \(book) answered \(edit.status)") }
        return (reader, writer, book)
    }

    /// Renames the book through the writer session's `set` command (as a browser posts it), checking it took.
    func write(_ writer: BenchBrowser, _ book: String, _ name: String) async throws {
        let r = await writer.command(from: book, [("command", "set"), ("cell", "1"), ("value", name)])
        guard r.status == 303 else { throw BenchError("set on \(book) answered \(r.status): \(r.text.prefix(300))") }
    }

    /// `serve_page`: a write renames a book the list page shows (another session's command), then the reader's
    /// GET of the list page is timed: median ms over `rounds`. Also returns the GET without a write before it
    /// (the snapshot cached: routing + rendering only) and the page's size.
    func servePage(rounds: Int = 60) async throws -> (page: Double, cached: Double, bytes: Int) {
        let (reader, writer, book) = try await readerAndWriter()
        var times: [Double] = []
        var cached: [Double] = []
        var bytes = 0
        for k in 0..<(rounds + 5) {
            let name = "Alpha Alpha Alpha \(k)"
            try await write(writer, book, name)
            let t = BenchRunner.now()
            let r = await reader.get("/books")
            let dt = WebBench.ms(since: t)
            guard r.status == 200, r.text.contains(name) else {
                throw BenchError("the books page (\(r.status)) does not show the written book \"\(name)\"")
            }
            bytes = r.body.count
            let t2 = BenchRunner.now()
            _ = await reader.get("/books")
            let dt2 = WebBench.ms(since: t2)
            if k >= 5 { times.append(dt); cached.append(dt2) }
        }
        return (WebBench.median(times), WebBench.median(cached), bytes)
    }

    // MARK: serve_rps, nginx_static_rps

    /// Starts the HTTP server in-process on a free loopback port; returns the port.
    func startServer() throws -> Int {
        let port = PortBox()
        let web = self.web, options = self.options
        Task.detached {
            do {
                try await WebServer.run(web, options: options) { p in port.set(p) }
            } catch { port.fail("\(error)") }
        }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            switch port.get() {
            case .some(.success(let p)): return p
            case .some(.failure(let e)): throw e
            case .none: usleep(10_000)
            }
        }
        throw BenchError("the web server did not start within 20 s")
    }

    /// `serve_rps`: wrk on the list page with one session's cookie; the page's bytes for nginx.
    func serveRPS(seconds: Int) throws -> (rps: Double, page: [UInt8]) {
        let port = try startServer()
        let browser = BenchBrowser(web)
        let page = Blocking.wait { await browser.get("/books") }
        guard case .success(let r) = page, r.status == 200, let cookie = browser.cookie else {
            throw BenchError("the books page did not answer 200 in-process")
        }
        let rps = try WebBench.wrk("http://127.0.0.1:\(port)/books", cookie: cookie, seconds: seconds)
        return (rps, r.body)
    }

    /// `nginx_static_rps`: nginx from Debian serving `page` as a static file (worker_processes 2, access_log
    /// off, sendfile on) on another free loopback port, under the same wrk.
    static func nginxRPS(page: [UInt8], folder: URL, seconds: Int) throws -> Double {
        let binary = "/usr/sbin/nginx"
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError("nginx is missing at \(binary): apt-get install -y nginx (scripts/bench installs it)")
        }
        let prefix = folder.appendingPathComponent("nginx")
        let www = prefix.appendingPathComponent("www")
        for f in ["www", "tmp", "logs"] {
            try FileManager.default.createDirectory(at: prefix.appendingPathComponent(f), withIntermediateDirectories: true)
        }
        try Data(page).write(to: www.appendingPathComponent("books"))
        let port = try freePort()
        let p = prefix.path
        let config = """
        daemon off;
        master_process on;
        worker_processes 2;
        \(getuid() == 0 ? "user root;" : "")
        pid \(p)/nginx.pid;
        error_log \(p)/logs/error.log;
        events {}
        http {
            access_log off;
            sendfile on;
            default_type "text/html; charset=utf-8";
            client_body_temp_path \(p)/tmp/body;
            proxy_temp_path \(p)/tmp/proxy;
            fastcgi_temp_path \(p)/tmp/fastcgi;
            uwsgi_temp_path \(p)/tmp/uwsgi;
            scgi_temp_path \(p)/tmp/scgi;
            server { listen 127.0.0.1:\(port); root \(www.path); }
        }

        """
        let conf = prefix.appendingPathComponent("nginx.conf")
        try config.write(to: conf, atomically: true, encoding: .utf8)
        let nginx = Process()
        nginx.executableURL = URL(fileURLWithPath: binary)
        nginx.arguments = ["-p", p + "/", "-c", conf.path, "-e", p + "/logs/error.log"]
        nginx.standardOutput = FileHandle.nullDevice
        nginx.standardError = FileHandle.nullDevice
        try nginx.run()
        defer {
            nginx.terminate()
            nginx.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(20)
        while !answers(port: port) {
            guard nginx.isRunning, Date() < deadline else {
                let log = (try? String(contentsOfFile: p + "/logs/error.log", encoding: .utf8)) ?? ""
                throw BenchError("nginx did not start: \(log.suffix(300))")
            }
            usleep(20_000)
        }
        return try wrk("http://127.0.0.1:\(port)/books", cookie: "bench", seconds: seconds)
    }

    /// `wrk -t2 -c32 -dNs` with the session's cookie; Requests/sec. Fails when a response was not 2xx/3xx.
    static func wrk(_ url: String, cookie: String, seconds: Int) throws -> Double {
        let binary = "/usr/bin/wrk"
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError("wrk is missing at \(binary): apt-get install -y wrk (scripts/bench installs it)")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["-t2", "-c32", "-d\(seconds)s", "-H", "Cookie: okit_session=\(cookie)", url]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        if text.contains("Non-2xx or 3xx responses") {
            throw BenchError("wrk got error responses from \(url): \(text.split(separator: "\n").last ?? "")")
        }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Requests/sec:") }),
              let rps = Double(line.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces)), rps > 0 else {
            throw BenchError("wrk printed no Requests/sec for \(url): \(text.suffix(300))")
        }
        return rps
    }

    /// A free loopback port (bound to port 0 and released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket() failed") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard bound else { throw BenchError("cannot bind a loopback port") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    /// Whether something answers HTTP on the loopback port.
    static func answers(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return false }
        var tv = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("HEAD / HTTP/1.0\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 1
    }

    // MARK: serve_push_p99

    /// `serve_push_p99`: `sessions` browser sessions on the list page with their live update stream open; a
    /// writer session renames a book they all show; the time from the write's POST until each stream yields
    /// `event: stale`, over `rounds` writes; the 99th percentile in ms (and the median).
    /// Between writes every viewer GETs its page again (that re-arms its watch); with a large shop that recompute
    /// is what takes the time, so `rounds` is small there.
    func servePush(sessions: Int = 100, rounds: Int = 20) async throws -> (p99: Double, median: Double) {
        let (first, writer, book) = try await readerAndWriter()
        var viewers = [first]
        for _ in 1..<sessions { viewers.append(BenchBrowser(web)) }
        let clock = PushClock()
        var listeners: [Task<Void, Never>] = []
        for v in viewers {
            guard (await v.get("/books")).status == 200 else { throw BenchError("a viewer's books page did not answer 200") }
            guard let events = await v.get("/events").events else { throw BenchError("/events gave no event stream") }
            listeners.append(Task.detached {
                for await message in events where message.hasPrefix("event: stale") { clock.arrived() }
            })
        }
        defer { for l in listeners { l.cancel() } }
        var latencies: [Double] = []
        let warmUp = rounds > 5 ? 2 : 1
        for k in 0..<(rounds + warmUp) {
            // Every viewer shows the current page (which re-arms its watch), then one write.
            for v in viewers { _ = await v.get("/books") }
            let form = await writer.form(from: book)
            clock.start()
            let r = await writer.post("/command", form + [("command", "set"), ("cell", "1"), ("value", "Alpha Alpha Alpha push \(k)")])
            guard r.status == 303 else { throw BenchError("set on \(book) answered \(r.status)") }
            let deadline = BenchRunner.now() + 10_000_000_000
            while clock.count < sessions {
                guard BenchRunner.now() < deadline else {
                    throw BenchError("only \(clock.count) of \(sessions) sessions got the stale event within 10 s")
                }
                try await Task.sleep(nanoseconds: 200_000)
            }
            if k >= warmUp { latencies += clock.take() } else { _ = clock.take() }
        }
        let sorted = latencies.sorted()
        let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
        return (p99, WebBench.median(latencies))
    }
}

/// A browser for the bench: keeps its cookie.
final class BenchBrowser: @unchecked Sendable {
    // @unchecked Sendable: used by one task at a time.
    var cookie: String?
    let web: WebApp
    init(_ web: WebApp) { self.web = web }

    func get(_ path: String) async -> WebResponse {
        let parts = path.split(separator: "?", maxSplits: 1).map(String.init)
        let r = await web.handle(WebRequest(method: "GET", path: parts[0], query: parts.count > 1 ? parts[1] : "", sessionCookie: cookie))
        take(r)
        return r
    }

    func post(_ path: String, _ form: [(name: String, value: String)]) async -> WebResponse {
        let r = await web.handle(WebRequest(method: "POST", path: path, form: form, sessionCookie: cookie))
        take(r)
        return r
    }

    func take(_ r: WebResponse) {
        if let c = r.headers.first(where: { $0.name == "Set-Cookie" })?.value {
            cookie = String(c.dropFirst("okit_session=".count).prefix { $0 != ";" })
        }
    }

    /// Posts a command from the page at `path` (its csrf, version and place), as the page's form does.
    func command(from path: String, _ fields: [(name: String, value: String)]) async -> WebResponse {
        await post("/command", await form(from: path) + fields)
    }

    /// The hidden fields of the forms on the page at `path` (fetched now).
    func form(from path: String) async -> [(name: String, value: String)] {
        let html = await get(path).text
        return [("csrf", BenchBrowser.attribute("data-csrf", html)), ("v", BenchBrowser.attribute("data-version", html)), ("at", path)]
    }

    static func attribute(_ name: String, _ html: String) -> String {
        guard let r = html.range(of: name + "=\"") else { return "" }
        return String(html[r.upperBound...].prefix { $0 != "\"" })
    }
}

extension WebResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// When the write started and when each stale event arrived (the listeners run on other threads).
final class PushClock: @unchecked Sendable {
    // @unchecked Sendable: every field is read and written with `lock` held.
    private let lock = NSLock()
    private var t0: UInt64 = 0
    private var arrivals: [Double] = []

    func start() { lock.lock(); t0 = BenchRunner.now(); arrivals = []; lock.unlock() }
    func arrived() {
        let t = BenchRunner.now()
        lock.lock(); arrivals.append(Double(t - t0) / 1e6); lock.unlock()
    }
    var count: Int { lock.lock(); defer { lock.unlock() }; return arrivals.count }
    func take() -> [Double] { lock.lock(); defer { lock.unlock() }; let a = arrivals; arrivals = []; return a }
}

/// The server's port once it listens, or why it could not.
final class PortBox: @unchecked Sendable {
    // @unchecked Sendable: `value` is read and written with `lock` held.
    private let lock = NSLock()
    private var value: Result<Int, Error>?
    func set(_ p: Int) { lock.lock(); value = .success(p); lock.unlock() }
    func fail(_ message: String) { lock.lock(); value = .failure(BenchError("the web server stopped: \(message)")); lock.unlock() }
    func get() -> Result<Int, Error>? { lock.lock(); defer { lock.unlock() }; return value }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

