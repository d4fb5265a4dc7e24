import Foundation
import OKitEngine

/// The process's log of a shared model (scale.md "What happens when something fails"): whoever runs the process
/// reads why pages say Offline — when the database went out of reach or refused the login, and when it answers
/// again — and whether changes that wait for it are kept on disk. Each is told once: an outage when it begins
/// (again only when its cause changes kind, say from a refused connection to a refused password) and when it ends,
/// never at every retry.
extension PostgresStorage {
    /// A store or a follow could not reach the database (or was not let in): the model is offline.
    func wentOffline(_ error: Error) {
        let failure = PostgresFailure(error)
        let was = offline
        offline = true
        link.close()
        if was, let outage, outage.failure == failure { return }
        outage = (was ? outage?.since ?? Date() : Date(), failure)
        let what = failure == .login ? "does not let this process in" : "is out of reach"
        let line = "the database of model \"\(modelName)\" (\(settings.shown)) \(what): \(text(error)); "
            + "its pages show Offline, and changes are kept pending (\(pendingPath)) and stored when it answers"
        onLog?(LogLine(line, remedy: failure == .login ? .checkDatabaseLogin : .checkDatabase, warning: true))
    }

    /// The database answered a store or a follow: the model is online; the end of an outage the log told of is told,
    /// with what became of the changes kept meanwhile: stored now by a store (`refused`: but for the values the
    /// database refused, which its error names), or by the next store after a follow (`storing` false).
    func cameBack(refused: Int = 0, storing: Bool = true) {
        offline = false
        guard let outage else { return }
        self.outage = nil
        let seconds = Int(Date().timeIntervalSince(outage.since).rounded())
        let pending = ((try? PostgresPending.load(pendingPath)) ?? nil)?.count ?? 0
        let them = "the \(pending) change\(pending == 1 ? "" : "s") kept meanwhile \(pending == 1 ? "is" : "are")"
        let but = refused == 0 ? "" : ", but for \(refused) value\(refused == 1 ? "" : "s") the database refused (named below)"
        let stored = pending == 0 ? "" : storing ? "; \(them) stored now\(but)" : "; \(them) stored by the next store"
        onLog?(LogLine("the database of model \"\(modelName)\" answers again (after \(seconds) s)\(stored)", warning: false))
    }

    /// The pending file could not be written (`reason`: its path and the OS's error): the changes are in memory
    /// only; the log says so once for each reason.
    func pendingNotKept(_ reason: String) {
        guard pendingNotKept != reason else { return }
        pendingNotKept = reason
        let line = "the changes to model \"\(modelName)\" that the database has not taken cannot be kept on disk: \(reason); "
            + "they are in memory only and lost if the process stops before the database answers"
        onLog?(LogLine(line, remedy: .described("free space, or make the data folder writable for this process"), warning: true))
    }

    /// The pending file was written after it could not be: the log says the changes are kept on disk again.
    func pendingKeptAgain() {
        guard pendingNotKept != nil else { return }
        pendingNotKept = nil
        onLog?(LogLine("the changes to model \"\(modelName)\" that the database has not taken are kept on disk again (\(pendingPath))", warning: false))
    }

    /// A file error in the OS's words (`Not a directory`, `Permission denied`), not Foundation's dump of it.
    static func fileError(_ error: Error) -> String {
        if let e = error as? StorageError { return e.message }
        let ns = error as NSError
        if let posix = ns.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        // Foundation's file errors without the OS's error under them (a folder that cannot be made).
        let codes: [CocoaError.Code: Int32] = [.fileWriteFileExists: EEXIST, .fileWriteNoPermission: EACCES,
                                               .fileWriteOutOfSpace: ENOSPC, .fileWriteVolumeReadOnly: EROFS,
                                               .fileNoSuchFile: ENOENT, .fileWriteInvalidFileName: EINVAL]
        if let e = error as? CocoaError, let code = codes[e.code] { return String(cString: strerror(code)) }
        return ns.localizedDescription
    }
}
