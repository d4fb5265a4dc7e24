import Foundation

/// Writes a session as a flow test (`--record tests/NAME_test.lua`, testing.md): every command the
/// person made becomes a line `app:<command>(…)` of one `it`, rows and actions named by what the person saw
/// (`FlowTestCall`), each change of screen followed by an assertion of the new screen's title, a command that
/// failed as `assert.has_error` with its message. The test launches the app with a fresh data folder on the
/// virtual clock at the session's start, with the data the session started from as fixtures when it had any
/// (`FlowTestFixtures`). `write()` saves it when the session ends; an existing file is never overwritten.
public final class FlowTestRecorder {
    /// Where the recording starts from.
    public struct Start {
        /// The app's Lua file.
        public var app: URL
        /// The test file to write (`…_test.lua`).
        public var testFile: URL
        /// The clock's time when the session started (the test's `now`).
        public var now: Date
        /// The seed of a session on the virtual clock; nil on the system clock.
        public var seed: UInt64?
        public var language: String?
        /// A copy of the model files the session started from (`FlowTestFixtures.capture`); nil when it started
        /// fresh (seeded).
        public var fixtures: URL?
        /// The day of the recording (the header comment).
        public var recordedOn: Date
        /// What recorded it, for the header comment (the front end's words, e.g. its command line).
        public var recordedWith: String?

        public init(app: URL, testFile: URL, now: Date, seed: UInt64? = nil, language: String? = nil,
                    fixtures: URL? = nil, recordedOn: Date = Date(), recordedWith: String? = nil) {
            self.app = app
            self.testFile = testFile
            self.now = now
            self.seed = seed
            self.language = language
            self.fixtures = fixtures
            self.recordedOn = recordedOn
            self.recordedWith = recordedWith
        }
    }

    /// A command on its way: its call, and where the app was before it.
    public struct Step {
        let name: String
        let call: FlowTestCall
        let place: ScreenPlace?
        /// The app's engine: a refusal is recorded in its language, as the test's `app:` call raises it.
        let engine: Engine
    }

    /// How many rows of the screen a command names rows on are read to name them (a longer list keeps positions).
    static let rowWindow = 2000
    /// Time of the system clock between commands is written as `app:advance(seconds)` from this long on (a
    /// person's pauses of a few seconds are left out: they change nothing a test sees but "just now" texts).
    public static let minimumPause: Double = 60
    /// Commands that show and change nothing a test replays.
    static let unrecorded: Set<String> = ["screen", "quit"]

    /// Where the recording starts from; a front end that asks the file's name at the end (the web's Save) sets
    /// `start.testFile` then.
    public var start: Start
    private let clock: AppClock
    private var last: Date
    /// The lines of the `it`, without indentation.
    public private(set) var lines: [String] = []
    /// The files of the data the test starts from that the app keeps encrypted and the fixtures hold in plain
    /// text (`FlowTestFixtures.unsealedFiles`, read when the recording starts), relative to the fixtures folder;
    /// empty when there are none.
    public let unsealedFixtures: [String]

    public init(start: Start, clock: AppClock) {
        self.start = start
        unsealedFixtures = start.fixtures.map(FlowTestFixtures.unsealedFiles(in:)) ?? []
        self.clock = clock
        last = clock.now
    }

    /// Before a command runs: its call named by the screen the person sees. Nil for a command that is not recorded.
    public func willRun(_ name: String, _ args: [String: Value], description: CommandDescription?, shell: AppShell) -> Step? {
        let pause = clock.now.timeIntervalSince(last)
        if pause >= Self.minimumPause { lines.append("app:advance(\(Int(pause)))") }
        guard !Self.unrecorded.contains(name) else { return nil }
        let before = try? shell.snapshot(offset: 0, limit: Self.rowWindow)
        let call = FlowTestCall(name, args, description: description, before: before)
        return Step(name: name, call: call, place: before.map(ScreenPlace.init), engine: shell.engine)
    }

    /// After a command ran: its line, and the new screen's title when the screen changed.
    public func didRun(_ step: Step, shell: AppShell) {
        defer { last = clock.now }
        note(step)
        lines.append(step.call.text)
        guard let after = try? shell.snapshot(offset: 0, limit: 0), !after.app.covered,
              ScreenPlace(after) != step.place else { return }
        if let title = after.screen.title, !title.isEmpty {
            lines.append("assert.equal(\(LuaLiteral.string(title)), app:screen().screen.title)")
        } else {
            lines.append("assert.equal(\(LuaLiteral.string(after.screen.id)), app:screen().screen.id)")
        }
    }

    /// After a command failed: it fails again in the test, with the same message; a command that could not be
    /// understood (a missing argument) is left out with a comment, and so is an `advance` the session's system
    /// clock refused: the refusal is the front end's, not the app's, and the test's virtual clock would move.
    public func didFail(_ step: Step, _ error: any Error) {
        defer { last = clock.now }
        let message = step.engine.refusalText(error, wording: nil)
            .split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if error is CommandUsageError {
            lines.append("-- left out: \(step.call.text) (\(message.replacingOccurrences(of: "\n", with: " ")))")
            return
        }
        if step.name == "advance", !(clock is VirtualClock) {
            lines.append("-- left out: \(step.call.text) (the session's system clock refused it, not the app; the test runs "
                + "on the virtual clock, where it would move the clock)")
            return
        }
        note(step)
        lines.append("assert.has_error(function() \(step.call.text) end, \(LuaLiteral.string(Self.withoutLuaLine(message))))")
    }

    /// A line the front end answered without running a command (an unknown command, a malformed line): left out
    /// with a comment that says what it was answered (`-- not understood, left out: unknown command "tpa" (did you
    /// mean "tap"?)`), never the line itself (it may hold a secret typed into a misspelled command). A blank line,
    /// which asked for nothing, is left out without one.
    public func recordUnread(_ error: String) {
        guard !error.hasPrefix(Self.blankLineAnswer) else { return }
        let text = error.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? error
        lines.append("-- not understood, left out: \(text)")
    }

    /// How the JSON-lines front end answers a blank line (`{"unread":"empty line: …"}` in a session log).
    static let blankLineAnswer = "empty line:"

    /// Adds a line the person asked for (the web's Assert: an assertion on a text they clicked).
    public func append(line: String) {
        lines.append(line)
    }

    private func note(_ step: Step) {
        if step.call.hadSecret {
            lines.append("-- a secret was typed here and is not recorded: put it in place of \"\(FlowTestCall.secretText)\"")
        }
    }
}

/// Where the app is: the tab, the depth of navigation, a presented stack or the menu, the screen and its context.
/// A command that changes it changed the screen.
struct ScreenPlace: Equatable {
    let tab: String?
    let depth: Int
    let presented: Bool
    let menuOpen: Bool
    let screen: String
    let context: String?

    init(_ s: Snapshot) {
        tab = s.app.tab
        depth = s.app.depth
        presented = s.app.presented
        menuOpen = s.app.menuOpen
        screen = s.screen.id
        context = s.screen.context
    }
}
