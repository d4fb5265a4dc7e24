import Foundation

/// What the app that declares models gives every storage kind: the data folder, opened once and shared (its
/// lock, its key), the process's settings (by name, read at the edge by the front end), the app's defaults for
/// model options, and a place to share one storage between models (one HTTP storage per endpoint).
public protocol StorageHost: AnyObject {
    /// The data folder's layout, when the app has a data folder: its paths only — the folder may not exist yet and
    /// its lock is not taken. A kind that reads or writes files there opens it with `dataFolderStorage()` first.
    var dataFolderLayout: DataFolder? { get }
    /// The forms the registered kinds keep models in inside the data folder (`StorageRegistry.forms`).
    var dataFolderForms: [DataFolderForm] { get }
    /// The data folder's file storage, opened (and its lock taken) on first use; throws when there is no data folder.
    func dataFolderStorage() throws -> FileStorage
    /// The passphrase sealed models are keyed with; nil: the key file.
    var passphrase: String? { get }
    /// A setting of the process, by name (`SessionOptions.storageSettings`): one that overrides every model's option
    /// of the same name (`endpoint`, `database`), or one of a kind's own (`endpointToken`, `httpTimeout`,
    /// `databasePassword`). Nil: not set.
    func setting(_ name: String) -> String?
    /// The app's default for a model option (`okit.app { endpoint = …, database = … }`); nil: none.
    func appDefault(_ option: String) -> String?
    /// A storage shared by models under `id` (made once).
    func sharedStorage(_ id: String, make: () throws -> ModelStorage) throws -> ModelStorage
    /// Words the remedies of the storages' errors (`StorageError.advice`); nil: neutral messages.
    var remedyWording: (@Sendable (Remedy) -> String)? { get }
    /// Called (on any thread) when another process announced a change to a shared model: a front end that
    /// pushes live updates applies it now (`AppSession.followSharedModels`).
    var sharedModelChanged: (@Sendable () -> Void)? { get }
    /// A field changed by two processes of a shared model (storage.md "Shared models on PostgreSQL").
    func reportConflict(_ record: ConflictRecord)
    /// A line for the process's log (`SessionOptions.log`).
    func log(_ line: LogLine)
}

extension StorageHost {
    public var dataFolderForms: [DataFolderForm] { [] }
    public func setting(_ name: String) -> String? { nil }
    public func appDefault(_ option: String) -> String? { nil }
    public var remedyWording: (@Sendable (Remedy) -> String)? { nil }
    public var sharedModelChanged: (@Sendable () -> Void)? { nil }
    public func reportConflict(_ record: ConflictRecord) {}
    public func log(_ line: LogLine) {}
}

/// What a storage kind's factory is asked for: one model's storage. Each kind reads the options it takes
/// (`option(_:)`, `flag(_:)`) and ignores the others.
public struct StorageRequest {
    /// The model's name (`okit.model(type, { name = … })`).
    public let model: String
    /// The kind asked for.
    public let kind: StorageKind
    /// The model's options as declared, by name (`okit.model(type, { endpoint = …, database = …, encrypted = … })`):
    /// those the kind reads (`StorageRegistry.options(of:)`).
    public let options: [String: Value]
    /// The app the model is declared in.
    public let host: StorageHost
    /// The model's root type and the schema it is declared in, when known (a kind that maps types to tables
    /// checks them).
    public let rootType: EntityType?
    public let schema: Schema?

    public init(model: String, kind: StorageKind, options: [String: Value] = [:], host: StorageHost,
                rootType: EntityType? = nil, schema: Schema? = nil) {
        self.model = model
        self.kind = kind
        self.options = options
        self.host = host
        self.rootType = rootType
        self.schema = schema
    }

    /// A text option as the kind uses it: the process's setting of that name first (it overrides every model's),
    /// then the model's option, then the app's default. A model option that is not a text is refused
    /// (`expected`, `example`: what the declaring side shows).
    public func option(_ name: String, expected: String, example: String) throws -> String? {
        let own: String?
        switch options[name] {
        case nil, .null?: own = nil
        case .string(let s)?: own = s
        default: throw StorageOptionError(kind: kind, option: name, reason: .wrongType(expected: expected, example: example))
        }
        return host.setting(name) ?? own ?? host.appDefault(name)
    }

    /// Whether a yes/no option is set to yes (`encrypted = true`).
    public func flag(_ name: String) -> Bool {
        if case .bool(true)? = options[name] { return true }
        return false
    }
}

/// Why a storage kind refused a model's options or could not open its storage: the facts, in no front end's words
/// (the declaring side words them: okit-run's `LuaApp.storage(for:…)`). A kind refuses its own options with these
/// few shapes.
public struct StorageOptionError: Error, CustomStringConvertible {
    public enum Reason: Sendable {
        /// The option is missing: none in the model, the app or the process's settings; `example`: a value of the
        /// right form.
        case missing(example: String)
        /// The option's value cannot be used: `problem` says why (neutral words, after the value); `example`: a
        /// value of the right form, nil when the problem says all.
        case invalid(value: String, problem: String, example: String?)
        /// The model's option is not of the type the kind reads (`expected`: "a URL string").
        case wrongType(expected: String, example: String)
        /// The kind cannot do what the option asks (`encrypted = true` for a database): `why`, and what to do
        /// `instead` (nil: only leave the option out).
        case notSupported(why: String, instead: String?)
        /// The model cannot be kept in this kind as declared (two entity types in one table).
        case schema(problem: String)
        /// The data folder's key could not be had (`underlying` says why); `sealing`: for a sealed file model.
        case key(sealing: Bool)
        /// No registry entry has the kind.
        case unknownKind
    }

    public let kind: StorageKind
    /// The option refused (nil: the refusal is not of one option).
    public let option: String?
    public let reason: Reason
    /// The error that made the kind refuse (the data folder's key).
    public let underlying: Error?
    /// True when the refusal comes from the stored data or the place it is kept (a key, a database), not from the
    /// app's declaration: okit-run exits with 4 rather than 3.
    public let isStorage: Bool

    public init(kind: StorageKind, option: String? = nil, reason: Reason, underlying: Error? = nil, isStorage: Bool = false) {
        self.kind = kind
        self.option = option
        self.reason = reason
        self.underlying = underlying
        self.isStorage = isStorage
    }

    public var description: String {
        let what = option ?? "storage \"\(kind)\""
        switch reason {
        case .missing(let example): return "no \(what) (e.g. \(example))"
        case .invalid(let value, let problem, let example): return "\(what) \"\(value)\" \(problem)" + (example.map { "; write it as \($0)" } ?? "")
        case .wrongType(let expected, let example): return "\(what) must be \(expected), e.g. \"\(example)\""
        case .notSupported(let why, let instead): return "storage \"\(kind)\" cannot be \(what) (\(why))" + (instead.map { "; \($0)" } ?? "")
        case .schema(let problem): return problem
        case .key: return "the data folder's key: \(underlying.map { "\($0)" } ?? "not available")"
        case .unknownKind: return "unknown storage \"\(kind)\""
        }
    }
}
