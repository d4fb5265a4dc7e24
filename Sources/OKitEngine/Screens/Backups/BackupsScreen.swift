import Foundation

/// The backups screen (`okit.backups`, storage.md "Backups").
public struct BackupsDeclaration: ScreenDeclaration {
    public var id: String
    public var type: String? { nil }
    public var kind: String { "backups" }
    /// `secure`: backups are sealed with a password (a binding, default `#false`).
    public var secure = ""
    public var titlePath = "%Backups"
    public var help: String?

    public init(id: String) { self.id = id }

    public func open(in shell: AppShell, context: Entity?, opener: (any ShellScreen)?) throws -> any ShellScreen {
        BackupsScreen(declaration: self, shell: shell, context: context)
    }

    public func check(_ run: ScreenCheckRun) {
        run.run(id, "secure", secure, run.root, flag: FlagProperties.backups.contains("secure"))
        run.run(id, "titlePath", titlePath, run.root)
        run.checkHelp(id, help)
    }
}

/// An open backups screen: one row per backup (`text` its name, `detail` its relative date, or "Damaged: cannot be
/// restored" for a file that does not read as a backup), newest first, and a
/// `+` bar button (`button add`, as `add`). `add`
/// creates one (a prompt for the name, and for secure backups the password twice), `tap` restores one after a
/// confirmation (and its password), `delete` deletes one after a confirmation. A failure is an alert with OK.
public final class BackupsScreen: ShellScreen {
    public let declaration: BackupsDeclaration
    unowned let shell: AppShell
    public let context: Entity?
    var engine: Engine { shell.engine }

    init(declaration: BackupsDeclaration, shell: AppShell, context: Entity?) {
        self.declaration = declaration
        self.shell = shell
        self.context = context
    }

    public var id: String { declaration.id }
    public var kind: String { declaration.kind }
    /// Backups screens answer `help` with none (their `help` is not shown yet).
    public func help() -> String? { nil }
    public var editing: Bool { false }

    public func setEditing(_ on: Bool) throws { throw ShellError.notAllowed("edit", id) }

    var service: any BackupService {
        get throws {
            guard let s = shell.backupService else { throw ShellError.notAllowed("backups (the app has no data folder)", id) }
            return s
        }
    }

    /// Whether new backups are secure (`secure` on the app's root).
    func isSecure() throws -> Bool {
        declaration.secure.isEmpty ? false : try engine.get(context, declaration.secure, mode: .display).truthy
    }

    public func snapshot(offset: Int, limit: Int) throws -> ScreenSnapshot {
        var snap = ScreenSnapshot(id: id, kind: "backups", context: context?.debugName)
        snap.title = try engine.text(context, declaration.titlePath)
        let backups = try service.listBackups()
        engine.graph.record(.clock)
        let rows = backups.map { b in
            // A file that does not read as a backup says so instead of a date (restoring it is refused).
            var r = RowSnapshot(id: b.name, text: b.name,
                                detail: b.damaged != nil ? engine.word(.backupDamaged)
                                    : DateExtensions.format(b.createdAt, .dateTime, relative: true, engine))
            r.delete = true
            return r
        }
        snap.rowCount = rows.count
        snap.buttons = [ButtonSnapshot(id: "add", title: "+", enabled: true)]
        snap.sections = [SectionSnapshot(header: nil, footer: nil, rows: Array(rows.dropFirst(max(0, offset)).prefix(max(0, limit))))]
        return snap
    }

    /// `button add` (or `+`): the bar's one button, as `add` (OKit's backups screen has + in its bar).
    public func button(_ name: String) throws {
        let b = try ButtonSnapshot.pressed(name, among: [ButtonSnapshot(id: "add", title: "+", enabled: true)])
        if b.id == "add" { try add(text: nil) }
    }

    /// The backup a row names: its position, `[section, row]` or its name.
    func backup(_ row: RowAddress) throws -> BackupInfo {
        let all = try service.listBackups()
        switch row {
        case .position(let n):
            guard n >= 1, n <= all.count else { throw ShellError.noRow("\(n)", count: all.count) }
            return all[n - 1]
        case .pair(_, let n):
            guard n >= 1, n <= all.count else { throw ShellError.noRow("\(n)", count: all.count) }
            return all[n - 1]
        case .key(let k):
            guard let b = all.first(where: { $0.name == k }) else {
                throw ShellError.noRowMatching(k, candidates: all.map(\.name).filter { $0.localizedCaseInsensitiveContains(k) }, count: all.count)
            }
            return b
        }
    }

    func failed(_ title: BuiltInWord, _ error: Error) {
        shell.present(PendingAlert(kind: "alert", title: shell.engine.word(title), message: Self.personMessage(error, shell.engine),
                                   actions: [shell.engine.word(.ok)]) { _, _ in })
    }

    /// A failure as the person reads it, in the app's language: a wrong or missing password, a name taken or not
    /// allowed, a backup that cannot be used; what only whoever runs the app can act on (a disk, a key, a newer
    /// format) as the error says it.
    static func personMessage(_ error: Error, _ engine: Engine) -> String {
        guard let e = error as? BackupError else { return "\(error)" }
        switch e.kind {
        case .wrongPassword: return engine.word(.backupWrongPassword, e.backup)
        case .passwordNeeded: return engine.word(.backupNeedsPassword, e.backup)
        case .exists: return engine.word(.backupExists, e.backup)
        case .invalidName:
            // Why, when the rule's text does not say it (a control character): in English only, as okit has no word
            // for it in the other languages.
            let why = e.message.range(of: ": it contains a ").map { String(e.message[$0.lowerBound...].dropFirst(2).prefix { $0 != "\n" }) }
            let control = why.map { $0.hasSuffix("control character") || $0.hasSuffix("direction control") } ?? false
            return engine.word(.backupBadName, e.backup)
                + (control && BuiltInWords.isEnglish(engine.locale.language) ? " (\(why ?? ""))" : "")
        case .damaged, .unsafeEntry, .mismatch, .invalidFile, .otherApp: return engine.word(.backupUnusable, e.backup)
        case .notFound, .keyNeeded, .newerFormat, .newerApp, .io: return "\(error)"
        }
    }

    /// `add`: a prompt for the name (and, for secure backups, `Password` and `Confirm Password`); OK is refused
    /// until the name is filled in and the passwords match.
    public func add(text: String?) throws {
        let secure = try isSecure()
        let word = shell.engine.builtInWords
        var fields = [AlertFieldSnapshot(placeholder: word(.name), value: "")]
        if secure {
            fields.append(AlertFieldSnapshot(placeholder: word(.password), value: "", secure: true))
            fields.append(AlertFieldSnapshot(placeholder: word(.confirmPassword), value: "", secure: true))
        }
        let service = try service
        shell.present(PendingAlert(kind: "prompt", title: word(.newBackup),
                                   message: word(secure ? .nameTheSecureBackup : .nameTheBackup),
                                   actions: [shell.engine.word(.ok), shell.engine.word(.cancel)], fields: fields, needsFields: [1],
                                   validate: { choice, values in
                                       guard choice == 1, secure, values.count >= 3 else { return nil }
                                       return values[1] == values[2] ? nil : word(.passwordsDiffer)
                                   }) { [unowned self] choice, values in
            guard choice == 1 else { return }
            do {
                try service.createBackup(name: values[0], password: secure ? values[1] : nil)
            } catch { failed(.backupFailed, error) }
        })
    }

    /// `tap`: restores after a confirmation, asking for the password of a secure backup.
    public func tap(_ row: RowAddress) throws {
        let b = try backup(row)
        let service = try service
        shell.present(PendingAlert(kind: "alert", title: shell.engine.word(.restoreBackup),
                                   message: shell.engine.word(.replaceAllData, b.name), actions: [shell.engine.word(.yes), shell.engine.word(.no)]) { [unowned self] choice, _ in
            guard choice == 1 else { return }
            if b.secure {
                shell.present(PendingAlert(kind: "prompt", title: shell.engine.word(.password), message: shell.engine.word(.passwordOf, b.name),
                                           actions: [shell.engine.word(.ok), shell.engine.word(.cancel)], fields: [AlertFieldSnapshot(placeholder: shell.engine.word(.password), value: "", secure: true)],
                                           needsFields: [1]) { [unowned self] choice, values in
                    guard choice == 1 else { return }
                    restore(b, password: values.first, service)
                })
            } else {
                restore(b, password: nil, service)
            }
        })
    }

    func restore(_ b: BackupInfo, password: String?, _ service: any BackupService) {
        do { try service.restoreBackup(name: b.name, password: password) } catch { failed(.restoreFailed, error) }
    }

    /// `delete`: after a confirmation.
    public func delete(_ row: RowAddress) throws {
        let b = try backup(row)
        let service = try service
        shell.present(PendingAlert(kind: "alert", title: shell.engine.word(.confirmDeletion), message: shell.engine.word(.deleteBackup, b.name),
                                   actions: [shell.engine.word(.yes), shell.engine.word(.no)]) { [unowned self] choice, _ in
            guard choice == 1 else { return }
            do { try service.deleteBackup(name: b.name) } catch { failed(.deleteFailed, error) }
        })
    }
}
