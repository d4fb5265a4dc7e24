import Testing
@testable import OKitEngine

/// A recorded runtime error is checked without the `file.lua:LINE: ` Lua puts before it (found by an app author's
/// probe: `"app.lua:17: attempt to index …"` failed once a line was added above 17); a flow test's `has_error` takes
/// a message it contains, so the rest still checks the error.
@Suite struct FlowTestRefusalLineTests {
    @Test func theLuaLineIsLeftOutOfARecordedRefusal() {
        #expect(FlowTestRecorder.withoutLuaLine("app.lua:17: attempt to index a nil value (local 'cfg') (in boom, called from binding \"boom()\")")
            == "attempt to index a nil value (local 'cfg') (in boom, called from binding \"boom()\")")
        #expect(FlowTestRecorder.withoutLuaLine("lib/helpers.lua:2: no shouting") == "no shouting")
        for kept in ["Pages must be positive", "OK is refused: Title is required", "app.lua:17: ", "no cell \"a.lua:1: x\""] {
            #expect(FlowTestRecorder.withoutLuaLine(kept) == kept)
        }
    }
}
