import Foundation
import Testing
import OKitTestSupport

/// Validation in the terminal shell (screens.md "Snapshots"): a refused `set` is one error line and the session
/// goes on; a cell whose value breaks a rule shows `! message` under its line until a valid value is set.
@Suite struct TerminalShellValidationTests {
    let socket = "okit-test-\(getpid())-\(Int.random(in: 0..<1_000_000))"

    func tmux(_ args: [String]) throws -> String {
        try ChildProcess.run("/usr/bin/tmux", ["-L", socket] + args, stderr: .null).out
    }

    func waitFor(_ text: String, session: String) throws -> String {
        var screen = ""
        for _ in 0..<100 {
            screen = try tmux(["capture-pane", "-t", session, "-p"])
            if screen.contains(text) { return screen }
            usleep(50_000)
        }
        return screen
    }

    @Test func theShellShowsTheRulesMessageAtTheCell() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is installed by scripts/test")
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let app = OKitRun.root.appendingPathComponent("apptests/flows/validation_app.lua").path
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("okit-tmux-\(UUID().uuidString)")
        let session = "okit"
        let command = "\(OKitRun.binary.path) \(app) --data \(data.path) --no-color; echo EXIT=$?; sleep 30"
        _ = try tmux(["new-session", "-d", "-s", session, "-x", "140", "-y", "50", command])
        defer {
            _ = try? tmux(["kill-server"])
            try? FileManager.default.removeItem(at: data)
        }
        _ = try waitFor("1. Lunch", session: session)
        _ = try tmux(["send-keys", "-t", session, "tap Lunch", "Enter"])
        _ = try waitFor("Receipt", session: session)
        _ = try tmux(["send-keys", "-t", session, "edit on", "Enter"])
        _ = try tmux(["send-keys", "-t", session, "set Title \"\"", "Enter"])
        var screen = try waitFor("Title is required", session: session)
        #expect(screen.contains("Title is required"), "a refused set is one error line")
        _ = try tmux(["send-keys", "-t", session, "set Amount 150", "Enter"])
        screen = try waitFor("! A receipt is needed above 100", session: session)
        #expect(screen.contains("! A receipt is needed above 100"), "\(screen)")
        _ = try tmux(["send-keys", "-t", session, "set Receipt R-1", "Enter"])
        screen = try waitFor("[R-1]", session: session)
        let last = screen.components(separatedBy: "4. Receipt [R-1]").last ?? ""
        #expect(screen.contains("4. Receipt [R-1]") && !last.contains("! A receipt is needed"), "valid again: \(screen)")
        _ = try tmux(["send-keys", "-t", session, "quit", "Enter"])
        screen = try waitFor("EXIT=", session: session)
        #expect(screen.contains("EXIT=0"))
    }
}
