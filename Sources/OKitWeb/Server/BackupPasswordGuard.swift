import Foundation
import OKitEngine

/// A session's backups (its shell's `BackupService`), with its wrong passwords counted (web.md "Security"): the
/// backups screen's restore prompt checks a secure backup's password on the engine's thread (PBKDF2, 600,000
/// rounds), so wrong ones are slowed down by address as guesses of the login token are. Before each command the web
/// app says whether the address must wait (`begin`): a password is then not checked at all, and the restore fails
/// with the wait in the app's words. After the command it reads what the passwords met (`end`).
final class BackupPasswordGuard: BackupService {
    let app: AppSession
    /// The refusal while the address waits (set for each command), else nil.
    private var waiting: String?
    private var outcome = Outcome()

    struct Outcome {
        var wrong = 0
        var right = 0
    }

    init(_ app: AppSession) { self.app = app }

    func begin(waiting: String?) {
        self.waiting = waiting
        outcome = Outcome()
    }

    func end() -> Outcome {
        defer { outcome = Outcome(); waiting = nil }
        return outcome
    }

    func listBackups() throws -> [BackupInfo] { try app.listBackups() }
    func createBackup(name: String, password: String?) throws { try app.createBackup(name: name, password: password) }
    func deleteBackup(name: String) throws { try app.deleteBackup(name: name) }
    func isSecureBackup(name: String) throws -> Bool { try app.isSecureBackup(name: name) }

    func restoreBackup(name: String, password: String?) throws {
        guard let password else { return try app.restoreBackup(name: name, password: nil) }
        if let waiting { throw Waiting(description: waiting) }
        do {
            try app.restoreBackup(name: name, password: password)
            outcome.right += 1
        } catch let e as BackupError where e.kind == .wrongPassword {
            outcome.wrong += 1
            throw e
        }
    }

    /// A password not checked: the address waits (its words are the page's).
    struct Waiting: Error, CustomStringConvertible {
        let description: String
    }
}
