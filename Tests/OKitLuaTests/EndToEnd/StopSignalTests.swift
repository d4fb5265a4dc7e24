import Foundation
import Testing
import OKitTestSupport

/// okit-run stores the state on SIGINT, SIGTERM and SIGHUP (protection.md "Autosave and stopping"), even while it
/// waits for input, and exits with 128 + the signal. SIGHUP is the terminal closing: an outside tester lost every
/// change since the start when the terminal window closed.
@Suite struct StopSignalTests {
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aStopSignalStoresTheStateAndExits(_ sig: Int32) throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("in").path, out = dir.appendingPathComponent("out").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)        // keeps the fifo open: the app waits for more input
        #expect(writer >= 0)
        defer { close(writer) }
        let app = OKitRun.root.appendingPathComponent("examples/bookshop/app.lua").path
        let data = dir.appendingPathComponent("data").path
        // Started as a shell would: an empty signal mask, SIGINT, SIGTERM and SIGHUP at their defaults.
        let child = try ChildProcess.start(OKitRun.binary.path, [app, "--data", data, "--json", "--clock", "virtual"],
                                           stdin: .file(fifo), stdout: .file(out), stderr: .null)
        let command = #"{"cmd":"add","text":"Stored On Signal"}"# + "\n"
        _ = command.withCString { write(writer, $0, strlen($0)) }
        // Wait for the answer, then signal the app while it waits for the next command.
        for _ in 0..<600 where ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").isEmpty { usleep(50_000) }
        #expect(((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains(#""ok":true"#))
        child.signal(sig)
        // Wait at most 30 s, then kill it, so a regression fails the test instead of hanging the suite.
        let r = child.wait(timeout: 30)
        #expect(!r.timedOut, "okit-run stops on the signal")
        #expect(r.signal == nil && r.code == 128 + sig, "exits with 128 + the signal after storing")
        let model = try String(contentsOfFile: dir.appendingPathComponent("data/okit/data/default.json").path, encoding: .utf8)
        #expect(model.contains("Stored On Signal"), "the state was stored (and compacted into the model file)")
    }
}
