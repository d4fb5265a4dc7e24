import Foundation
import OKitEngine

/// Backups downloaded and uploaded (web.md "Files"). A download is named by a backup's name and served only when
/// that name is one the session's backup list holds; an upload is verified exactly as `okit-run backup restore`
/// verifies a backup (`BackupStore.restore` into a scratch data folder, with the app's keys and schema) and only
/// then kept in the backups folder, under a sanitized name no other backup has. An upload never restores: that is
/// the backups screen's own command.
extension WebApp {
    /// Whether this session may touch everyone's backups: without a login token anyone may, with one only after
    /// logging in.
    func mayHandleBackups(_ ws: WebSession) -> Bool { options.token == nil || ws.loggedIn }

    /// Why this session may not download or upload a backup now, or nil: not logged in (with a token), or covered
    /// by protection — a covered page shows nothing of the models, and a backup is all of them (web.md "Sessions").
    func refusedBackups(_ ws: WebSession) -> WebResponse? {
        guard mayHandleBackups(ws) else { return said(403, .backupsNeedLogin, link: "/login") }
        if ws.shell.covered { return said(403, .unlockFirst, link: "/") }
        return nil
    }

    /// `GET /backups/<name>`: the backup's file as an attachment, streamed.
    func backupDownload(_ name: String, _ ws: WebSession, _ app: AppSession) -> WebResponse {
        if let refused = refusedBackups(ws) { return refused }
        let info: BackupInfo?
        do { info = try app.listBackups().first { $0.name == name } } catch {
            return WebPages.message(500, "The backups could not be listed: \(BrowserAdvice.message(for: error))")
        }
        guard let info else { return notFound("There is no backup of that name.") }
        var r = WebResponse(status: 200, headers: [
            ("Content-Type", "application/octet-stream"),
            ("Content-Disposition", WebApp.attachment(info.name + "." + BackupStore.fileExtension)),
            ("Content-Length", "\(info.size)"), ("Cache-Control", "no-store"),
        ] + WebPages.securityHeaders)
        r.file = info.url.path
        return r
    }

    /// `attachment; filename="…"` with the name's ASCII letters, digits and `-_. ` (others `_`), then
    /// `filename*=UTF-8''…` with the whole name percent-encoded (RFC 6266).
    static func attachment(_ filename: String) -> String {
        let ascii = String(filename.unicodeScalars.map { c -> Character in
            c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || "-_. ".unicodeScalars.contains(c)) ? Character(c) : "_"
        })
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(PageContext.pathSegment(filename))"
    }

    /// Whether an upload may be read, asked before a byte of its body is: the session (by its cookie), the CSRF token
    /// (in the query or `X-CSRF-Token`: the body is not read yet), the login, and a free upload slot
    /// (`ServeOptions.maxUploads`). Admitted, it gets the file its body is streamed into, in the backups folder's
    /// upload area (`.uploads/`, emptied at start); `uploadEnded` gives the slot back.
    public func admitUpload(_ request: WebRequest) -> Result<URL, WebRefusal> {
        if let host = request.host, !hostCheck.allows(host) {
            return .failure(WebRefusal(WebPages.misdirected(host: host)))
        }
        if request.forwarded, options.token == nil {
            return .failure(WebRefusal(WebPages.message(403, "okit-run serve answers requests through a proxy only with --token-file.")))
        }
        guard let id = sessionId(request), let ws = sessions[id], let app = hosted?.session else {
            return .failure(WebRefusal(said(403, .sessionEnded)))
        }
        if let refused = refusedCSRF(request.headerCSRF, ws) { return .failure(WebRefusal(refused)) }
        guard !mustLogIn(ws, request), mayHandleBackups(ws) else {
            return .failure(WebRefusal(said(403, .backupsNeedLogin, link: "/login")))
        }
        // Covered: refused before a byte of the body is written (`backupUpload` refuses it too).
        if ws.shell.covered { return .failure(WebRefusal(said(403, .unlockFirst, link: "/"))) }
        guard uploadsInProgress < options.maxUploads else {
            return .failure(WebRefusal(said(503, .uploadsBusy, count: uploadsInProgress)))
        }
        guard let dataFolder = app.options.dataFolder else {
            return .failure(WebRefusal(WebPages.message(400, "This app keeps no backups (no data folder).")))
        }
        let area = BackupStore(dataFolder: dataFolder).backupFolder.appendingPathComponent(".uploads")
        do { try FileManager.default.createDirectory(at: area, withIntermediateDirectories: true) } catch {
            return .failure(WebRefusal(WebPages.message(500, "The upload area \(area.path) cannot be made: \(BrowserAdvice.message(for: error))")))
        }
        uploadsInProgress += 1
        ws.lastSeen = Date()
        return .success(area.appendingPathComponent(UUID().uuidString + ".part"))
    }

    /// An admitted upload was handled (or refused while its body was read).
    public func uploadEnded() { uploadsInProgress = max(0, uploadsInProgress - 1) }

    /// `POST /backups` (multipart: the file as `backup`, optionally `password` for a secure backup), admitted by
    /// `admitUpload`: the CSRF token again (from the query, a header or the form), then the login, then the file
    /// is verified and kept; 303 to the page the form was on, with a notice (or the error that refused it).
    func backupUpload(_ request: WebRequest, _ ws: WebSession, _ app: AppSession) -> WebResponse {
        if let refused = refusedCSRF(request.headerCSRF ?? request.field("csrf"), ws) { return refused }
        if let refused = refusedBackups(ws) { return refused }
        guard let upload = request.upload, upload.size > 0 else {
            return WebPages.message(400, "The upload holds no backup file (the form's file field is \"backup\").")
        }
        let back = LocationPath.path(ws.shell.location)
        let password = request.field("password").flatMap { $0.isEmpty ? nil : $0 }
        // A password is checked only when the address need not wait (wrong ones are slowed down as logins are).
        if password != nil, let seconds = failedBackupPasswords.wait(request.attemptAddress, now: attemptClock()) {
            ws.error = app.engine.word(.tooManyAttempts, count: Double(seconds), String(seconds))
            ws.moved = true
            return WebPages.redirect(back)
        }
        do {
            let name = try importBackup(upload, password: password, app)
            if password != nil { failedBackupPasswords.succeeded(request.attemptAddress) }
            ws.notice = app.engine.word(.backupUploaded, name)
        } catch {
            if (error as? WebFileError)?.wrongPassword == true {
                failedBackupPasswords.failed(request.attemptAddress, now: attemptClock())
                log("okit-run serve: a wrong backup password from \(request.attemptAddress)")
            }
            ws.error = app.engine.word(.uploadNotKept, BrowserAdvice.message(for: error))
        }
        ws.moved = true
        return WebPages.redirect(back)
    }

    /// Verifies an uploaded backup as a restore would (into a scratch data folder, which is then deleted), then
    /// writes it into the backups folder under its sanitized file name (without folders; `Uploaded Backup` when that is not a safe
    /// name), numbered when a backup has that name already. Returns the name it was kept under.
    func importBackup(_ upload: WebUpload, password: String?, _ app: AppSession) throws -> String {
        guard let dataFolder = app.options.dataFolder else { throw WebFileError("this app keeps no backups (no data folder)") }
        let target = BackupStore(dataFolder: dataFolder)
        let scratchRoot = FileManager.default.temporaryDirectory.appendingPathComponent("okit-upload-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: scratchRoot) }
        var scratch = BackupStore(dataFolder: scratchRoot)
        scratch.appId = app.appId
        scratch.allowOtherApp = app.options.restoreOtherApp
        scratch.forms = app.options.storageKinds.forms
        scratch.limits = app.options.archiveLimits
        try FileManager.default.createDirectory(at: scratch.backupFolder, withIntermediateDirectories: true)
        let scratchFile = scratch.backupFolder.appendingPathComponent("upload." + BackupStore.fileExtension)
        // The file's own name, without the folders a browser may send with it.
        let leaf = upload.filename.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        try FileManager.default.copyItem(at: upload.file, to: scratchFile)
        if try scratch.isSecure("upload"), password == nil {
            throw WebFileError("it is a secure backup: give its password with the file so that it can be checked")
        }
        let storage = app.fileStorage
        let passphrase = app.options.passphrase
        let engine = app.engine, forms = app.options.storageKinds.forms
        do {
            try scratch.restore("upload", password: password, key: { id in storage?.key(withId: id, passphrase: passphrase) },
                                validate: { path, bytes in try engine.checkDecodes(relativePath: path, bytes: bytes, forms: forms) })
        } catch {
            // The check's words name the scratch copy's path on this server: the person is told of their file instead.
            let said = BrowserAdvice.message(for: error)
                .replacingOccurrences(of: scratchFile.path, with: leaf.isEmpty ? "the file" : leaf)
                .replacingOccurrences(of: scratchRoot.path, with: "")
            throw WebFileError(said, wrongPassword: (error as? BackupError)?.kind == .wrongPassword)
        }
        // Verified: keep it under a name of its own.
        let base = (try? BackupStore.sanitize(leaf)) ?? "Uploaded Backup"
        let taken = Set(try app.listBackups().map(\.name))
        var name = base
        var n = 2
        while taken.contains(name) || FileManager.default.fileExists(atPath: target.backupFolder.appendingPathComponent(name + "." + BackupStore.fileExtension).path) {
            // The suffix keeps the name within the rule: the base is shortened for it.
            let suffix = " \(n)"
            name = String(base.prefix(BackupStore.maxNameLength - suffix.count)) + suffix
            n += 1
        }
        try FileManager.default.createDirectory(at: target.backupFolder, withIntermediateDirectories: true)
        let temporary = target.backupFolder.appendingPathComponent(".upload-" + UUID().uuidString)
        try FileManager.default.copyItem(at: upload.file, to: temporary)
        let final = target.backupFolder.appendingPathComponent(name + "." + BackupStore.fileExtension)
        guard rename(temporary.path, final.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw WebFileError("the backup could not be written into \(target.backupFolder.path)")
        }
        return name
    }
}

/// Why an upload was not kept, in words for the page.
struct WebFileError: Error, CustomStringConvertible {
    let description: String
    /// The file is a secure backup and the password given is not its own.
    var wrongPassword = false
    init(_ description: String, wrongPassword: Bool = false) {
        self.description = description
        self.wrongPassword = wrongPassword
    }
}
