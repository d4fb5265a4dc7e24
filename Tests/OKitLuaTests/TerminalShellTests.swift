import Foundation
import Testing

/// The terminal shell as a person uses it: tmux runs okit-run, send-keys types, capture-pane reads the screen.
@Suite struct TerminalShellTests {
    func tmux(_ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits (bounded) until the pane shows `text`.
    func waitFor(_ text: String, session: String) throws -> String {
        var screen = ""
        for _ in 0..<100 {
            screen = try tmux(["capture-pane", "-t", session, "-p"])
            if screen.contains(text) { return screen }
            usleep(50_000)
        }
        return screen
    }

    @Test func aPersonSearchesTapsEditsAndQuits() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is installed by scripts/test")
        try #require(FileManager.default.isExecutableFile(atPath: CommandLineTests.binary.path))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("okit-tmux-\(UUID().uuidString)")
        let session = "okit-test-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        let command = "\(CommandLineTests.binary.path) \(root.appendingPathComponent("examples/bookshop/app.lua").path) --data \(data.path) --no-color; echo EXIT=$?; sleep 30"
        _ = try tmux(["new-session", "-d", "-s", session, "-x", "140", "-y", "50", command])
        defer { _ = try? tmux(["kill-session", "-t", session]) }
        var screen = try waitFor("2. Emma", session: session)
        #expect(screen.contains("Book Shop — 2 Books") && screen.contains("1. Dune — not marked"))
        _ = try tmux(["send-keys", "-t", session, "search em", "Enter"])
        screen = try waitFor("search: \"em\"", session: session)
        _ = try tmux(["send-keys", "-t", session, "tap Emma", "Enter"])
        screen = try waitFor("Book — Emma", session: session)
        _ = try tmux(["send-keys", "-t", session, "set Copies 4", "Enter"])
        screen = try waitFor("edit mode only", session: session)
        #expect(screen.contains("takes values in edit mode only"), "an error is one line and the session goes on")
        _ = try tmux(["send-keys", "-t", session, "edit on", "Enter"])
        _ = try tmux(["send-keys", "-t", session, "set Copies 4", "Enter"])
        screen = try waitFor("Copies [4]", session: session)
        #expect(screen.contains("Copies [4]"))
        _ = try tmux(["send-keys", "-t", session, "quit", "Enter"])
        screen = try waitFor("EXIT=", session: session)
        #expect(screen.contains("EXIT=0"))
        let stored = try String(contentsOf: data.appendingPathComponent("okit/data/default.json"), encoding: .utf8)
        #expect(stored.contains("\"copies\":4"), "quit stores the state")
    }
}
