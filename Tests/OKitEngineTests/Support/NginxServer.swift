import Foundation
import OKitTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real nginx with WebDAV on a free loopback port, in its own temporary prefix, stopped when released.
///
/// Its `server` block is the one in docs/http.md (so the documented configuration is the tested one), with the
/// port, the folder and one test-only line: nginx's WebDAV module ignores `If-Match`, so a PUT with
/// `If-Match: "stale"` is answered 412 by the configuration itself.
final class NginxServer {
    static let binary = "/usr/sbin/nginx"
    /// The test-only conflict rule, placed first in the `/okit/` location.
    static let staleRule = #"if ($http_if_match = "\"stale\"") { return 412; }"#

    let prefix: URL
    private(set) var port: UInt16 = 0
    private var pid: pid_t = 0

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw TestServerError("nginx is missing at \(Self.binary): install nginx: apt-get install -y nginx (scripts/test installs it)")
        }
        prefix = FileManager.default.temporaryDirectory.appendingPathComponent("okit-nginx-\(UUID().uuidString)")
        for folder in ["www", "tmp", "logs"] {
            try FileManager.default.createDirectory(at: prefix.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let server = try Self.documentedServerBlock()
        var lastError = ""
        for _ in 0..<5 {
            port = try Loopback.freePort()
            let config = prefix.appendingPathComponent("nginx.conf")
            try Self.config(server: server, prefix: prefix.path, port: port).write(to: config, atomically: true, encoding: .utf8)
            pid = try Self.spawn([Self.binary, "-p", prefix.path + "/", "-c", config.path, "-e", prefix.path + "/logs/error.log"],
                                 output: prefix.path + "/logs/stderr.log")
            if waitUntilListening() { return }
            lastError = (try? String(contentsOfFile: prefix.path + "/logs/error.log", encoding: .utf8)) ?? ""
            stop()
            if !lastError.contains("Address already in use") { break }   // a port taken meanwhile: try another
        }
        try? FileManager.default.removeItem(at: prefix)
        throw TestServerError("nginx did not start:\n\(lastError)")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: prefix)
    }

    /// `http://127.0.0.1:<port>/okit`.
    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/okit")! }

    /// A file as nginx holds it on disk (`relative` to the endpoint), or nil.
    func file(_ relative: String) -> [UInt8]? {
        FileManager.default.contents(atPath: prefix.path + "/www/okit/" + relative).map { [UInt8]($0) }
    }

    /// Writes a file on nginx's disk behind its back (another client's change).
    func write(_ relative: String, _ bytes: [UInt8]) throws {
        let url = prefix.appendingPathComponent("www/okit/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// SIGTERM to the master (it stops its worker), then waits for it.
    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        pid = 0
    }

    /// Polls until nginx answers an HTTP request (its worker is up, not only the master's socket); false when
    /// nginx exited or 20 s passed.
    private func waitUntilListening() -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { pid = 0; return false }
            let fd = Loopback.connect(port: port)
            if fd >= 0 {
                defer { close(fd) }
                Loopback.setReceiveTimeout(fd, seconds: 2)
                Loopback.sendAll(fd, Array("HEAD /okit/ HTTP/1.0\r\n\r\n".utf8))
                var byte: UInt8 = 0
                if recv(fd, &byte, 1, 0) == 1 { return true }
            }
            usleep(20_000)
        }
        return false
    }

    /// The `server { … }` block of docs/http.md's nginx example.
    static func documentedServerBlock() throws -> String {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/http.md")
        guard let text = try? String(contentsOf: docs, encoding: .utf8),
              let fence = text.range(of: "```nginx\n"),
              let end = text.range(of: "```", range: fence.upperBound..<text.endIndex) else {
            throw TestServerError("docs/http.md has no ```nginx block (the tested configuration lives there)")
        }
        return String(text[fence.upperBound..<end.lowerBound])
    }

    /// The whole configuration: the documented server block on this port and prefix, plus the stale rule.
    static func config(server: String, prefix: String, port: UInt16) -> String {
        var block = server
            .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
            .replacingOccurrences(of: "/srv/okit", with: prefix)
        block = block.replacingOccurrences(of: "location /okit/ {\n", with: "location /okit/ {\n        \(staleRule)\n")
        return """
        daemon off;
        master_process on;
        worker_processes 1;
        \(getuid() == 0 ? "user root;" : "")
        pid \(prefix)/nginx.pid;
        error_log \(prefix)/logs/error.log;
        events { worker_connections 64; }
        http {
            access_log off;
            default_type application/octet-stream;
            proxy_temp_path \(prefix)/tmp/proxy;
            fastcgi_temp_path \(prefix)/tmp/fastcgi;
            uwsgi_temp_path \(prefix)/tmp/uwsgi;
            scgi_temp_path \(prefix)/tmp/scgi;
        \(block)
        }

        """
    }

    /// Starts a program (stdin from /dev/null, stdout and stderr to `output`) and returns at once.
    static func spawn(_ argv: [String], output: String) throws -> pid_t {
        do {
            return try ChildProcess.start(argv[0], Array(argv.dropFirst()), stdout: .file(output), stderr: .stdout).pid
        } catch { throw TestServerError("cannot start \(argv[0]): \(error)") }
    }
}
