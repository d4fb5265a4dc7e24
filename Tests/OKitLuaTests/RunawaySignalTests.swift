import Foundation
import Testing

/// Issue 13 hole 1: a tap that loops over short coroutines forever (with a budget too large to end it) is ended by
/// SIGTERM: okit-run stores what was typed before and exits with 143.
@Suite struct RunawaySignalTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Book", { name = "string" })
    okit.entity("Shop", { books = "[Book]" })
    shop = okit.model("Shop")
    okit.state { shop }
    okit.list("books", { type = "Book", dataPath = "books", titlePath = "%Books", add = "#true", addName = "name",
      tap = function(book, app) while true do coroutine.wrap(function() end)() end end })
    okit.app { home = "books" }
    """

    @Test func sigtermEndsARunawayTapAndStoresWhatWasTyped() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CommandLineTests.binary.path))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-runaway-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try RunawaySignalTests.app.write(to: dir.appendingPathComponent("app.lua"), atomically: true, encoding: .utf8)
        let fifo = dir.appendingPathComponent("in").path, out = dir.appendingPathComponent("out").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)
        #expect(writer >= 0)
        defer { close(writer) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, fifo, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let args = [CommandLineTests.binary.path, dir.appendingPathComponent("app.lua").path,
                    "--data", dir.appendingPathComponent("data").path, "--json", "--clock", "virtual",
                    "--lua-budget", "1000000000000000"]
        let argv = args.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        #expect(posix_spawn(&pid, args[0], &actions, &attributes, argv, environ) == 0)
        let add = #"{"cmd":"add","text":"Typed Before The Loop"}"# + "\n"
        _ = add.withCString { write(writer, $0, strlen($0)) }
        for _ in 0..<600 where ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").isEmpty { usleep(50_000) }
        #expect(((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains(#""ok":true"#))
        let tap = #"{"cmd":"back"}"# + "\n" + #"{"cmd":"tap","row":0}"# + "\n"
        _ = tap.withCString { write(writer, $0, strlen($0)) }
        usleep(500_000)   // the tap is running away now
        kill(pid, SIGTERM)
        var status: Int32 = 0, exited = false
        for _ in 0..<400 {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { exited = true; break }
            if r == -1, errno != EINTR { break }
            usleep(50_000)
        }
        if !exited { kill(pid, SIGKILL); waitpid(pid, &status, 0) }
        #expect(exited, "okit-run stops on SIGTERM during a runaway tap")
        #expect((status & 0x7f) == 0 && (status >> 8) & 0xff == 143, "exits with 143 after storing")
        let model = (try? String(contentsOfFile: dir.appendingPathComponent("data/okit/data/default.json").path, encoding: .utf8)) ?? ""
        #expect(model.contains("Typed Before The Loop"), "what was typed before is stored")
    }
}
