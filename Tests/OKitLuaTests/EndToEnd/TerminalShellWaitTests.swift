import Foundation
import Testing
import OKitTestSupport

/// The terminal shell waiting at its prompt (an outside tester's finding: `autosave = 60` never stored while the
/// shell waited): timers of the system clock fire, and what was typed so far stays as it was.
@Suite struct TerminalShellWaitTests {
    let socket = "okit-wait-\(getpid())-\(Int.random(in: 0..<1_000_000))"

    func tmux(_ args: [String]) throws -> String {
        try ChildProcess.run("/usr/bin/tmux", ["-L", socket] + args, stderr: .null).out
    }

    /// Waits (bounded, `seconds`) until `done` holds for the pane's text; returns the last text.
    func waitFor(_ session: String, seconds: Double = 10, _ done: (String) -> Bool) throws -> String {
        var screen = ""
        for _ in 0..<Int(seconds * 20) {
            screen = try tmux(["capture-pane", "-t", session, "-p"])
            if done(screen) { return screen }
            usleep(50_000)
        }
        return screen
    }

    /// Whether any file of the data folder holds `text` (the model file or its journal).
    func stored(_ text: String, in data: URL) -> Bool {
        let files = FileManager.default.enumerator(at: data.appendingPathComponent("okit/data"), includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            if let bytes = try? Data(contentsOf: file), bytes.range(of: Data(text.utf8)) != nil { return true }
        }
        return false
    }

    @Test func autosaveStoresWhileTheShellWaitsAndTheLineTypedStays() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is installed by scripts/test")
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-wait-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The bookshop, autosaving every second instead of every minute.
        let shop = dir.appendingPathComponent("bookshop")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: OKitRun.root.appendingPathComponent("examples/bookshop"), to: shop)
        let appFile = shop.appendingPathComponent("app.lua")
        let source = try String(contentsOf: appFile, encoding: .utf8)
        #expect(source.contains("autosave = 60"))
        try source.replacingOccurrences(of: "autosave = 60", with: "autosave = 1").write(to: appFile, atomically: true, encoding: .utf8)
        let data = dir.appendingPathComponent("data")
        let session = "okit"
        let command = "\(OKitRun.binary.path) \(appFile.path) --data \(data.path) --no-color; echo EXIT=$?; sleep 30"
        _ = try tmux(["new-session", "-d", "-s", session, "-x", "140", "-y", "50", command])
        defer { _ = try? tmux(["kill-server"]) }
        _ = try waitFor(session) { $0.contains("2. Emma") }
        _ = try tmux(["send-keys", "-t", session, "add Zeta", "Enter"])
        _ = try waitFor(session) { $0.contains("Zeta —") }
        // Half a command typed, then the person waits: autosave stores what the add changed.
        _ = try tmux(["send-keys", "-t", session, "add Yon"])
        _ = try waitFor(session, seconds: 8) { _ in stored("Zeta", in: data) }
        #expect(stored("Zeta", in: data), "autosave stored the added book while the shell waited at its prompt")
        // The rest of the line: what was typed before stays, once.
        _ = try tmux(["send-keys", "-t", session, "der", "Enter"])
        let screen = try waitFor(session) { $0.contains("Yonder —") }
        #expect(screen.contains("> add Yonder"), "the line typed before the wait goes on: \(screen)")
        #expect(!screen.contains("Yon —") && !screen.contains("add Yonadd"), "nothing typed is lost or doubled: \(screen)")
        _ = try tmux(["send-keys", "-t", session, "quit", "Enter"])
        #expect(try waitFor(session) { $0.contains("EXIT=") }.contains("EXIT=0"))
    }
}
