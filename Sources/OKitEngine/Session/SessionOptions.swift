import Foundation

/// How an app session runs: where its data lives, its clock, and the settings the front end read at the edge
/// (a passphrase, the storage kinds' settings), passed in as values.
public struct SessionOptions {
    /// The data folder (`--data`); file models live in `<data>/okit/data/`.
    public var dataFolder: URL?
    /// A virtual clock starting here (`--clock virtual --now …`); nil means the system clock.
    public var virtualNow: Date?
    /// Seed of ids (and of the app language's random numbers) under the virtual clock (`--seed`).
    public var seed: UInt64 = 0
    /// Language that overrides the app's locale (`--lang`).
    public var language: String?
    /// The passphrase encrypted models' key is derived from; nil: the key file.
    public var passphrase: String?
    /// Settings of the process for storage kinds, by name (`StorageHost.setting(_:)`), read at the edge by the
    /// front end: a setting named as a model option overrides every model's (`endpoint`: the base URL of `http`
    /// and `encryptedHttp` models; `database`: the database of `postgres` models), the others are a kind's own
    /// (`endpointToken`: sent as `Authorization: Bearer …` to HTTP endpoints; `httpTimeout`: the total deadline of
    /// each HTTP request, in seconds; `databasePassword`: nil takes the URL's).
    public var storageSettings: [String: String] = [:]
    /// `storageSettings["endpoint"]`.
    public var endpoint: String? {
        get { storageSettings["endpoint"] }
        set { storageSettings["endpoint"] = newValue }
    }
    /// `storageSettings["endpointToken"]`.
    public var endpointToken: String? {
        get { storageSettings["endpointToken"] }
        set { storageSettings["endpointToken"] = newValue }
    }
    /// `storageSettings["database"]`.
    public var databaseURL: String? {
        get { storageSettings["database"] }
        set { storageSettings["database"] = newValue }
    }
    /// `storageSettings["databasePassword"]`.
    public var databasePassword: String? {
        get { storageSettings["databasePassword"] }
        set { storageSettings["databasePassword"] = newValue }
    }
    /// `storageSettings["httpTimeout"]` as seconds (default 10).
    public var httpTimeout: TimeInterval {
        get { storageSettings["httpTimeout"].flatMap(TimeInterval.init) ?? 10 }
        set { storageSettings["httpTimeout"] = String(newValue) }
    }
    /// The largest file okit reads (storage.md "Limits"; one value per process, set when the session starts).
    public var maxFileSize = AtomicFile.defaultMaxFileSize
    /// The limits of reading a backup archive (docs/backups.md "Limits").
    public var archiveLimits = ArchiveLimits()
    /// Restores backups made by another app (another app id) too (`okit-run backup restore --force`).
    public var restoreOtherApp = false
    /// Loads models whose data a newer app version stored (otherwise refused) without running anything on them,
    /// so that a restore replaces them, keeping the old data whole (`okit-run backup restore`).
    public var restoreOverNewer = false
    /// The storage kinds a model may name (`StorageRegistry.core`, the engine's own; a front end that links the
    /// backends gives `StorageRegistry.builtIn`); register another here.
    public var storageKinds = StorageRegistry.core
    /// The screen kinds a screen may be of, with their commands (`ScreenKinds.builtIn`); register another here.
    public var screenKinds = ScreenKinds.builtIn
    /// Words what a person can do about a storage error (`Remedy`), in the front end's terms (okit-run's flags);
    /// nil leaves the engine's errors neutral.
    public var remedyWording: (@Sendable (Remedy) -> String)?
    /// Where the process's log lines go (`LogLine`: a shared database out of reach and back, pending changes stored
    /// at start or not kept on disk, conflicts): `okit-run serve` writes them to stderr for whoever runs it. Nil: a
    /// warning of the session (`Engine.warnings`; a conflict is one either way).
    public var log: (@Sendable (LogLine) -> Void)?
    /// Development mode's live reload (`AppSession.handOver()`): models of the app being replaced, by name, as the
    /// JSON file storage writes; a `file`, `encrypted` or `transient` model of that name starts from it instead of
    /// reading its storage (or being seeded).
    public var modelsInMemory: [String: [UInt8]] = [:]
    /// Development mode's live reload: the data folder's storage of the app being replaced, taken over with its
    /// lock (one app per data folder in a process).
    public var openDataFolder: FileStorage?

    public init() {}
}

/// What the declaring side (the Lua bridge, or a Swift program) supplies to a session: the callbacks a running
/// app needs from the code that declared it.
public struct SessionCallbacks {
    /// Brings a model stored by an older version of the app up to date (after a backup is restored).
    public var migrate: ((Model) throws -> Void)?
    /// The app's own answer to the protection cover (`okit.app { authenticate }`): true uncovers.
    public var authenticate: (() throws -> Bool)?
    /// Runs after every command of a shell, before the session's own settings apply (the Lua bridge runs the
    /// navigation its actions asked for).
    public var afterCommand: ((AppShell) throws -> Void)?

    public init() {}
}

/// A session refused something for a reason that is the caller's to word (the front end adds what to do).
public enum SessionError: Error, Equatable, CustomStringConvertible {
    /// A model needs the data folder and the session has none.
    case noDataFolder

    public var description: String {
        switch self {
        case .noDataFolder: return "no data folder"
        }
    }
}
