import Foundation
import Testing
import OKitTestSupport

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
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-runaway-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try RunawaySignalTests.app.write(to: dir.appendingPathComponent("app.lua"), atomically: true, encoding: .utf8)
        let fifo = dir.appendingPathComponent("in").path, out = dir.appendingPathComponent("out").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)
        #expect(writer >= 0)
        defer { close(writer) }
        let args = [dir.appendingPathComponent("app.lua").path,
                    "--data", dir.appendingPathComponent("data").path, "--json", "--clock", "virtual",
                    "--lua-budget", "1000000000000000"]
        let child = try ChildProcess.start(OKitRun.binary.path, args, stdin: .file(fifo), stdout: .file(out), stderr: .null)
        let add = #"{"cmd":"add","text":"Typed Before The Loop"}"# + "\n"
        _ = add.withCString { write(writer, $0, strlen($0)) }
        for _ in 0..<600 where ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").isEmpty { usleep(50_000) }
        #expect(((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains(#""ok":true"#))
        let tap = #"{"cmd":"back"}"# + "\n" + #"{"cmd":"tap","row":0}"# + "\n"
        _ = tap.withCString { write(writer, $0, strlen($0)) }
        usleep(500_000)   // the tap is running away now
        child.signal(SIGTERM)
        let r = child.wait(timeout: 20)
        #expect(!r.timedOut, "okit-run stops on SIGTERM during a runaway tap")
        #expect(r.signal == nil && r.code == 143, "exits with 143 after storing")
        let model = (try? String(contentsOfFile: dir.appendingPathComponent("data/okit/data/default.json").path, encoding: .utf8)) ?? ""
        #expect(model.contains("Typed Before The Loop"), "what was typed before is stored")
    }
}
