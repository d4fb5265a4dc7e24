import Foundation
import OKitEngine

/// POST /command: the CSRF token first, then the page's version and place; then the driver runs the command
/// on the session's shell, the models are stored (durable per command), and the answer is 303 to where the
/// shell is now (post/redirect/get).
extension WebApp {
    /// Driver commands a browser may not send (web.md: quit and relaunch act on the process; a page moves by its
    /// URL, which names only places the app's segues reach, not by `open` or `present` of any screen).
    static let refused: Set<String> = ["quit", "relaunch", "advance", "store", "background", "foreground", "open", "present"]

    /// The 403 page for a POST whose CSRF token (`token`: the form's field or the header) is missing or not the
    /// session's (web.md: checked before anything else of the POST); nil when it is the session's.
    func refusedCSRF(_ token: String?, _ ws: WebSession) -> WebResponse? {
        guard let token, RandomToken.equal(token, ws.csrf) else {
            return said(403, .securityTokenWrong)
        }
        return nil
    }

    func command(_ request: WebRequest, _ ws: WebSession, _ app: AppSession) -> WebResponse {
        // A page of another site (a sibling subdomain's reaches the SameSite cookie) is refused with the CSRF check,
        // and an Unlock from it is no guess counted against the person's address.
        if fromAnotherSite(request) { return said(403, .securityTokenWrong) }
        if let refused = refusedCSRF(request.field("csrf"), ws) { return refused }
        guard let name = request.field("command"), !name.isEmpty else {
            return WebPages.message(400, "The form names no command.")
        }
        let shell = ws.shell
        if name == "hidden" { return hidden(ws, app) }
        guard !WebApp.refused.contains(name) else {
            return WebPages.message(400, "\"\(name)\" is not a command of the web front end.")
        }
        // A post from an outdated page applies nothing. What other processes stored to shared models is applied
        // first, so that a page that did not show it is out of date; the command then runs without following them
        // again (`AppSession.runChecked`): a store applied after this check was written over unseen, unreported.
        // This session's page is answered by the redirect, not told to reload.
        ws.runningCommand = true
        app.followSharedModels()
        ws.runningCommand = false
        // Told only to a session that may post at all (not covered, logged in where a token is set) and of a value
        // it may store: the notice repeats the value, and a covered page would learn what was deleted.
        let mayBeTold = !shell.covered && (options.token == nil || ws.loggedIn)
            && (request.field("value").map { $0.unicodeScalars.count <= options.maxText } ?? true)
        if mayBeTold, let deleted = changeOfDeletedEntry(name, request, ws, app) { return deleted }
        let current: Snapshot
        do { current = try ws.snapshot() } catch { return said(500, .screenNotShown, BrowserAdvice.message(for: error)) }
        let here = LocationPath.path(shell.location), there = LocationPath.url(shell)
        if let refused = refusalBeforeRunning(name, request, ws, app, shown: current, here: here, there: there) { return refused }
        let guessing = name == "authenticate" && shell.covered
        // Wrong backup passwords are slowed down by address as guesses of the login token are (a restore's
        // password prompt): while the address waits, a password is not checked at all.
        ws.guardBackups()
        ws.backupGuard.begin(waiting: failedBackupPasswords.wait(request.attemptAddress, now: attemptClock()).map {
            app.engine.word(.tooManyAttempts, count: Double($0), String($0))
        })
        ws.runningCommand = true
        defer { ws.runningCommand = false }
        let themeBefore = try? shell.settingTheme()
        let conflictsBefore = app.conflicts.count
        let typing = forgetTyped(name, request, ws, shown: current)
        let changesBefore = WebApp.changeCount(app)
        let entry = shell.top?.context
        do {
            try app.runChecked {
                try run(name, request, ws)
                // A store that fails: the change shows but is not kept, said in the app's language (web.md).
                do { try app.storeState() } catch { throw NotStored(error: error) }
            }
        } catch let failed as NotStored {
            notStored(failed.error, changed: WebApp.changeCount(app) != changesBefore, ws, app)
        } catch let unkept as ChangesNotKept {
            ws.error = app.engine.word(.notStored, BrowserAdvice.message(for: unkept))     // the change shows, not kept
        } catch {
            ws.error = keptOffline(app)
                ? app.engine.word(.appOffline)
                : refusedValuesSaid(error, app) ?? WebApp.personWords(for: error, app.engine)
                    ?? (name == "set" ? WebApp.refusedValueWords(error, cell: request.field("cell"), shown: current, app.engine) : nil)
                    ?? "\(BrowserAdvice.message(for: error))"
            keepTyped(typing, request, ws, at: here)    // the page shows what was typed, with why (TypedTexts)
        }
        let unlocked = guessing && guessChecked(request, ws, app)
        backupPasswordsChecked(ws.backupGuard.end(), request)
        // A field another person stored first: this session's value lost and is reported (storage.md).
        if app.conflicts.count > conflictsBefore, let c = app.conflicts.last {
            ws.notice = app.engine.conflictNotice(c)
        } else if name == "set", ws.error == nil, WebApp.changeCount(app) != changesBefore, let entry, let value = request.field("value") {
            let (cell, shown) = WebApp.cellAndValue(request, value, shown: current, screen: shell.top, app.engine)
            ws.lastChange = StoredChange(entry: entry, type: entry.type.name, cell: cell, value: shown)
        }
        // This session changed the app's theme setting: the change is its own theme (and new sessions start
        // from it); the other sessions keep theirs.
        if let after = try? shell.settingTheme(), after != themeBefore { shell.themeOverride = after }
        ws.moved = true
        var answer = WebPages.redirect(LocationPath.url(shell))
        if unlocked { answer.headers.append(("Set-Cookie", cookie(ws, request))) }
        return answer
    }

    /// The page was hidden: with protection on, this session is covered.
    private func hidden(_ ws: WebSession, _ app: AppSession) -> WebResponse {
        ws.runningCommand = true
        do { try app.background(ws.shell) } catch { ws.error = WebApp.personWords(for: error, app.engine) ?? BrowserAdvice.message(for: error) }
        ws.runningCommand = false
        ws.moved = true
        return WebResponse(status: 204, headers: WebPages.securityHeaders)
    }

    /// An answer to the cover checked: a wrong one counts against the address (and is logged, without the secret);
    /// a right one forgets its wrong ones and — the cover a lock — is a login: the session gets a new id and CSRF
    /// token (session fixation, web.md "Security"). True when it unlocked a lock (the answer sets the new cookie).
    private func guessChecked(_ request: WebRequest, _ ws: WebSession, _ app: AppSession) -> Bool {
        guard !ws.shell.covered else {
            failedAttempts.failed(request.attemptAddress, now: attemptClock())
            log("okit-run serve: a wrong passphrase on the cover from \(request.attemptAddress)")
            return false
        }
        failedAttempts.succeeded(request.attemptAddress)
        guard coverIsALock(app) else { return false }
        giveNewId(ws)
        return true
    }

    /// What refuses a posted command before it runs: a text too long to store, a page out of date (its typed value
    /// kept), a login still owed, guesses from an address that must wait. Nil: the command runs.
    private func refusalBeforeRunning(_ name: String, _ request: WebRequest, _ ws: WebSession, _ app: AppSession,
                                      shown: Snapshot, here: String, there: String) -> WebResponse? {
        let shell = ws.shell
        // Text longer than a person may store is refused before anything else of the form is looked at (nor kept
        // in the session as typed text): a megabyte posted once would be in every viewer's page (web.md "Limits").
        if let refusal = tooLongText(name, request, shown, app.engine) ?? textWithNUL(name, request, shown, app.engine) {
            ws.error = refusal
            return WebPages.redirect(there)
        }
        if let gone = typedBeforeReload(name, request, ws, app) { return gone }     // development mode's live reload
        let at = request.field("at").map { String($0.split(separator: "?", maxSplits: 1).first ?? "") }
        // A dialog's answer is out of date only when the dialog it answers is not the one shown now (DialogAnswers).
        let outdated = dialogAnswerOutdated(name, request, ws, shown, at: at, here: here)
            ?? (request.field("v") != "\(ws.version)" || (at.map { $0.removingTrailingSlash != here } ?? true))
        if outdated && name != "authenticate" {
            ws.notice = app.engine.word(.pageOutOfDate)
            // A value typed on an older page of this screen stays in its field, with why it was not stored.
            if at.map({ $0.removingTrailingSlash == here }) == true, let cell = WebApp.typingCell(name, request, shown: shown),
               let text = request.field("value") {
                ws.typed.keep(text, refusal: app.engine.word(.pageOutOfDate), cell: cell, at: here)
            }
            return WebPages.redirect(there)
        }
        if options.token != nil, !ws.loggedIn, needsToken(name, shown, request, shell) {
            ws.error = app.engine.word(.logInFirst)
            return WebPages.redirect(there)
        }
        if name == "authenticate" && shell.covered, let seconds = failedAttempts.wait(request.attemptAddress, now: attemptClock()) {
            ws.error = app.engine.word(.tooManyAttempts, count: Double(seconds), String(seconds))   // not checked: the guess waits
            return WebPages.redirect(there)
        }
        return nil
    }

    /// A value posted to a screen whose entry was deleted before it arrived (by another process, applied just now,
    /// or by another session): nothing is stored, and the person is told so — the entry was deleted, and their
    /// change of that cell to that value was not stored — on the nearest screen that still exists. (It said only
    /// "This page was out of date" or "That screen no longer exists", and the typed value was gone without a word.)
    /// Any command meeting a dialog over an entry deleted meanwhile closes it, said so, and runs nothing. Nil for
    /// anything else.
    func changeOfDeletedEntry(_ name: String, _ request: WebRequest, _ ws: WebSession, _ app: AppSession) -> WebResponse? {
        let shell = ws.shell
        // A dialog over an entry deleted meanwhile (a row's More sheet) closes unanswered: its action is not run.
        if closeRemovedDialogs(ws, app) { return WebPages.redirect(LocationPath.url(shell)) }
        guard name == "set", let value = request.field("value"),
              let at = request.field("at").map({ String($0.split(separator: "?", maxSplits: 1).first ?? "").removingTrailingSlash })
        else { return nil }
        let type: String
        if let entry = shell.top?.context, entry.state == .removed, at == LocationPath.path(shell.location) {
            type = entry.type.name
        } else if let left = ws.leftDeletedEntry, left.path == at, at != LocationPath.path(shell.location) {
            type = left.type           // the session was taken from that page already (a live update did)
        } else {
            return nil
        }
        let (cell, shown) = WebApp.cellAndValue(request, value, shown: ws.shown, screen: shell.top, app.engine)
        ws.notice = app.engine.deletedEntryNotice(type: type, cell: cell, value: shown)
        leaveRemovedEntities(ws, app)
        ws.moved = true
        return WebPages.redirect(LocationPath.url(shell))
    }

    /// The cell a `set` names, and the value as a person reads it (a switch's yes or no in the app's words). The
    /// cell is named one way: by its title as the page `shown` shows it where that title is a label (`%Name`: "Name",
    /// in the app's language), else by its id, the field's name — never by what the title shows of the entry (a
    /// detail titling its name cell with the book's name said "your change of Book 084 to …").
    static func cellAndValue(_ request: WebRequest, _ value: String, shown: Snapshot?, screen: (any ShellScreen)?,
                             _ engine: Engine) -> (cell: String, value: String) {
        let address = request.field("cell")
        let row = shown.flatMap { WebApp.shownRow(address, in: $0) }
        let id = row?.id.flatMap { $0.isEmpty ? nil : $0 }
        let labelled = id.flatMap { WebApp.titleIsLabel(cell: $0, on: screen) } == true
        let cell = (labelled ? row?.text.flatMap { $0.isEmpty ? nil : $0 } : nil) ?? id ?? address ?? ""
        return (cell, value == "true" ? engine.word(.yes) : value == "false" ? engine.word(.no) : value)
    }

    /// Whether the detail cell `cell` (its id) of `screen` is titled by a label (`%…` or `#…`), not by a value; nil
    /// when the screen has no such cell.
    static func titleIsLabel(cell: String, on screen: (any ShellScreen)?) -> Bool? {
        guard let found = (screen as? DetailScreen)?.declaration.identifiedCells.first(where: { $0.id == cell }) else { return nil }
        let title = found.cell["path"].trimmingCharacters(in: .whitespaces)
        return title.hasPrefix("%") || title.hasPrefix("#")
    }

    /// What a command's restore prompts met (`BackupPasswordGuard`): wrong backup passwords count against the
    /// address, a right one forgets its wrong ones.
    func backupPasswordsChecked(_ outcome: BackupPasswordGuard.Outcome, _ request: WebRequest) {
        for _ in 0..<outcome.wrong { failedBackupPasswords.failed(request.attemptAddress, now: attemptClock()) }
        if outcome.wrong > 0 { log("okit-run serve: a wrong backup password from \(request.attemptAddress)") }
        if outcome.right > 0, outcome.wrong == 0 { failedBackupPasswords.succeeded(request.attemptAddress) }
    }

    /// A store that failed after a command: the full error in the server's log; on the page, when the command
    /// changed something, that the change is not kept and why — in the app's language where okit has words (a
    /// full disk, a data folder the server may not write), naming no file of the server (storage.md).
    func notStored(_ error: any Error, changed: Bool, _ ws: WebSession, _ app: AppSession) {
        log("okit-run serve: warning: the state is not stored: \(error)")
        guard changed else { return }     // an earlier change (the first state of a model) failing again is the log's
        ws.error = keptOffline(app) ? app.engine.word(.appOffline)
            : WebApp.refusedValuesWords(error, app.engine) ?? app.engine.word(.notStored, WebApp.notStoredReason(error, app.engine))
    }

    /// How many changes the session's models had (`Model.changeCount`).
    static func changeCount(_ app: AppSession) -> Int {
        app.engine.models.reduce(0) { $0 &+ $1.changeCount }
    }

    /// Why a store failed, for a page: a full disk or a data folder the server may not write in the app's
    /// language; another failure of a file by its message without the file's path; anything else as it says.
    static func notStoredReason(_ error: any Error, _ engine: Engine) -> String {
        let inner = (error as? ModelNotStored)?.error ?? error
        guard let storage = inner as? StorageError else { return BrowserAdvice.message(for: inner) }
        switch storage.systemError {
        case ENOSPC?, EDQUOT?: return engine.word(.diskFull)
        case EROFS?, EACCES?, EPERM?: return engine.word(.dataNotWritable)
        default: return storage.message + (storage.remedy.map(BrowserAdvice.words(for:)) ?? "")
        }
    }

    /// Whether a change that was not stored is kept to be stored when the database is back (said as "offline"); a
    /// change that could not be kept on disk either is said as not kept (web.md: a store that fails).
    func keptOffline(_ app: AppSession) -> Bool { app.isOffline && !app.hasChangesInMemoryOnly }

    /// Whether the command changes everyone's data and so needs the login token: the screen kind's page says
    /// (`WebScreenKind.needsToken`: backups restored or deleted, the settings that act on storage).
    func needsToken(_ name: String, _ snapshot: Snapshot, _ request: WebRequest, _ shell: AppShell) -> Bool {
        kinds.page(for: snapshot.screen.kind).needsToken(name, WebCommandPlace(shell: shell, snapshot: snapshot, field: request.field))
    }

    /// The form's fields as the driver's named arguments: rows and cells by id, else by 1-based position.
    func run(_ name: String, _ request: WebRequest, _ ws: WebSession) throws {
        var args: [String: Value] = [:]
        for key in ["row", "cell", "from", "to"] {
            if let v = request.field(key) { args[key] = Int(v).map { .int($0) } ?? .string(v) }
        }
        for key in ["text", "scope", "id", "title", "passphrase", "action"] {
            if let v = request.field(key) { args[key] = .string(v) }
        }
        if let v = request.field("value") {
            // A date field sends the wall-clock time of the app's time zone, as the page showed it (WallClock): the
            // date cell reads an ISO text without a zone so, as it does from every front end.
            args["value"] = v == "true" ? .bool(true) : v == "false" ? .bool(false) : .string(v)
        }
        if let v = request.field("on") { args["on"] = .bool(v == "true") }
        let fields = request.fields("fields")
        if !fields.isEmpty { args["fields"] = .list(fields.map { .string($0) }) }
        if !WebApp.builtInCommands.contains(name), let d = ws.driver.table[name]?.description {
            WebApp.arguments(d, from: request, into: &args)       // a screen kind's own command
        }
        if name == "authenticate", args["passphrase"] == nil { args["passphrase"] = .string("") }
        // Without a passphrase or an app function to check, the cover on the web asks for the login token.
        if name == "authenticate", let token = options.token, let app = hosted?.session,
           !app.authenticatesByPassphrase, app.callbacks.authenticate == nil, ws.shell.covered {
            guard case .string(let typed)? = args["passphrase"], RandomToken.equal(typed, token) else {
                throw ShellError.authenticationFailed
            }
        }
        let page = kinds.page(for: ws.shown?.screen.kind ?? "")
        if ws.recording != nil { args = WebApp.asSeen(name, args, ws) }      // as a test names them
        try ws.driver.run(name, args)
        // A compound form (the backups screen's): the prompts the command opened are answered with its fields.
        try page.afterCommand(name, fields: fields, ws.driver)
    }

    /// The built-in commands, whose form fields are read above.
    static let builtInCommands = Set(Driver.builtIn.map(\.description.name))

    /// A screen kind's own command: its arguments from the form's fields by their description (a row: a position
    /// or an id; a value: `true`, `false` or text; texts: every field of the name).
    static func arguments(_ d: CommandDescription, from request: WebRequest, into args: inout [String: Value]) {
        for a in d.arguments where args[a.name] == nil {
            if a.form == .texts {
                let all = request.fields(a.name)
                if !all.isEmpty { args[a.name] = .list(all.map { .string($0) }) }
                continue
            }
            guard let v = request.field(a.name) else { continue }
            switch a.form {
            case .row: args[a.name] = Int(v).map { .int($0) } ?? .string(v)
            case .value: args[a.name] = v == "true" ? .bool(true) : v == "false" ? .bool(false) : .string(v)
            case .flag: args[a.name] = .bool(v == "true")
            case .number: args[a.name] = Double(v).map { .double($0) } ?? .string(v)
            case .text, .optionalText, .texts: args[a.name] = .string(v)
            }
        }
    }

    /// A value a cell refused from a form (`set`): a picker's or segment's choice, a switch's yes or no, a date —
    /// what only a page other than this one (or a person who emptied a date that is not optional) sends. Said as the
    /// page names the cell, in the app's words ("Genre does not take this value; nothing was changed."), never with the command
    /// line's advice (positions, ids, ISO dates). Nil for other errors.
    static func refusedValueWords(_ error: any Error, cell address: String?, shown: Snapshot, _ engine: Engine) -> String? {
        switch error {
        case ShellError.worded, DetailError.ambiguousOption, DetailError.takesNoValue: break
        default: return nil
        }
        let row = shownRow(address, in: shown)
        // A date typed where the browser has no date field keeps its own message: it names the format to type.
        if row?.kind == "date" { return nil }
        let title = row.flatMap { $0.text?.isEmpty == false ? $0.text : $0.id } ?? address ?? ""
        return engine.word(.valueNotTaken, title)
    }

    /// The row a form's `cell` names on the page shown: the row of that id, else of that 1-based position.
    static func shownRow(_ address: String?, in shown: Snapshot) -> RowSnapshot? {
        let rows = shown.screen.sections.flatMap(\.rows)
        return rows.first { $0.id == address && address?.isEmpty == false }
            ?? address.flatMap(Int.init).flatMap { $0 >= 1 && $0 <= rows.count ? rows[$0 - 1] : nil }
    }

    /// A refusal a person meets on a page from another tab or an older page — an open question, a cell outside
    /// edit mode, a row gone, a cover — in the person's words and language (web.md: never as a command line); nil
    /// for the others, which keep their own message (an action's error says what is wrong as the terminal does).
    static func personWords(for error: any Error, _ engine: Engine) -> String? {
        switch error {
        case let shell as ShellError: return personWords(for: shell, engine)
        case DetailError.readOnly(let cell), DetailError.noValueBinding(let cell, _, _):
            return engine.word(.valueNotTaken, engine.localize(cell))
        // What only a form that is not the page's own names (a tampered or very old form): no command-line wording.
        case DetailError.noAccessory, SelectionError.noId, is CommandUsageError: return engine.word(.notOnThisPage)
        case is TextWithNUL: return nulWords(nil, engine)     // the engine's names the model and the entity's id
        default: return nil
        }
    }

    /// `personWords` of the shell's refusals: every one a form can meet, none in the command line's words.
    static func personWords(for shell: ShellError, _ engine: Engine) -> String? {
        switch shell {
        case .alertPending: return engine.word(.answerFirst)
        case .notEditing(let cell): return engine.word(.editModeOnly, engine.localize(cell))
        case .noRow: return engine.word(.rowGone)
        case .noCellAt: return engine.word(.notOnThisPage)
        case .searchTooLong(let n): return engine.word(.searchTooLong, count: Double(n), String(n), String(SearchText.maxLength))
        case .badValue(let cell, _), .notEditable(let cell): return engine.word(.valueNotTaken, engine.localize(cell))
        case .covered: return engine.word(.unlockFirst)
        case .authenticationFailed: return engine.word(.wrongPassphrase)
        // Unlocked meanwhile (the cover's form posted twice, or from another tab): nothing to do.
        case .notCovered: return engine.word(.pageOutOfDate)
        // The screen showed an entity removed meanwhile (by another person): the page now shows where they are.
        case .screenClosed: return engine.word(.pageOutOfDate)
        // What only a form that is not the page's own names (a tampered or very old form: a button disabled since,
        // a command the screen does not take, a scope it does not have).
        case .noButton, .noMenuItem, .noCell, .noSegue, .wrongKind, .noAlert, .noAction, .noScope, .disabled,
             .disabledButton, .disabledCellAccessory, .ambiguousRow, .noRowMatching, .noSearch, .unknownTab, .atHome,
             .atPresentedRoot, .nothingPresented, .noHelp, .noMenu, .notAllowed:
            return engine.word(.notOnThisPage)
        // A mistake in the app's declarations (a segue to no screen, a binding with no context, an add that reaches
        // no collection, …) keeps its own message: the person can tell whoever runs the app what it says.
        case .worded, .duplicateScreen, .unknownKind, .unknownScreen, .noHome, .notStarted, .notYet, .noContext:
            return nil
        }
    }
}

/// A command ran but the models could not be stored after it (`WebApp.command`).
private struct NotStored: Error {
    let error: any Error
}
