import Foundation
import Testing
@testable import OKitEngine

/// What a recorded flow test leaves out, with a comment (cli.md "Flow tests and replay"): an `advance` the session's
/// system clock refused (the test runs on the virtual clock, where it works) and a line the front end could not
/// understand (an unknown command); a blank line asked for nothing and is left out without one.
@Suite struct FlowTestRecorderRefusalTests {
    func recorder(clock: AppClock) throws -> (AppShell, FlowTestRecorder) {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        let shell = AppShell(engine: f.engine)
        var list = ListDeclaration(id: "books")
        list.type = "Book"
        list.dataPath = "books"; list.cellPath = "name"; list.titlePath = "%Books"
        try shell.declare(list)
        try shell.start(home: ["books"])
        let start = FlowTestRecorder.Start(app: URL(fileURLWithPath: "/shop/app.lua"), testFile: URL(fileURLWithPath: "/shop/tests/x_test.lua"),
                                           now: clock.now)
        return (shell, FlowTestRecorder(start: start, clock: clock))
    }

    static let advance = Driver.builtIn.first { $0.description.name == "advance" }?.description
    static let refusal = ShellError.notAllowed("advance (the clock is the system clock; run with --clock virtual)", "app")

    @Test func anAdvanceTheSystemClockRefusedIsLeftOutWithAComment() throws {
        let (shell, recorder) = try recorder(clock: SystemClock())
        let step = try #require(recorder.willRun("advance", ["seconds": .int(120)], description: Self.advance, shell: shell))
        recorder.didFail(step, Self.refusal)
        #expect(recorder.lines == ["-- left out: app:advance(120) (the session's system clock refused it, not the app; the test runs "
            + "on the virtual clock, where it would move the clock)"])
    }

    @Test func onTheVirtualClockAFailedAdvanceIsStillAnExpectedError() throws {
        let (shell, recorder) = try recorder(clock: VirtualClock())
        let step = try #require(recorder.willRun("advance", ["seconds": .int(120)], description: Self.advance, shell: shell))
        recorder.didFail(step, CommandUsageError(message: "advance: 120 seconds would take the clock past 9999-12-31T23:59:59Z"))
        #expect(recorder.lines.count == 1 && recorder.lines[0].hasPrefix("-- left out: app:advance(120) (advance: 120 seconds"))
        let other = try #require(recorder.willRun("advance", ["seconds": .int(5)], description: Self.advance, shell: shell))
        recorder.didFail(other, Self.refusal)
        #expect(recorder.lines.last?.hasPrefix("assert.has_error(function() app:advance(5) end, ") == true, "the app's own refusal")
    }

    @Test func aLineThatWasNotUnderstoodIsACommentAndABlankOneNothing() throws {
        let (_, recorder) = try recorder(clock: SystemClock())
        recorder.recordUnread("unknown command \"tpa\" (did you mean \"tap\"?)")
        recorder.recordUnread("empty line: expected a command (e.g. {\"cmd\":\"screen\"}): nothing was done")
        recorder.recordUnread("malformed command: expected a JSON object\nsecond line")
        #expect(recorder.lines == ["-- not understood, left out: unknown command \"tpa\" (did you mean \"tap\"?)",
                                   "-- not understood, left out: malformed command: expected a JSON object"])
    }
}
