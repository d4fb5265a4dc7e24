import OKitEngine

/// An assertion a person asked for by clicking a text of the page (the Record bar's Assert), written as a
/// hand-written test checks it: `assert.equal("Dune", app:screen().screen.sections[1].rows[2].text)`. What was
/// clicked comes from the page (`target`, 1-based `section` and `row`, the row's `part`); the text is read from the
/// session's snapshot of that page, never taken from the browser.
struct RecordedAssertion {
    /// What can be clicked: the screen's title, subtitle or footer; a section's header, subheader or footer; a
    /// row's (or cell's) text, detail, value or validation message; the alert's title or message.
    enum Target: String {
        case title, subtitle, footer, header, subheader, sectionFooter, row, alertTitle, alertMessage
    }

    /// The assertion's line, or why there is none (a message for the page).
    static func line(target: String?, section: String?, row: String?, part: String?, in snapshot: Snapshot,
                     windowed: Bool) -> Result<String, AssertionRefusal> {
        guard let target = target.flatMap(Target.init(rawValue:)) else {
            return .failure(AssertionRefusal(.assertWhat))
        }
        let screen = snapshot.screen
        switch target {
        case .title: return equal(screen.title, "app:screen().screen.title")
        case .subtitle: return equal(screen.subtitle, "app:screen().screen.subtitle")
        case .footer: return equal(screen.footer, "app:screen().screen.footer")
        case .alertTitle: return equal(snapshot.alert?.title, "app:screen().alert.title")
        case .alertMessage: return equal(snapshot.alert?.message, "app:screen().alert.message")
        case .header, .subheader, .sectionFooter, .row:
            guard let s = section.flatMap(Int.init), s >= 1, s <= screen.sections.count else {
                return .failure(AssertionRefusal(.assertSectionGone))
            }
            let sec = screen.sections[s - 1]
            let path = "app:screen().screen.sections[\(s)]"
            switch target {
            case .header: return equal(sec.header, path + ".header")
            case .subheader: return equal(sec.subheader, path + ".subheader")
            case .sectionFooter: return equal(sec.footer, path + ".footer")
            default: break
            }
            guard !windowed else {
                return .failure(AssertionRefusal(.assertPastFirstPage))
            }
            guard let r = row.flatMap(Int.init), r >= 1, r <= sec.rows.count else {
                return .failure(AssertionRefusal(.assertRowGone))
            }
            return rowLine(sec.rows[r - 1], part: part, path: path + ".rows[\(r)]")
        }
    }

    static func rowLine(_ row: RowSnapshot, part: String?, path: String) -> Result<String, AssertionRefusal> {
        switch part ?? "text" {
        case "detail": return equal(row.detail, path + ".detail")
        case "invalid": return equal(row.invalid, path + ".invalid")
        case "value":
            guard let control = row.control else { return equal(row.detail, path + ".detail") }
            let literal: String
            switch control.value {
            case .null: return .success("assert.is_nil(\(path).control.value)")
            case .bool(let b): literal = b ? "true" : "false"
            case .int(let i): literal = String(i)
            case .double(let d): literal = LuaLiteral.value(.double(d))
            case .string(let s): literal = LuaLiteral.string(s)
            }
            return .success("assert.equal(\(literal), \(path).control.value)")
        default: return equal(row.text, path + ".text")
        }
    }

    /// `assert.equal(TEXT, PATH)`; a part that shows nothing is refused (the test would check what nobody saw).
    static func equal(_ text: String?, _ path: String) -> Result<String, AssertionRefusal> {
        guard let text, !text.isEmpty else { return .failure(AssertionRefusal(.assertNoText)) }
        return .success("assert.equal(\(LuaLiteral.string(text)), \(path))")
    }
}

/// Why a click gives no assertion (shown on the page).
struct AssertionRefusal: Error {
    /// Why, in okit's words (shown in the app's language).
    let word: BuiltInWord
    init(_ word: BuiltInWord) { self.word = word }
}

extension WebApp {
    /// `POST /dev/assert`: the page's version must be the one shown (its texts are the snapshot's), then the line
    /// goes into the recording.
    func addAssertion(_ request: WebRequest, _ ws: WebSession, words: BuiltInWords) {
        guard let recording = ws.recording else { ws.error = words(.nothingRecorded); return }
        guard let shown = ws.shown, request.field("v") == "\(ws.version)" else {
            ws.notice = words(.nothingChecked)
            return
        }
        if let line = refusedTextAssertion(request, ws, shown) { recording.recorder.append(line: line); return }
        switch RecordedAssertion.line(target: request.field("target"), section: request.field("section"),
                                      row: request.field("row"), part: request.field("part"), in: shown,
                                      windowed: ws.watch.offset > 0) {
        case .success(let line): recording.recorder.append(line: line)
        case .failure(let refusal): ws.error = words(refusal.word)
        }
    }
}

extension WebApp {
    /// The validation message under a cell that refused what this person typed (`TypedTexts`: the value was not
    /// stored, so the snapshot has no message there): checked as the test meets it, the same text refused with
    /// that message — `assert.has_error(function() app:set("Pages", "0") end, "Pages must be positive")`. Nil for
    /// any other click.
    func refusedTextAssertion(_ request: WebRequest, _ ws: WebSession, _ shown: Snapshot) -> String? {
        guard request.field("target") == "row", request.field("part") == "invalid", ws.watch.offset == 0,
              let s = request.field("section").flatMap(Int.init), s >= 1, s <= shown.screen.sections.count,
              let r = request.field("row").flatMap(Int.init), r >= 1, r <= shown.screen.sections[s - 1].rows.count
        else { return nil }
        let row = shown.screen.sections[s - 1].rows[r - 1]
        guard row.invalid?.isEmpty ?? true else { return nil }
        let position = shown.screen.sections.prefix(s - 1).reduce(0) { $0 + $1.rows.count } + r
        let typed = ws.typed.shown(at: LocationPath.path(ws.shell.location), shown)
        guard let kept = row.id.flatMap({ typed[$0] }) ?? typed[String(position)] else { return nil }
        let cell = WebApp.asSeen("set", ["cell": row.id.map { .string($0) } ?? .int(position)], ws)["cell"] ?? .int(position)
        let message = FlowTestRecorder.withoutLuaLine(kept.refusal)
        return "assert.has_error(function() app:set(\(LuaLiteral.value(cell)), \(LuaLiteral.string(kept.text))) end, "
            + "\(LuaLiteral.string(message)))"
    }
}
