import Foundation
import OKitEngine

/// Development mode's routes (web.md "Development mode"), each a POST from the Record bar with the session's CSRF
/// token: `/dev/record` (`do=start` or `do=stop`), `/dev/assert` (what was clicked, `WebApp+Assert`) and
/// `/dev/save` (`name`). Each answers 303 to where the session is, with a notice or an error for its next page.
/// Outside development mode they do not exist (404).
extension WebApp {
    func devCommand(_ request: WebRequest, _ ws: WebSession, _ app: AppSession) -> WebResponse {
        guard let dev = options.development else { return said(404, .nothingToPostTo) }
        if let refused = refusedCSRF(request.field("csrf"), ws) { return refused }
        switch (request.path, request.field("do")) {
        case ("/dev/record", "start"): startRecording(ws, app, dev)
        case ("/dev/record", "stop"): stopRecording(ws, notice: "Recording stopped; nothing was saved.")
        case ("/dev/save", _): saveRecording(request.field("name") ?? "", ws, dev, words: app.engine.builtInWords)
        case ("/dev/assert", _): addAssertion(request, ws)
        default: return said(404, .nothingToPostTo)
        }
        ws.renderedPage = nil
        return WebPages.redirect(LocationPath.url(ws.shell))
    }

    /// Starts recording this session: the page goes to the app's first screen (where a test's `launch` starts),
    /// and the data the test starts from is taken now: the seed while the data folder is as the app seeded it,
    /// else a copy of its model files.
    func startRecording(_ ws: WebSession, _ app: AppSession, _ dev: DevOptions) {
        guard ws.recording == nil else { ws.notice = "This page is recording already."; return }
        var fixtures: URL?
        if let folder = dev.dataFolder, seededData.map({ $0 != DataFingerprint.of(folder) }) ?? true {
            do { fixtures = try FlowTestFixtures.capture(dataFolder: folder, passphrase: app.options.passphrase) } catch {
                ws.error = "The data could not be copied for the recording: \(BrowserAdvice.message(for: error))"
                return
            }
        }
        let shell = ws.shell
        if let first = shell.home.first,
           let home = LocationPath.location("/" + PageContext.pathSegment(first), home: shell.home,
                                            homeStack: { ShellLocation.Step(screen: $0, entity: nil) })?.location,
           shell.location != home {
            _ = try? shell.go(to: home)
            ws.moved = true
        }
        let clock = app.engine.clock
        let start = FlowTestRecorder.Start(app: dev.app.standardizedFileURL,
                                           testFile: WebRecording.testFile(named: "recording", app: dev.app),
                                           now: clock.now, seed: dev.seed, language: dev.language, fixtures: fixtures,
                                           recordedWith: "okit-run serve --dev")
        let recorder = FlowTestRecorder(start: start, clock: clock)
        ws.recording = WebRecording(recorder: recorder)
        ws.driver.flowRecorder = recorder
        let data = fixtures == nil ? " and its seeded data" : ", with the data as it is now"
            + (recorder.unsealedFixtures.isEmpty ? "" : " (its encrypted data is saved beside the test in plain text)")
        ws.notice = "Recording from the app's first screen" + data
            + ": what you do in this browser (in any of its tabs) becomes a test. Assert adds a check of a text you click; Save writes the test; Stop ends it without saving."
    }

    func stopRecording(_ ws: WebSession, notice: String) {
        guard let recording = ws.recording else { return }
        recording.discard()
        ws.recording = nil
        ws.driver.flowRecorder = nil
        ws.notice = notice
    }

    /// Writes `tests/<name>_test.lua` beside the app (and `<name>_data/` when the recording started from stored
    /// data); an existing file is refused and the recording goes on, so another name can be given.
    func saveRecording(_ typed: String, _ ws: WebSession, _ dev: DevOptions, words: BuiltInWords = BuiltInWords(language: "en")) {
        guard let recording = ws.recording else { ws.error = "Nothing is being recorded: press Record first."; return }
        let name = typed.trimmingCharacters(in: .whitespaces)
        if let problem = WebRecording.nameProblem(name, words: words) { ws.error = problem; return }
        let file = WebRecording.testFile(named: name, app: dev.app)
        let shown = "tests/\(name)_test.lua"
        do {
            try FlowTestRecorder.checkFree(file, path: shown)
            recording.recorder.start.testFile = file
            try recording.recorder.write()
        } catch {
            ws.error = "Not saved: \(error)"
            return
        }
        let lines = recording.lineCount
        let note = recording.recorder.unsealedNote.map { " tests/" + $0 } ?? ""
        ws.recording = nil
        ws.driver.flowRecorder = nil
        ws.notice = "Saved \(shown) (\(lines == 1 ? "1 line" : "\(lines) lines")) in \(dev.app.deletingLastPathComponent().path).\(note) Run it there: okit-run test \(shown)"
    }
}
