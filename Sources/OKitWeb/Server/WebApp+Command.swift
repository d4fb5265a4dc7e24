import Foundation
import OKitEngine

/// POST /command: the CSRF token first, then the page's version and place; then the driver runs the command
/// on the session's shell, the models are stored (durable per command), and the answer is 303 to where the
/// shell is now (post/redirect/get).
extension WebApp {
    /// Driver commands a browser may not send (web.md: quit and relaunch act on the process).
    static let refused: Set<String> = ["quit", "relaunch", "advance", "store", "background", "foreground"]

    func command(_ request: WebRequest, _ ws: WebSession, _ app: AppSession) -> WebResponse {
        guard let csrf = request.field("csrf"), RandomToken.equal(csrf, ws.csrf) else {
            return WebPages.message(403, "The form's security token is wrong or missing; nothing was changed. Reload the page and try again.")
        }
        guard let name = request.field("command"), !name.isEmpty else {
            return WebPages.message(400, "The form names no command.")
        }
        let shell = ws.shell
        if name == "hidden" {
            // The page was hidden: with protection on, this session is covered.
            ws.runningCommand = true
            do { try app.background(shell) } catch { ws.error = "\(error)" }
            ws.runningCommand = false
            ws.moved = true
            return WebResponse(status: 204, headers: WebPages.securityHeaders)
        }
        guard !WebApp.refused.contains(name) else {
            return WebPages.message(400, "\"\(name)\" is not a command of the web front end.")
        }
        // A post from an outdated page applies nothing.
        let current: Snapshot
        do { current = try ws.snapshot() } catch { return WebPages.message(500, "This screen could not be shown: \(error)", link: "/") }
        let here = LocationPath.path(shell.location)
        let at = request.field("at").map { String($0.split(separator: "?", maxSplits: 1).first ?? "") }
        let outdated = request.field("v") != "\(ws.version)" || (at.map { $0.removingTrailingSlash != here } ?? true)
        if outdated && name != "authenticate" {
            ws.notice = "This page was out of date, so nothing was changed; here is the current one."
            return WebPages.redirect(here)
        }
        if options.token != nil, !ws.loggedIn, needsToken(name, current, request, shell) {
            ws.error = "This changes the data of everyone using the app: log in with the token first (/login)."
            return WebPages.redirect(here)
        }
        ws.runningCommand = true
        defer { ws.runningCommand = false }
        let themeBefore = try? shell.settingTheme()
        let conflictsBefore = app.conflicts.count
        do {
            try run(name, request, ws)
            try app.storeState()
        } catch {
            ws.error = app.isOffline
                ? "The app is offline: your change is kept here and stored when the database is back."
                : "\(error)"
        }
        // A field another person stored first: this session's value lost and is reported (storage.md).
        if app.conflicts.count > conflictsBefore, let c = app.conflicts.last {
            ws.notice = "Someone else changed \(c.field) of this \(c.type) first: it is now \(c.theirs); your \(c.mine) was not stored (it is kept in okit/conflicts.jsonl)."
        }
        // This session changed the app's theme setting: the change is its own theme (and new sessions start
        // from it); the other sessions keep theirs.
        if let after = try? shell.settingTheme(), after != themeBefore { shell.themeOverride = after }
        ws.moved = true
        return WebPages.redirect(LocationPath.path(shell.location))
    }

    /// Backups restored or deleted, and the settings that act on everyone's data (the app's `encryption`,
    /// `protection` and `protectionTimeout` settings) need the token; the theme is each session's own.
    func needsToken(_ name: String, _ snapshot: Snapshot, _ request: WebRequest, _ shell: AppShell) -> Bool {
        switch snapshot.screen.kind {
        case "backups": return name == "tap" || name == "delete" || name == "respond"
        case "settings":
            guard name == "set" || name == "tap" else { return false }
            guard let detail = shell.declaration(snapshot.screen.id) as? DetailDeclaration,
                  let cellId = request.field("cell") ?? request.field("row") else { return true }
            let guarded = ["encryption", "protection", "protectionTimeout"].compactMap { shell.settingsBindings[$0] }
                .map { WebApp.firstStep($0) }
            for (index, c) in detail.identifiedCells.enumerated() where c.id == cellId || "\(index + 1)" == cellId {
                return c.cell.properties.values.contains { guarded.contains(WebApp.firstStep($0)) }
            }
            return true      // a cell the form names but the screen has not: refuse rather than guess
        default: return false
        }
    }

    /// The first step of a binding path (`protectionTimeout/ref/minutes` → `protectionTimeout`).
    static func firstStep(_ binding: String) -> String {
        String(binding.split(whereSeparator: { "/.>".contains($0) }).first ?? "")
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
            args["value"] = v == "true" ? .bool(true) : v == "false" ? .bool(false) : .string(v)
        }
        if let v = request.field("on") { args["on"] = .bool(v == "true") }
        let fields = request.fields("fields")
        if !fields.isEmpty { args["fields"] = .list(fields.map { .string($0) }) }
        if name == "authenticate", args["passphrase"] == nil { args["passphrase"] = .string("") }
        // Without a passphrase or an app function to check, the cover on the web asks for the login token.
        if name == "authenticate", let token = options.token, let app = hosted?.session,
           !app.authenticatesByPassphrase, app.callbacks.authenticate == nil, ws.shell.covered {
            guard case .string(let typed)? = args["passphrase"], RandomToken.equal(typed, token) else {
                throw ShellError.authenticationFailed
            }
        }
        let kind = ws.shown?.screen.kind
        try ws.driver.run(name, args)
        // The backups screen's compound forms: the prompts the command opened are answered with the form's fields.
        if kind == "backups", name != "respond", !fields.isEmpty {
            for _ in 0..<3 {
                guard let alert = try ws.shell.snapshot().alert else { break }
                let answer: [String: Value] = alert.fields.isEmpty ? ["action": .int(1)] : ["action": .int(1), "fields": .list(fields.map { .string($0) })]
                try ws.driver.run("respond", answer)
            }
        }
    }
}
