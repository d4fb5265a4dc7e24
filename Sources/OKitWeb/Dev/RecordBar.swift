import OKitEngine

/// The Record bar of a page in development mode (web.md "Development mode"): Record, or while recording the
/// number of lines, the newest one, Assert (with the script: the next text clicked is checked), a name field with
/// Save, and Stop. Its forms post to `/dev/…` with the session's CSRF token.
public struct RecordBar: Sendable, Equatable {
    /// Whether this session is recording.
    public var recording: Bool
    /// The lines recorded so far.
    public var lineCount: Int
    /// The newest line.
    public var lastLine: String?
    /// Why the app's files did not load at the last live reload: the page shows it over everything (the error
    /// overlay), while the last app that loaded keeps serving.
    public var loadError: DevLoadError?
    /// What the app that serves said when it loaded (an unknown property of a cell, a misspelled option): shown
    /// on every page, as `okit-run check` would name them, so a typo saved in the editor is seen where it shows.
    public var loadWarnings: [String]

    public init(recording: Bool, lineCount: Int = 0, lastLine: String? = nil, loadError: DevLoadError? = nil,
                loadWarnings: [String] = []) {
        self.recording = recording
        self.lineCount = lineCount
        self.lastLine = lastLine
        self.loadError = loadError
        self.loadWarnings = loadWarnings
    }

    /// The bar's stylesheet and script (served in development mode only).
    public static let stylesheetURL = "/static/okit-dev.css"
    public static let scriptURL = "/static/okit-dev.js"
}

extension PageRenderer {
    /// The bar: an `<aside>` at the end of `<main>` (so a live update shows the new line count), after the error
    /// overlay when the app's files did not load.
    func recordBar(_ bar: RecordBar) -> HTMLNode {
        var nodes: [HTMLNode] = []
        if let error = bar.loadError { nodes.append(loadErrorOverlay(error)) }
        if !bar.loadWarnings.isEmpty { nodes.append(loadWarnings(bar.loadWarnings)) }
        return .fragment(nodes + [recordControls(bar)])
    }

    /// The warnings the app loaded with: a box that opens to the list (`role=status`: read out, not urgent).
    func loadWarnings(_ warnings: [String]) -> HTMLNode {
        let title = words(.appLoadedWithWarnings, count: Double(warnings.count), "\(warnings.count)")
        return .el("details", [.attr("role", "status"), .attr("id", "okit-dev-warnings"), .classes("okit-dev-warnings"), .bool("open")], [
            .el("summary", [], text: title),
            .el("ul", [], warnings.map { .el("li", [], text: $0) }),
        ])
    }

    /// The error overlay: a fixed box (`role=alert`) with where the error is and its message.
    func loadErrorOverlay(_ error: DevLoadError) -> HTMLNode {
        let heading = error.location.map { words(.appDidNotLoadAt, $0) } ?? words(.appDidNotLoad)
        return .el("div", [.attr("role", "alert"), .attr("id", "okit-dev-error"), .classes("okit-dev-error")], [
            .el("h2", [.classes("okit-dev-error-title")], text: heading),
            .el("pre", [.classes("okit-dev-error-message")], text: error.message),
            .el("p", [.classes("okit-dev-error-hint")],
                text: words(.lastVersionRuns)),
        ])
    }

    /// Record, or while recording the line count, the newest line, Assert, Save and Stop.
    func recordControls(_ bar: RecordBar) -> HTMLNode {
        let csrf = hidden("csrf", context.csrfToken)
        func form(_ action: String, _ fields: [HTMLNode], class cls: String) -> HTMLNode {
            .el("form", [.attr("method", "post"), .attr("action", action), .classes("okit-record-form", cls)], [csrf] + fields)
        }
        func button(_ title: String, _ cls: String) -> HTMLNode {
            .el("button", [.attr("type", "submit"), .classes("okit-button", cls)], text: title)
        }
        var nodes: [HTMLNode] = []
        if !bar.recording {
            nodes.append(form("/dev/record", [hidden("do", "start"), button(words(.record), "okit-record-start")], class: "okit-record-control"))
        } else {
            let status = words(.recordingLines, count: Double(bar.lineCount), "\(bar.lineCount)")
            nodes.append(.el("p", [.classes("okit-record-status")], text: status))
            if let last = bar.lastLine { nodes.append(.el("code", [.classes("okit-record-last")], text: last)) }
            nodes.append(.el("button", [.attr("type", "button"), .attr("aria-pressed", "false"),
                                        .attr("title", words(.assertHint)),
                                        .classes("okit-button", "okit-record-assert")], text: words(.assertText)))
            nodes.append(form("/dev/save", [
                .el("label", [.attr("for", "okit-record-name")], text: words(.testName)),
                .el("input", [.attr("type", "text"), .attr("id", "okit-record-name"), .attr("name", "name"),
                              // No `pattern` or `required`: the browser would refuse in its own language; the
                              // server's refusal is in the app's (`WebRecording.nameProblem`).
                              .attr("placeholder", "add_book"), .attr("autocomplete", "off"), .attr("spellcheck", "false")]),
                button(words(.save), "okit-record-save"),
            ], class: "okit-record-save-form"))
            nodes.append(form("/dev/record", [hidden("do", "stop"), button(words(.stop), "okit-record-stop")], class: "okit-record-control"))
        }
        return .el("aside", [.attr("aria-label", words(.recordTest)),
                             .classes("okit-record-bar", bar.recording ? "okit-recording" : nil)], nodes)
    }
}
