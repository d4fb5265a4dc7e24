import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL cluster from Debian's `postgresql` package (storage.md "Shared models on PostgreSQL":
/// no mock): initdb into a temporary folder (`--auth=trust -U okit -E UTF8 --locale=C`), a free TCP port on
/// 127.0.0.1, the database `okit`. Each test takes a database of its own (`createDatabase()`), so one cluster
/// serves tests running in parallel (`shared()`). When the tests run as root the server runs as the `postgres`
/// user (initdb refuses root): its programs run through `runuser -u postgres --` and the folder is postgres's.
///
/// `stop()` (also at deinit) stops the server and removes the folder; a watchdog shell does the same if the test
/// process dies without it. apptests/lib/pgcluster.py is the same for the Python drivers.
public final class PostgresCluster: Sendable {
    /// The bin folder of the highest PostgreSQL version under /usr/lib/postgresql, or nil.
    public static let binDirectory: String? = {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap { name -> (Double, String)? in
            guard let v = Double(name), FileManager.default.isExecutableFile(atPath: "\(root)/\(name)/bin/initdb") else { return nil }
            return (v, "\(root)/\(name)/bin")
        }
        return versions.max { $0.0 < $1.0 }?.1
    }()

    /// PostgreSQL's programs are installed.
    public static var isAvailable: Bool { binDirectory != nil }

    /// Why a test that needs PostgreSQL cannot run (for `.enabled(if: PostgresCluster.isAvailable, …)`).
    public static let unavailable = "no PostgreSQL binaries in /usr/lib/postgresql/*/bin: apt-get install -y postgresql (scripts/test installs it)"

    public let bin: String
    /// The temporary folder: `data/`, `sockets/`, `server.log`.
    public let folder: URL
    public let port: UInt16
    public let user = "okit"
    /// The database created at start (the others come from `createDatabase`).
    public let database = "okit"
    /// fsync on (a cluster whose durability a test relies on) or off (faster).
    public let fsync: Bool
    let asPostgres: Bool

    struct State {
        var running = true
        var stopped = false
        var databases = 0
        var watchdog: pid_t = 0
    }
    let state = Mutex(State())

    private init(bin: String, folder: URL, port: UInt16, fsync: Bool, asPostgres: Bool) {
        self.bin = bin
        self.folder = folder
        self.port = port
        self.fsync = fsync
        self.asPostgres = asPostgres
    }

    deinit { stop() }

    var dataPath: String { folder.appendingPathComponent("data").path }
    var socketsPath: String { folder.appendingPathComponent("sockets").path }
    /// The server's log (its messages on a failure).
    public var logPath: String { folder.appendingPathComponent("server.log").path }

    /// `postgres://okit@127.0.0.1:PORT/okit`.
    public var url: String { url(database: database) }

    /// `postgres://okit[:password]@127.0.0.1:PORT/DATABASE`.
    public func url(database: String, password: String? = nil) -> String {
        "postgres://\(user)\(password.map { ":" + $0 } ?? "")@127.0.0.1:\(port)/\(database)"
    }

    /// The server is running (not stopped, killed or between `stopServer` and `startServer`).
    public var isRunning: Bool { state.withLock { $0.running } }

    // MARK: Starting

    /// initdb, start on a free port, create the database `okit`, start the watchdog.
    public static func start(fsync: Bool = false) throws -> PostgresCluster {
        guard let bin = binDirectory else { throw PostgresClusterError(unavailable) }
        let asPostgres = geteuid() == 0
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-pg-\(UUID().uuidString.prefix(8))")
        let sockets = folder.appendingPathComponent("sockets")
        try FileManager.default.createDirectory(at: sockets, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
        do {
            if asPostgres {
                guard let pw = getpwnam("postgres") else {
                    throw PostgresClusterError("running as root, and there is no user postgres to run the server as")
                }
                for path in [folder.path, sockets.path] { chown(path, pw.pointee.pw_uid, pw.pointee.pw_gid) }
            }
            let data = folder.appendingPathComponent("data").path
            let log = folder.appendingPathComponent("server.log").path
            try server(bin, asPostgres, ["initdb", "-D", data, "--auth=trust", "-U", "okit", "-E", "UTF8", "--locale=C",
                                         "--no-instructions"] + (fsync ? [] : ["--no-sync"]), log: log)
            var lastError: Error?
            for _ in 0..<5 {
                let port = try freePort()
                let cluster = PostgresCluster(bin: bin, folder: folder, port: port, fsync: fsync, asPostgres: asPostgres)
                do {
                    try cluster.launch()
                } catch {
                    lastError = error
                    cluster.state.withLock { $0.running = false; $0.stopped = true }   // the folder stays for the next try
                    let log = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                    if log.contains("could not bind") { continue }                       // the port was taken meanwhile
                    break
                }
                cluster.startWatchdog()
                do {
                    _ = try cluster.psql("CREATE DATABASE \"\(cluster.database)\"", database: "postgres")
                } catch {
                    cluster.stop()
                    throw error
                }
                return cluster
            }
            throw lastError ?? PostgresClusterError("the server did not start")
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    private static let sharedCluster = Mutex<PostgresCluster?>(nil)

    /// One cluster (fsync off) for every test of the process that needs no cluster of its own, started on first use
    /// and stopped when the process exits; give each test its own database (`createDatabase()`).
    public static func shared() throws -> PostgresCluster {
        try sharedCluster.withLock { shared in
            if let shared { return shared }
            let cluster = try start()
            shared = cluster
            atexit { PostgresCluster.stopShared() }
            return cluster
        }
    }

    private static func stopShared() {
        let cluster = sharedCluster.withLock { shared -> PostgresCluster? in
            defer { shared = nil }
            return shared
        }
        cluster?.stop()
    }

    // MARK: The server

    /// The options of every start: the port, the socket folder, loopback only; fsync off unless `fsync`.
    var options: String {
        var o = ["-p", "\(port)", "-k", socketsPath, "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300",
                 "-c", "shared_buffers=32MB"]
        // fsync off is safe against a crash of the server (`kill()`), not of the machine: commits still reach the OS
        // before they return (synchronous_commit stays on; off would lose the last commits in a `kill()`).
        if !fsync { o += ["-c", "fsync=off", "-c", "full_page_writes=off"] }
        return o.joined(separator: " ")
    }

    private func launch() throws {
        try Self.server(bin, asPostgres, ["pg_ctl", "-D", dataPath, "-l", logPath, "-w", "-t", "60", "-o", options, "start"],
                        log: logPath, detached: true)
    }

    /// Starts the server again on its port (after `stopServer` or `kill`; a crash is recovered from).
    public func startServer() throws {
        try launch()
        state.withLock { $0.running = true }
    }

    /// `pg_ctl stop -m MODE` (`fast` ends the sessions; `immediate` is a crash-like stop); the folder stays.
    public func stopServer(mode: String = "fast") throws {
        guard isRunning else { return }
        try Self.server(bin, asPostgres, ["pg_ctl", "-D", dataPath, "-m", mode, "-w", "-t", "60", "stop"], log: logPath)
        state.withLock { $0.running = false }
    }

    /// Stops the server (fast) and starts it again on the same port: the database restarted under load.
    public func restart() throws {
        try stopServer(mode: "fast")
        try startServer()
    }

    /// A crash: SIGKILL to the postmaster and every process it started. `startServer` recovers.
    public func kill() {
        guard let text = try? String(contentsOfFile: dataPath + "/postmaster.pid", encoding: .utf8),
              let pid = text.split(separator: "\n").first.flatMap({ pid_t($0) }) else { return }
        let all = [pid] + Self.children(of: pid)
        for p in all { Self.signal(p, SIGKILL) }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, all.contains(where: Self.isAlive) { usleep(20_000) }
        // Dead, but a zombie until init reaps it, the postmaster's pid would pass for a live server's in
        // postmaster.pid: wait for the reaping, else call the file stale.
        let reaped = Date().addingTimeInterval(5)
        while Date() < reaped, FileManager.default.fileExists(atPath: "/proc/\(pid)") { usleep(20_000) }
        if FileManager.default.fileExists(atPath: "/proc/\(pid)"), !Self.isAlive(pid) {
            unlink(dataPath + "/postmaster.pid")
        }
        state.withLock { $0.running = false }
    }

    /// Stops the server (immediately: nothing in it is kept), ends the watchdog and removes the folder. Idempotent.
    public func stop() {
        let (wasRunning, watchdog, already) = state.withLock { s -> (Bool, pid_t, Bool) in
            defer { s.stopped = true; s.running = false; s.watchdog = 0 }
            return (s.running, s.watchdog, s.stopped)
        }
        if already { return }
        if wasRunning {
            do {
                try Self.server(bin, asPostgres, ["pg_ctl", "-D", dataPath, "-m", "immediate", "-w", "-t", "60", "stop"], log: logPath)
            } catch {
                state.withLock { $0.running = true }
                kill()
            }
        }
        try? FileManager.default.removeItem(at: folder)
        if watchdog > 0 {                          // last: killed before this, the test process leaves it the rest
            Self.signal(watchdog, SIGKILL)
            var status: Int32 = 0
            while waitpid(watchdog, &status, 0) == -1, errno == EINTR {}
        }
    }

    /// A detached shell that stops the server and removes the folder once this process is gone.
    private func startWatchdog() {
        let stopCommand = Self.command(bin, asPostgres, ["pg_ctl", "-D", dataPath, "-m", "immediate", "stop"])
            .map(Self.shellQuoted).joined(separator: " ")
        let script = "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(stopCommand) >/dev/null 2>&1; rm -rf \(Self.shellQuoted(folder.path))"
        if let child = try? ChildProcess.start("/bin/bash", ["-c", Self.closingDescriptors, "bash", "/usr/bin/setsid", "/bin/sh", "-c", script],
                                                stdout: .null, stderr: .null) {
            state.withLock { $0.watchdog = child.pid }
        }
    }

    // MARK: Databases and SQL

    /// Creates a database of its own for a test (`name`, else a fresh one) and returns its URL.
    public func createDatabase(_ name: String? = nil) throws -> String {
        let n = state.withLock { s -> Int in s.databases += 1; return s.databases }
        let db = name ?? "t\(n)_\(UUID().uuidString.prefix(8).lowercased())"
        _ = try psql("CREATE DATABASE \"\(db)\"", database: "postgres")
        return url(database: db)
    }

    /// Runs `sql` (one or more statements) with `psql -At` on `database` (a name or a URL; default `okit`) and
    /// returns its output without the last newline; throws with psql's stderr when it fails.
    @discardableResult
    public func psql(_ sql: String, database: String? = nil, timeout: Double = 60) throws -> String {
        let db = database.map(Self.databaseName) ?? self.database
        let r = try ChildProcess.run(bin + "/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
                                                     "-p", "\(port)", "-U", user, "-d", db],
                                     stdin: .text(sql), environment: Self.clientEnvironment, timeout: timeout)
        guard r.code == 0 else {
            throw PostgresClusterError("psql failed (exit \(r.code)) on:\n  \(sql.trimmingCharacters(in: .whitespacesAndNewlines))\n\(r.err.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return r.out.hasSuffix("\n") ? String(r.out.dropLast()) : r.out
    }

    /// The server's log, the last `count` characters.
    public func serverLog(last count: Int = 4000) -> String {
        String(((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "(no server log)").suffix(count))
    }

    // MARK: Helpers

    static func databaseName(_ text: String) -> String {
        guard text.contains("://"), let last = text.split(separator: "/").last else { return text }
        return String(last.split(separator: "?").first ?? last)
    }

    /// The test's environment without libpq's variables (PGPASSWORD, PGHOST… of the caller must not leak in).
    static var clientEnvironment: [String: String?] {
        var env: [String: String?] = [:]
        for key in ProcessInfo.processInfo.environment.keys where key.hasPrefix("PG") { env[key] = .some(nil) }
        env["PGCONNECT_TIMEOUT"] = "10"
        return env
    }

    /// bash closing every inherited descriptor above 2, then running its arguments: a long-lived server must not
    /// keep a pipe of a test running in parallel open (that test would never see its end of file).
    static let closingDescriptors = #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-"; done; exec "$@""#

    static func command(_ bin: String, _ asPostgres: Bool, _ args: [String]) -> [String] {
        let program = ["\(bin)/\(args[0])"] + args.dropFirst()
        return asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + program : program
    }

    /// Runs one of the server's programs (as postgres when root); `detached` runs it through `closingDescriptors`.
    static func server(_ bin: String, _ asPostgres: Bool, _ args: [String], log: String, detached: Bool = false) throws {
        let argv = command(bin, asPostgres, args)
        let r = detached
            ? try ChildProcess.run("/bin/bash", ["-c", closingDescriptors, "bash"] + argv, environment: clientEnvironment)
            : try ChildProcess.run(argv[0], Array(argv.dropFirst()), environment: clientEnvironment)
        guard r.code == 0 else {
            let serverLog = String(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "(no server log)").suffix(4000))
            throw PostgresClusterError("\(args[0]) failed (exit \(r.code)):\n\(r.out)\(r.err)\n--- server log ---\n\(serverLog)")
        }
    }

    static func signal(_ pid: pid_t, _ signal: Int32) {
        #if canImport(Glibc)
        _ = Glibc.kill(pid, signal)
        #else
        _ = Darwin.kill(pid, signal)
        #endif
    }

    static func shellQuoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, read back, released).
    public static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw PostgresClusterError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        guard bound == 0 else { throw PostgresClusterError("bind: \(String(cString: strerror(errno)))") }
        var len = size
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return UInt16(bigEndian: addr.sin_port)
    }

    /// The pids whose parent is `pid` (from /proc).
    static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> pid_t? in
            guard let child = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
        }
    }

    /// The process exists and is not a zombie.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }
}

/// A cluster that could not be set up, started or stopped, or a psql that failed: the message says what it printed.
public struct PostgresClusterError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
