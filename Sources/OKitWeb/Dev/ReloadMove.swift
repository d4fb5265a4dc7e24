import OKitEngine

/// Where a live reload took a browser session from (web.md "Live reload"), kept for what its pages send from
/// there afterwards: the page refreshing itself from its old address is answered with the current place and the
/// reload's notice (not taken as a URL the person opened), and text typed there and sent when the field went
/// with the page is named in the notice, not dropped without a word.
struct ReloadMove {
    /// The path of the place the session was at (`LocationPath.path`).
    let path: String
    /// The notice the reload gave (the screen or row gone, where the session is now).
    let notice: String
    /// What the person saw there last (its cells name what was typed into them).
    let seen: Snapshot?
    /// The ids of its cells titled by a label (`WebApp.labelledCells`): the others are named by id.
    var labelled: Set<String> = []

    /// The recording's lines for a reload that took the person elsewhere or closed their dialog, so the saved test
    /// replays it without reloading: a comment saying what the reload did, the answer that stands for the dialog's
    /// closing (its Cancel or No, else its only action), then the commands that take the test where the person
    /// was taken (`back`, `close`) and the new screen's title. Nothing when the reload changed neither.
    static func lines(from was: ShellLocation, to now: ShellLocation, lost: String?, title: String?,
                      closed alert: AlertSnapshot?, words: BuiltInWords) -> [String] {
        var lines: [String] = []
        if let alert {
            let name = alert.title ?? alert.message ?? alert.kind
            if let i = dismissingAction(alert, words: words) {
                lines.append("-- the app reloaded here and closed “\(name)”; a test answers it as closing it does:")
                lines.append("app:respond(\(LuaLiteral.string(alert.actions[i])))")
            } else {
                lines.append("-- the app reloaded here and closed “\(name)”, which no action dismisses: answer it here "
                    + "as the test should (app:respond(…)), or the next line finds it waiting")
            }
        }
        let from = WebApp.comparable(was), to = WebApp.comparable(now)
        guard from != to else { return lines }
        let gone = lost.map { "“\($0)” was gone" } ?? "the place was gone"
        lines.append("-- the app reloaded here and \(gone): the person was taken to “\(title ?? now.stack.last?.screen ?? "")”")
        guard let steps = WebApp.returnCommands(from: from, to: to), !steps.isEmpty else {
            lines.append("-- no command takes a test there, so the lines below may need another start")
            return lines
        }
        lines += steps.map { "app:\($0)()" }
        if let title, !title.isEmpty { lines.append("assert.equal(\(LuaLiteral.string(title)), app:screen().screen.title)") }
        return lines
    }

    /// The action that dismisses an alert as its page's Escape does (`PageRenderer.cancelAction`): Cancel or No in
    /// the app's language or in English, else its only action.
    static func dismissingAction(_ alert: AlertSnapshot, words: BuiltInWords) -> Int? {
        let names: Set<String> = [words(.cancel), words(.no), BuiltInWord.cancel.rawValue, BuiltInWord.no.rawValue]
        if let i = alert.actions.firstIndex(where: names.contains) { return i }
        return alert.actions.count == 1 ? 0 : nil
    }
}

extension WebApp {
    /// A `set` posted from the page a reload took the session from — the field's text sent as the page went (the
    /// browser saves a field it leaves): nothing is stored, and the reload's notice says so and names the text, on
    /// the place the session is at. Nil for anything else.
    func typedBeforeReload(_ name: String, _ request: WebRequest, _ ws: WebSession, _ app: AppSession) -> WebResponse? {
        guard name == "set", let move = ws.reloadMove, !ws.shell.covered, let value = request.field("value"),
              let at = request.field("at").map({ String($0.split(separator: "?", maxSplits: 1).first ?? "").removingTrailingSlash }),
              at == move.path, at != LocationPath.path(ws.shell.location) else { return nil }
        let row = move.seen.flatMap { WebApp.shownRow(request.field("cell"), in: $0) }
        let id = row?.id.flatMap { $0.isEmpty ? nil : $0 }
        let cell = (id.map(move.labelled.contains) == true ? row?.text : nil) ?? id ?? request.field("cell") ?? ""
        let words = app.engine.builtInWords
        ws.notice = move.notice + " " + words(.pageOutOfDate) + " "
            + words(.labelled, cell, words(.quoted, ShellError.brief(value, 48)))
        ws.moved = true
        return WebPages.redirect(LocationPath.url(ws.shell))
    }

    /// A GET of the page a reload took the session from (the page refreshing itself from its old address): the
    /// place the session is at, with the reload's notice again; nil for any other path.
    func arriveFromReloadedPage(_ ws: WebSession, at path: String) -> String? {
        guard let move = ws.reloadMove, path.removingTrailingSlash == move.path else { return nil }
        if ws.notice == nil { ws.notice = move.notice }
        return LocationPath.path(ws.shell.location)
    }
}
