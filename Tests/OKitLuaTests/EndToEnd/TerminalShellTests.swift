import Foundation
import Testing
import OKitTestSupport

/// The terminal shell as a person uses it: tmux runs okit-run, send-keys types, capture-pane reads the screen.
@Suite struct TerminalShellTests {
    /// This test's own tmux server (`-L`), so a stuck session never touches another test or a person's tmux.
    let socket = "okit-test-\(getpid())-\(Int.random(in: 0..<1_000_000))"

    /// Runs tmux and returns what it printed.
    func tmux(_ args: [String]) throws -> String {
        try ChildProcess.run("/usr/bin/tmux", ["-L", socket] + args, stderr: .null).out
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
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let root = OKitRun.root
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("okit-tmux-\(UUID().uuidString)")
        let session = "okit"
        let command = "\(OKitRun.binary.path) \(root.appendingPathComponent("examples/bookshop/app.lua").path) --data \(data.path) --no-color; echo EXIT=$?; sleep 30"
        _ = try tmux(["new-session", "-d", "-s", session, "-x", "140", "-y", "50", command])
        defer {
            _ = try? tmux(["kill-server"])
            try? FileManager.default.removeItem(at: data)
        }
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

    /// Everything the snapshot holds is drawn (issue 12): bar buttons, help after `help`, a section footer, picker
    /// options by name, the more sheet's actions, a warning logged at run time; unknown commands suggest one.
    @Test func theShellShowsWhatTheSnapshotHolds() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is installed by scripts/test")
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let root = OKitRun.root
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("okit-tmux-\(UUID().uuidString)")
        let session = "okit"
        let app = root.appendingPathComponent("apptests/flows/shell_app.lua").path
        let command = "\(OKitRun.binary.path) \(app) --data \(data.path) --no-color; echo EXIT=$?; sleep 30"
        _ = try tmux(["new-session", "-d", "-s", session, "-x", "140", "-y", "60", command])
        defer {
            _ = try? tmux(["kill-server"])
            try? FileManager.default.removeItem(at: data)
        }
        func type(_ line: String, thenSee text: String) throws -> String {
            _ = try tmux(["send-keys", "-t", session, line, "Enter"])
            return try waitFor(text, session: session)
        }
        var screen = try waitFor("[People]", session: session)
        #expect(screen.contains("[Edit] [+] [People] [?]"), "the bar buttons, + included: \(screen)")
        screen = try type("help", thenSee: "? Tap a task to open it.")
        #expect(screen.contains("? Tap a task to open it."), "the help text after help")
        screen = try type("tap Write", thenSee: "warning: binding")
        #expect(screen.contains("warning: binding \"itself.nosuch\": Task has no field"), "a warning under the redraw")
        #expect(screen.contains("Owners come from the people list."), "the section footer")
        #expect(screen.contains("Owner — Ann") && !screen.contains("[ann]"), "the picker's option by name, not its id")
        screen = try type("edit on", thenSee: "options:")
        #expect(screen.contains("options: 1 [Ann] · 2 Bob"), "the picker's options by name: \(screen)")
        screen = try type("set Owner Bob", thenSee: "Owner — Bob")
        #expect(screen.contains("options: 1 Ann · 2 [Bob]"))
        screen = try type("back", thenSee: "[People]")
        screen = try type("more 1", thenSee: "Cancel")
        #expect(screen.contains("1 Archive  2 Duplicate  3 Cancel"), "the more sheet's actions: \(screen)")
        screen = try type("respond archive", thenSee: "Write ✓")
        #expect(screen.contains("1. Write ✓"), "respond matches the title without regard to case")
        screen = try type("tpa 1", thenSee: "did you mean")
        #expect(screen.contains("unknown command \"tpa\" (did you mean \"tap\"?)"))
        screen = try type("warnings", thenSee: "> warnings")
        screen = try type("quit", thenSee: "EXIT=")
        #expect(screen.contains("EXIT=0"))
    }
}
