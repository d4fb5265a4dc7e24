import Foundation
import Testing
import OKitTestSupport

/// Issue 13, hole 9: when the program reading the JSON-lines answers goes away, okit-run died on SIGPIPE (exit
/// 141) without storing. A broken stdout ends the session as the end of input does: store, then exit 0.
@Suite struct BrokenPipeTests {
    @Test func aClosedReaderEndsTheSessionAndTheStateIsStored() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-pipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("in").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Close-on-exec: no other child spawned meanwhile (tests run in parallel) may hold these ends open.
        let writer = open(fifo, O_RDWR | O_CLOEXEC)        // keeps the fifo open: the app waits for more input
        #expect(writer >= 0)
        defer { close(writer) }
        var pipeFds: [Int32] = [0, 0]
        #expect(pipe(&pipeFds) == 0)
        for fd in pipeFds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let (readEnd, writeEnd) = (pipeFds[0], pipeFds[1])
        let app = OKitRun.root.appendingPathComponent("examples/bookshop/app.lua").path
        let data = dir.appendingPathComponent("data").path
        // As a shell starts it: SIGPIPE at its default (a test runner may ignore it, and that is inherited).
        let child = try ChildProcess.start(OKitRun.binary.path, [app, "--data", data, "--json", "--clock", "virtual"],
                                           stdin: .file(fifo), stdout: .descriptor(writeEnd), stderr: .null, closing: [readEnd])
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
        let r = child.wait(timeout: 30)
        #expect(!r.timedOut, "okit-run ends when its stdout is broken")
        #expect(r.signal == nil, "not killed by a signal (SIGPIPE): code \(r.code)")
        #expect(r.code == 0, "exits as at the end of input")
        let model = try String(contentsOfFile: dir.appendingPathComponent("data/okit/data/default.json").path, encoding: .utf8)
        #expect(model.contains("Typed Before The Reader Left"), "the session's row was stored")
    }
}

/// Messages to a stderr or stdout that cannot be written (closed, a full disk) are dropped, never a crash
/// (Foundation's FileHandle.write traps on a failed write).
@Suite struct UnwritableStreamTests {
    /// Runs okit-run with `fd` opened on `path` (nil: closed); returns how it ended (exit code, or 128 + signal).
    func run(_ args: [String], fd: Int32, path: String?) throws -> Int32 {
        let stream: ChildStream = path.map { .device($0) } ?? .closed
        return try ChildProcess.run(OKitRun.binary.path, args, stdout: fd == 1 ? stream : .null, stderr: fd == 2 ? stream : .null).code
    }

    @Test func aClosedOrFullStderrDoesNotCrash() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        #expect(try run(["/nonexistent/app.lua"], fd: 2, path: nil) == 2, "closed stderr: the usual exit code")
        #expect(try run(["/nonexistent/app.lua"], fd: 2, path: "/dev/full") == 2, "full stderr: the usual exit code")
    }
}
