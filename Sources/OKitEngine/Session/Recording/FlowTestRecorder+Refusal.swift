import Foundation

extension FlowTestRecorder {
    /// A refusal's message as a recorded `assert.has_error` checks it: without the `file.lua:LINE: ` Lua puts before
    /// a runtime error (`app.lua:17: attempt to index a nil value …` → `attempt to index a nil value …`). A flow
    /// test's `has_error` takes a message it contains (testing.md), so the check still holds when lines are added
    /// above line 17 of the app.
    public static func withoutLuaLine(_ message: String) -> String {
        guard let match = message.range(of: #"^[^\s:"]+\.lua:[0-9]+: "#, options: .regularExpression),
              match.upperBound < message.endIndex else { return message }
        return String(message[match.upperBound...])
    }
}
