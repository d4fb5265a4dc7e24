import Foundation
import OKitEngine

/// One browser session's recording (development mode): the engine's flow test recorder, set as the session's
/// driver's `flowRecorder` while it records, so every command the page runs becomes a line. The test file's name
/// is asked at Save; until then the recorder's `start.testFile` is a placeholder in the app's `tests/` folder.
final class WebRecording {
    let recorder: FlowTestRecorder

    init(recorder: FlowTestRecorder) {
        self.recorder = recorder
    }

    /// How many lines the test has so far (the bar shows it).
    var lineCount: Int { recorder.lines.count }

    /// The newest line (the bar shows it, so the person sees what their click became).
    var lastLine: String? { recorder.lines.last }

    /// Ends the recording without saving: the copy of the data it started from is removed.
    func discard() {
        recorder.discardFixtures()
    }

    /// A recording that goes with its session (the session dropped while it recorded: idle, or its browser gone)
    /// writes nothing and leaves no copy of the data behind.
    deinit {
        recorder.discardFixtures()
    }

    /// The test file `tests/<name>_test.lua` in the app's folder.
    static func testFile(named name: String, app: URL) -> URL {
        app.deletingLastPathComponent().appendingPathComponent("tests", isDirectory: true)
            .appendingPathComponent(name + "_test.lua")
    }

    /// Why `name` cannot name a test, or nil: ASCII letters, digits, `_` and `-`, starting with a letter or digit,
    /// at most 64 characters (the file is `tests/<name>_test.lua`, so no name reaches outside `tests/`); the refusal
    /// in the app's language (`words`).
    static func nameProblem(_ name: String, words: BuiltInWords = BuiltInWords(language: "en")) -> String? {
        if name.isEmpty { return words(.testNameMissing) }
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") }
        guard allowed, name.count <= 64, let first = name.unicodeScalars.first, CharacterSet.alphanumerics.contains(first) else {
            return words(.testNameRefused, String(name.prefix(64)))
        }
        return nil
    }
}
