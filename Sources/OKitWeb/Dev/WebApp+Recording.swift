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
        let words = app.engine.builtInWords
        switch (request.path, request.field("do")) {
        case ("/dev/record", "start"): startRecording(ws, app, dev)
        case ("/dev/record", "stop"): stopRecording(ws, notice: words(.recordingStopped))
        case ("/dev/save", _): saveRecording(request.field("name") ?? "", ws, dev, words: words)
        case ("/dev/assert", _): addAssertion(request, ws, words: words)
        default: return said(404, .nothingToPostTo)
        }
        ws.renderedPage = nil
        return WebPages.redirect(LocationPath.url(ws.shell))
    }

    /// Starts recording this session: the page goes to the app's first screen (where a test's `launch` starts),
    /// and the data the test starts from is taken now: the seed while the data folder is as the app seeded it,
    /// else a copy of its model files.
    func startRecording(_ ws: WebSession, _ app: AppSession, _ dev: DevOptions) {
        let words = app.engine.builtInWords
        guard ws.recording == nil else { ws.notice = words(.recordingAlready); return }
        var fixtures: URL?
        if let folder = dev.dataFolder, seededData.map({ $0 != DataFingerprint.of(folder) }) ?? true {
            do { fixtures = try FlowTestFixtures.capture(dataFolder: folder, passphrase: app.options.passphrase) } catch {
                ws.error = words(.recordingNotCopied, BrowserAdvice.message(for: error))
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
                                           // On the virtual clock the day is the app's, not the machine's.
                                           recordedOn: clock is VirtualClock ? clock.now : Date(),
                                           recordedWith: "okit-run serve --dev")
        let recorder = FlowTestRecorder(start: start, clock: clock)
        ws.recording = WebRecording(recorder: recorder)
        ws.driver.flowRecorder = recorder
        ws.notice = words(fixtures == nil ? .recordingFromSeed
            : recorder.unsealedFixtures.isEmpty ? .recordingFromData : .recordingFromSealedData)
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
        guard let recording = ws.recording else { ws.error = words(.nothingRecorded); return }
        let name = typed.trimmingCharacters(in: .whitespaces)
        if let problem = WebRecording.nameProblem(name, words: words) { ws.error = problem; return }
        let file = WebRecording.testFile(named: name, app: dev.app)
        let shown = "tests/\(name)_test.lua"
        do {
            try FlowTestRecorder.checkFree(file, path: shown)
            recording.recorder.start.testFile = file
            try recording.recorder.write()
        } catch {
            ws.error = words(.notSaved, "\(error)")
            return
        }
        let lines = recording.lineCount
        let sealed = !recording.recorder.unsealedFixtures.isEmpty
        let folder = "tests/" + FlowTestRecorder.fixturesFolder(of: file).lastPathComponent
        ws.recording = nil
        ws.driver.flowRecorder = nil
        ws.notice = words(.savedTestLines, count: Double(lines), shown, "\(lines)", dev.app.deletingLastPathComponent().path,
                          "okit-run test " + shown)
            + (sealed ? " " + words(.unsealedFixtures, folder) : "")
    }
}
