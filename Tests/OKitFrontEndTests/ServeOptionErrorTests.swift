import Foundation
import OKitTestSupport
import Testing

/// `okit-run serve`'s refusals of its options and of its address, as an operator reads them (web.md, cli.md): a
/// negative number said "Missing value for '--sessions <sessions>'", a bad `--client-header` was followed by the
/// usage of okit-run instead of serve's, and a port in use showed `bind(descriptor:ptr:bytes:): Address already in
/// use) (errno: 98)`.
@Suite struct ServeOptionErrorTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Note", { text = "string" })
    okit.entity("Pad", { notes = "[Note]" })
    okit.model("Pad")
    okit.list("notes", { type = "Note", dataPath = "notes", titlePath = "%Notes", cell = { path = "text" } })
    okit.app { id = "pad", home = "notes" }
    """

    func serve(_ options: [String], in folder: TempFolder) throws -> ChildResult {
        let app = folder.url.appendingPathComponent("app.lua")
        try Self.app.write(to: app, atomically: true, encoding: .utf8)
        return try OKitRun.run(["serve", app.path, "--data", folder.url.appendingPathComponent("data").path] + options, timeout: 60)
    }

    @Test(arguments: [
        (["--sessions", "-5"], "--sessions must be at least 1"),
        (["--idle-timeout", "-5"], "--idle-timeout must be more than 0"),
        (["--header-timeout", "-1"], "--header-timeout must be more than 0"),
        (["--max-connections", "-2"], "--max-connections must be at least 1"),
        (["--port", "-1"], "--port must be 0…65535"),
    ])
    func aNegativeNumberIsRefusedForItsValueNotAsMissing(options: [String], said: String) throws {
        let r = try serve(options, in: TempFolder())
        #expect(r.code == 2, "an option error (cli.md \"Exit codes\"): \(r.err)")
        #expect(r.err.contains(said), "\(r.err)")
        #expect(!r.err.contains("Missing value"), "\(r.err)")
        #expect(r.err.contains("Usage: okit-run serve"), "\(r.err)")
    }

    @Test func aBadClientHeaderShowsServesUsage() throws {
        let r = try serve(["--client-header", "X-Client"], in: TempFolder())
        #expect(r.code == 2, "an option error (cli.md \"Exit codes\"): \(r.err)")
        #expect(r.err.contains("--client-header X-Client is not a header okit-run serve reads"), "\(r.err)")
        #expect(r.err.contains("Usage: okit-run serve"), "\(r.err)")
        #expect(!r.err.contains("okit-run <subcommand>"), "\(r.err)")
    }

    @Test func aPortInUseIsSaidWithTheWayOut() throws {
        // A socket of the test's own listens on the port.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        try #require(bound == 0 && listen(fd, 1) == 0)
        var len = size
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        let port = UInt16(bigEndian: addr.sin_port)

        let r = try serve(["--port", "\(port)"], in: TempFolder())
        #expect(r.code == 4, "\(r.err)")
        #expect(r.err.contains("okit-run serve: cannot listen on 127.0.0.1:\(port): the address is in use (another server runs there?); choose another --port"),
                "\(r.err)")
        #expect(!r.err.contains("errno") && !r.err.contains("descriptor:"), "\(r.err)")
    }

    /// The data folder of a running server: the console gets okit-run's way out, as `backup create` says it, not
    /// the browser's "ask whoever runs this server" (the operator reading it is whoever runs it).
    @Test func aDataFolderInUseIsSaidWithOkitRunsWayOut() throws {
        let folder = try TempFolder()
        let app = folder.url.appendingPathComponent("app.lua")
        try Self.app.write(to: app, atomically: true, encoding: .utf8)
        let data = folder.url.appendingPathComponent("data").path
        let running = try ChildProcess.start(OKitRun.binary.path, ["serve", app.path, "--port", "0", "--data", data], stderr: .stdout)
        defer { running.signal(SIGKILL); _ = running.wait(timeout: 10) }
        _ = try #require(ServeProcessTests.port(running), "\(running.outputSoFar)")
        let r = try serve(["--port", "0"], in: folder)
        #expect(r.code != 0, "\(r.err)")
        #expect(r.err.contains("the data folder is in use by another okit process; quit it first, or use another --data folder"), "\(r.err)")
        #expect(!r.err.contains("whoever runs"), "\(r.err)")
    }
}
