import Foundation
import Testing

/// okit-run stores the state on SIGINT and SIGTERM (storage.md "State"), even while it waits for input, and exits
/// with 128 + the signal.
@Suite struct StopSignalTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aStopSignalStoresTheStateAndExits(_ sig: Int32) throws {
        try #require(FileManager.default.isExecutableFile(atPath: CommandLineTests.binary.path))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("in").path, out = dir.appendingPathComponent("out").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)        // keeps the fifo open: the app waits for more input
        #expect(writer >= 0)
        defer { close(writer) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, fifo, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let app = ReplayTests.root.appendingPathComponent("examples/bookshop/app.lua").path
        let data = dir.appendingPathComponent("data").path
        let args = [CommandLineTests.binary.path, app, "--data", data, "--json", "--clock", "virtual"]
        let argv = args.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The test runs on a pool thread that may block SIGINT/SIGTERM: start the app with an empty mask and the
        // default dispositions, as a shell would.
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
        let command = #"{"cmd":"add","text":"Stored On Signal"}"# + "\n"
        _ = command.withCString { write(writer, $0, strlen($0)) }
        // Wait for the answer, then signal the app while it waits for the next command.
        for _ in 0..<600 where ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").isEmpty { usleep(50_000) }
        #expect(((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains(#""ok":true"#))
        kill(pid, sig)
        // Wait at most 30 s, then kill it, so a regression fails the test instead of hanging the suite.
        var status: Int32 = 0, exited = false
        for _ in 0..<600 {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { exited = true; break }
            if r == -1, errno != EINTR { break }
            usleep(50_000)
        }
        if !exited { kill(pid, SIGKILL); waitpid(pid, &status, 0) }
        #expect(exited, "okit-run stops on the signal")
        #expect((status & 0x7f) == 0 && (status >> 8) & 0xff == 128 + sig, "exits with 128 + the signal after storing")
        let model = try String(contentsOfFile: dir.appendingPathComponent("data/okit/data/default.json").path, encoding: .utf8)
        #expect(model.contains("Stored On Signal"), "the state was stored (and compacted into the model file)")
    }
}
