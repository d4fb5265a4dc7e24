import Foundation
import Testing

/// Issue 13, hole 9: when the program reading the JSON-lines answers goes away, okit-run died on SIGPIPE (exit
/// 141) without storing. A broken stdout ends the session as the end of input does: store, then exit 0.
@Suite struct BrokenPipeTests {
    @Test func aClosedReaderEndsTheSessionAndTheStateIsStored() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CommandLineTests.binary.path))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-pipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("in").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)        // keeps the fifo open: the app waits for more input
        #expect(writer >= 0)
        defer { close(writer) }
        var pipeFds: [Int32] = [0, 0]
        #expect(pipe(&pipeFds) == 0)
        let (readEnd, writeEnd) = (pipeFds[0], pipeFds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, fifo, O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let app = ReplayTests.root.appendingPathComponent("examples/bookshop/app.lua").path
        let data = dir.appendingPathComponent("data").path
        let args = [CommandLineTests.binary.path, app, "--data", data, "--json", "--clock", "virtual"]
        let argv = args.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // As a shell starts it: SIGPIPE at its default (a test runner may ignore it, and that is inherited).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        #expect(posix_spawn(&pid, args[0], &actions, &attributes, argv, environ) == 0)
        close(writeEnd)
        func send(_ line: String) { _ = (line + "\n").withCString { write(writer, $0, strlen($0)) } }
        send(#"{"cmd":"add","text":"Typed Before The Reader Left"}"#)
        // Read the first answer, then the reader goes away.
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !answer.contains(0x0A) {
            let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            answer += buffer[..<n]
        }
        #expect(String(decoding: answer, as: UTF8.self).contains(#""ok":true"#))
        close(readEnd)
        send(#"{"cmd":"screen"}"#)
        send(#"{"cmd":"screen"}"#)
        // Wait at most 30 s, then kill it, so a regression fails the test instead of hanging the suite.
        var status: Int32 = 0, exited = false
        for _ in 0..<600 {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { exited = true; break }
            if r == -1, errno != EINTR { break }
            usleep(50_000)
        }
        if !exited { kill(pid, SIGKILL); waitpid(pid, &status, 0) }
        #expect(exited, "okit-run ends when its stdout is broken")
        #expect((status & 0x7f) == 0, "not killed by a signal (SIGPIPE): status \(status)")
        #expect((status >> 8) & 0xff == 0, "exits as at the end of input")
        let model = try String(contentsOfFile: dir.appendingPathComponent("data/okit/data/default.json").path, encoding: .utf8)
        #expect(model.contains("Typed Before The Reader Left"), "the session's row was stored")
    }
}

/// Messages to a stderr or stdout that cannot be written (closed, a full disk) are dropped, never a crash
/// (Foundation's FileHandle.write traps on a failed write).
@Suite struct UnwritableStreamTests {
    /// Runs okit-run with `fd` opened on `path` (nil: closed); returns how it ended (exit code, or 128 + signal).
    func run(_ args: [String], fd: Int32, path: String?) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for other in [Int32(1), 2] where other != fd { posix_spawn_file_actions_addopen(&actions, other, "/dev/null", O_WRONLY, 0) }
        if let path { posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY, 0) } else { posix_spawn_file_actions_addclose(&actions, fd) }
        let all = [CommandLineTests.binary.path] + args
        let argv = all.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, CommandLineTests.binary.path, &actions, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    @Test func aClosedOrFullStderrDoesNotCrash() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CommandLineTests.binary.path))
        #expect(try run(["/nonexistent/app.lua"], fd: 2, path: nil) == 2, "closed stderr: the usual exit code")
        #expect(try run(["/nonexistent/app.lua"], fd: 2, path: "/dev/full") == 2, "full stderr: the usual exit code")
    }
}
