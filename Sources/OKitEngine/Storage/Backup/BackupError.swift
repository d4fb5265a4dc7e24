import Foundation

/// Why a backup could not be created, listed, deleted or restored. The description is one or two lines: the
/// backup (or file) concerned, what is wrong, and what to do. A failed restore always leaves the data as it was.
public struct BackupError: RemedyCarrying, Sendable {
    public enum Kind: Sendable, Equatable {
        /// The name is empty or not safe as a file name.
        case invalidName
        /// A backup with this name exists already.
        case exists
        /// No backup with this name (or no file at this path).
        case notFound
        /// The file is not a readable backup: truncated, garbage, a malformed manifest.
        case damaged
        /// An entry's path would leave the data folder, is a link, or is not in the manifest (zip-slip).
        case unsafeEntry
        /// An entry's size or SHA-256 differs from the manifest, or a manifest file is missing.
        case mismatch
        /// A secure backup was given no password.
        case passwordNeeded
        /// A secure backup was given the wrong password.
        case wrongPassword
        /// A sealed file needs a key the caller could not supply.
        case keyNeeded
        /// A file of the backup does not decode (not JSON, or refused by the app's validation).
        case invalidFile
        /// The backup was written by a newer okit.
        case newerFormat
        /// A model file of the backup was stored by a newer version of the app (`okit.app { version }`).
        case newerApp
        /// The backup was made by another app (another `okit.app` id).
        case otherApp
        /// A system call failed (disk full, permissions).
        case io
    }

    public let kind: Kind
    /// The backup's name or file path.
    public let backup: String
    /// What is wrong, and what to do (may be two lines).
    public let message: String
    /// The way out the front end words (after `message`).
    public let remedy: Remedy?

    public init(_ kind: Kind, backup: String, _ message: String, remedy: Remedy? = nil) {
        self.kind = kind
        self.backup = backup
        self.message = message
        self.remedy = remedy
    }

    /// The remedy in the front end's words, once `worded(_:)` gave them.
    public var advice: String?
    /// For a backup that does not read (damaged, refused, not matching its manifest): what is wrong, in a few
    /// words without the backup's name (what `backup list` shows as `damaged: …`).
    public var reason: String?

    func because(_ reason: String) -> BackupError {
        var e = self
        e.reason = reason
        return e
    }

    /// The same error with the remedy worded by `wording` (nil: left neutral).
    public func worded(_ wording: (@Sendable (Remedy) -> String)?) -> BackupError {
        var e = self
        if let wording, let remedy { e.advice = wording(remedy) }
        return e
    }

    public var description: String { message + (advice ?? "") }
    public var neutralDescription: String { message }

    // MARK: The messages, in one place

    static func invalidName(_ name: String, _ reason: String) -> BackupError {
        BackupError(.invalidName, backup: name, "invalid backup name \"\(name)\": \(reason)\n  use at most \(BackupStore.maxNameLength) characters, not starting with . and without \(BackupStore.forbiddenInName.map { String($0) }.joined(separator: " "))")
    }

    static func exists(_ name: String, path: String) -> BackupError {
        BackupError(.exists, backup: name, "a backup named \(name) exists; choose another name or delete it\n  (\(path))")
    }

    static func notFound(_ nameOrFile: String, folder: String) -> BackupError {
        BackupError(.notFound, backup: nameOrFile, "no backup named \(nameOrFile) in \(folder), and no such file\n  list the backups, or give the path of a .okbackup file")
    }

    static func damaged(_ backup: String, path: String, _ why: String) -> BackupError {
        BackupError(.damaged, backup: backup, "damaged backup \(backup) (\(path)): \(why)\n  nothing was changed; use another backup").because(why)
    }

    static func unsafeEntry(_ backup: String, entry: String, _ why: String) -> BackupError {
        BackupError(.unsafeEntry, backup: backup, "refused backup \(backup): entry \"\(JSONPathLocator.escape(entry.count > 120 ? String(entry.prefix(120)) + "…" : entry))\" \(why)\n  nothing was changed; the archive was not made by okit or was tampered with")
            .because("entry \"\(JSONPathLocator.escape(entry.count > 120 ? String(entry.prefix(120)) + "…" : entry))\" \(why)")
    }

    /// `remedy`: a limit the archive is over (nil: a layout okit never writes).
    static func refused(_ backup: String, path: String, _ why: String, remedy: Remedy? = nil) -> BackupError {
        let whose = remedy == nil ? "; the archive was not made by okit or was tampered with" : ""
        return BackupError(.unsafeEntry, backup: backup, "refused backup \(backup) (\(path)): \(why)\n  nothing was changed\(whose)", remedy: remedy).because(why)
    }

    static func otherApp(_ backup: String, made: String, this: String) -> BackupError {
        BackupError(.otherApp, backup: backup, "backup \(backup) was made by app \"\(made)\", not by this app (\"\(this)\"); nothing was changed", remedy: .forceRestore)
    }

    static func newerApp(_ backup: String, _ e: NewerAppData) -> BackupError {
        BackupError(.newerApp, backup: backup, "backup \(backup) was made by version \(e.stored) of the app (\(e.file)), and this app is version \(e.app): an older app does not take newer data\n  nothing was changed; restore it with version \(e.stored) of the app, or restore a backup made with version \(e.app)")
    }

    static func mismatch(_ backup: String, file: String, _ why: String) -> BackupError {
        BackupError(.mismatch, backup: backup, "damaged backup \(backup): \(file) \(why)\n  nothing was changed; use another backup").because("\(file) \(why)")
    }

    static func passwordNeeded(_ backup: String) -> BackupError {
        BackupError(.passwordNeeded, backup: backup, "backup \(backup) is secure: it needs its password")
    }

    static func wrongPassword(_ backup: String) -> BackupError {
        BackupError(.wrongPassword, backup: backup, "wrong password for backup \(backup)\n  nothing was changed; try again with the password it was created with")
    }

    static func keyNeeded(_ backup: String, file: String, keyId: String) -> BackupError {
        BackupError(.keyNeeded, backup: backup, "the backup's encrypted files need the key they were written with (key id \(keyId))\n  backup \(backup), first sealed file \(file); nothing was changed",
                    remedy: .passphraseOrKeyFile)
    }

    static func invalidFile(_ backup: String, file: String, _ why: String) -> BackupError {
        BackupError(.invalidFile, backup: backup, "backup \(backup): \(file) does not load: \(why)\n  nothing was changed; use another backup")
    }

    static func io(_ backup: String, path: String, _ what: String) -> BackupError {
        BackupError(.io, backup: backup, "backup \(backup): \(what): \(path)")
    }
}
