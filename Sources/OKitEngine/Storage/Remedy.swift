/// What the user can do about a storage, backup or key error, as data: the engine's messages say what is wrong
/// and what was kept; a front end words the way out in its own terms (okit-run: its commands, flags and
/// environment, `CommandLineAdvice`; the web: what a person in a browser can do, `BrowserAdvice`), given to the
/// session as `SessionOptions.remedyWording`. A storage kind outside the engine with a way out of its own says
/// it with `.described`.
public enum Remedy: Sendable, Equatable {
    /// A model file (or its journal) does not decode: fix it, or move it aside and start the model fresh.
    case fixOrRecover(model: String)
    /// A partial's payload does not decode: fix it, restore a backup, or move it aside.
    case fixOrRestorePartial
    /// A sealed file does not open: the passphrase it was written with, a backup, or moving the file aside
    /// (`model`: the model whose file it is; nil: another file, moved aside by hand at `path`).
    case passphraseBackupOrAside(model: String?, path: String)
    /// A model whose file could not be read is not written over: move it aside first.
    case recover(model: String)
    /// A model's journal is there without its model file: put the file back (the journal then applies), or move
    /// the journal aside and start the model fresh.
    case restoreModelFile(model: String)
    /// The data folder is locked by another process: quit it, or use another data folder.
    case anotherDataFolder
    /// A backup of another app: restore it anyway only on request.
    case forceRestore
    /// A server's copy that could not be read: overwrite it with the local copy.
    case syncKeepLocal
    /// The server's copy changed: keep the local copy or take the server's.
    case syncChoose
    /// The data folder named is not one (check which folder or app was meant).
    case checkDataFolder
    /// A passphrase change stopped: run it again with the same passphrases to finish it.
    case finishKeyChange
    /// A passphrase change was interrupted (`noKey`: and no key material here opens it).
    case finishInterruptedKeyChange(noKey: Bool)
    /// A passphrase was given for data keyed by the key file.
    case unsetPassphrase
    /// A model's data is in another form than its kind keeps: convert it to the kind first.
    case convert(model: String, to: StorageKind)
    /// The data's key comes from a passphrase and none was given: give it.
    case givePassphrase
    /// Sealed files need the key they were written with: the passphrase, or the key file restored.
    case passphraseOrKeyFile
    /// Sealed data read without its key: the passphrase it was written with, if it was written with one.
    case passphraseIfSealedWithOne
    /// A passphrase was given for data whose key is the key file at `keyFile`: leave the passphrase out.
    case useKeyFile(keyFile: String)
    /// The key file is missing: give the current passphrase.
    case giveCurrentPassphrase
    /// The key file (or the passphrase's salt) is missing while sealed files need it: restore it from a copy of
    /// `okit/keys/`, restore a secure backup, or move the sealed files aside.
    case restoreKeys
    /// The current key opened no sealed file (`passphraseGiven`: it came from a passphrase; `interrupted`: a
    /// change was cut short): the passphrase the data was sealed with, or the old one of the interrupted change.
    case currentKeyWrong(passphraseGiven: Bool, interrupted: Bool)
    /// A limit of what okit reads refused something (`limit`: `maxFileSize`, `backupMaxRatio`, `backupMaxSize`,
    /// `httpMaxBody`); the front end's setting of it raises it.
    case raiseLimit(String)
    /// A server could not be read: check its address and the server, then start again.
    case checkEndpoint
    /// A server refused the credentials (401, 403).
    case checkEndpointToken
    /// A database could not be reached: check that it runs and that the model names it.
    case checkDatabase
    /// A database refused the login (a wrong password or user, a database name it does not have): check the
    /// credentials and the name; waiting does not help.
    case checkDatabaseLogin
    /// The data folder cannot be created or written at start (`readOnly`: its file system is mounted read-only;
    /// else the user may not write there): make it writable, or give another data folder.
    case writableDataFolder(readOnly: Bool)
    /// A way out in plain words that need no front end's terms (a storage kind of its own uses this); every
    /// front end shows the text as it is.
    case described(String)
}

extension Remedy {
    /// The message a person reads for `error`: its neutral message and, when it carries a remedy, the front end's
    /// words for it (`wording`; nil leaves the message neutral, but a `.described` remedy is always said). The one
    /// way every front end turns an error into text.
    public static func message(for error: any Error, wording: (@Sendable (Remedy) -> String)?) -> String {
        guard let e = error as? any RemedyCarrying, let remedy = e.remedy else { return "\(error)" }
        if let wording { return e.neutralDescription + wording(remedy) }
        if case .described(let text) = remedy { return e.neutralDescription + "; " + text }
        return e.neutralDescription
    }
}

/// An error whose message says what is wrong and whose `remedy` says, as data, what the user can do.
public protocol RemedyCarrying: Error, CustomStringConvertible {
    /// The way out, worded by the front end; nil when the message says all.
    var remedy: Remedy? { get }
    /// The message without the front end's words for the remedy.
    var neutralDescription: String { get }
}
