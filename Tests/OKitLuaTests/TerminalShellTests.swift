import Foundation
import Testing

/// The terminal shell as a person uses it: tmux runs okit-run, send-keys types, capture-pane reads the screen.
@Suite struct TerminalShellTests {
    /// This test's own tmux server (`-L`), so a stuck session never touches another test or a person's tmux.
    let socket = "okit-test-\(getpid())-\(Int.random(in: 0..<1_000_000))"

    /// Runs tmux and returns what it printed. posix_spawn and waitpid, not Foundation's Process: with other tests
    /// spawning processes in parallel, Process sometimes never reaps a child and `waitUntilExit` blocks forever.
    func tmux(_ args: [String]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("okit-tmux-out-\(UUID().uuidString)").path
        defer { unlink(file) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = (["/usr/bin/tmux", "-L", socket] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, argv, environ)
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
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
        let session = "okit"
        let command = "\(CommandLineTests.binary.path) \(root.appendingPathComponent("examples/bookshop/app.lua").path) --data \(data.path) --no-color; echo EXIT=$?; sleep 30"
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
        try #require(FileManager.default.isExecutableFile(atPath: CommandLineTests.binary.path))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("okit-tmux-\(UUID().uuidString)")
        let session = "okit"
        let app = root.appendingPathComponent("tests/flows/shell_app.lua").path
        let command = "\(CommandLineTests.binary.path) \(app) --data \(data.path) --no-color; echo EXIT=$?; sleep 30"
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
