import Foundation

/// The name of a storage kind (`okit.model(type, { storage = "…" })`). Open: a kind is any name a
/// `StorageRegistry` holds; the built-in ones have a static member.
public struct StorageKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let file = StorageKind(rawValue: "file")
    public static let transient = StorageKind(rawValue: "transient")
    public static let encrypted = StorageKind(rawValue: "encrypted")
    public static let http = StorageKind(rawValue: "http")
    public static let encryptedHttp = StorageKind(rawValue: "encryptedHttp")
    public static let postgres = StorageKind(rawValue: "postgres")
}

/// What the app that declares models gives every storage kind: the data folder, opened once and shared (its
/// lock, its key), the settings of the process (passphrase, endpoint, token, timeout) and a place to share one
/// storage between models (one HTTP storage per endpoint).
public protocol StorageHost: AnyObject {
    /// The data folder's layout, when the app has a data folder.
    var dataFolderLayout: DataFolder? { get }
    /// The data folder's file storage, opened (and its lock taken) on first use; throws when there is no data folder.
    func dataFolderStorage() throws -> FileStorage
    /// The passphrase sealed models are keyed with (`OKIT_PASSPHRASE`); nil: the key file.
    var passphrase: String? { get }
    /// The endpoint that overrides every model's (`OKIT_ENDPOINT`).
    var endpointOverride: String? { get }
    /// The app's default endpoint (`okit.app { endpoint = … }`).
    var appEndpoint: String? { get }
    /// Sent as a bearer token to HTTP endpoints (`OKIT_ENDPOINT_TOKEN`); nil or empty: none.
    var endpointToken: String? { get }
    /// Seconds an HTTP request may take.
    var httpTimeout: TimeInterval { get }
    /// A storage shared by models under `id` (made once).
    func sharedStorage(_ id: String, make: () throws -> ModelStorage) throws -> ModelStorage
    /// Words the remedies of the storages' errors (`StorageError.advice`); nil: neutral messages.
    var remedyWording: (@Sendable (Remedy) -> String)? { get }
    /// The database URL that overrides every postgres model's (`OKIT_DATABASE_URL`).
    var databaseURLOverride: String? { get }
    /// The database password (`OKIT_DATABASE_PASSWORD`); nil: the URL's.
    var databasePassword: String? { get }
    /// The app's default database URL (`okit.app { database = … }`).
    var appDatabase: String? { get }
    /// Called (on any thread) when another process announced a change to a shared model: a front end that
    /// pushes live updates applies it now (`AppSession.followSharedModels`).
    var sharedModelChanged: (@Sendable () -> Void)? { get }
    /// A field changed by two processes of a shared model (storage.md "Shared models on PostgreSQL").
    func reportConflict(_ record: ConflictRecord)
}

extension StorageHost {
    public var remedyWording: (@Sendable (Remedy) -> String)? { nil }
    public var databaseURLOverride: String? { nil }
    public var databasePassword: String? { nil }
    public var appDatabase: String? { nil }
    public var sharedModelChanged: (@Sendable () -> Void)? { nil }
    public func reportConflict(_ record: ConflictRecord) {}
}

/// What a storage kind's factory is asked for: one model's storage.
public struct StorageRequest {
    /// The model's name (`okit.model(type, { name = … })`).
    public let model: String
    /// The kind asked for.
    public let kind: StorageKind
    /// The model's options: `endpoint` (a URL string) for HTTP kinds.
    public let endpoint: String?
    /// The app the model is declared in.
    public let host: StorageHost
    /// The model's `database` (a postgres:// URL) for the postgres kind.
    public let database: String?

    public init(model: String, kind: StorageKind, endpoint: String?, host: StorageHost, database: String? = nil) {
        self.model = model
        self.kind = kind
        self.endpoint = endpoint
        self.host = host
        self.database = database
    }
}

/// Why a storage kind refused a model's options or could not open its storage (the declaring side words it).
public enum StorageOptionError: Error {
    /// An HTTP kind without an endpoint (none in the model, the app or the environment).
    case noEndpoint
    /// An endpoint that is not an http:// or https:// URL with a host.
    case notAnHTTPURL(String)
    /// The data folder's key could not be had; `sealing`: for a sealed file model (else an HTTP storage).
    case key(Error, sealing: Bool)
    /// A kind no registry entry has.
    case unknownKind(String)
    /// A postgres model without a database URL (none in the model, the app or `OKIT_DATABASE_URL`).
    case noDatabase
    /// A database URL that cannot be used (the text says why, without the password).
    case badDatabaseURL(String)
}

/// The storage kinds by name (storage.md "Storage kinds"): name → factory. A new kind is one folder under
/// `Storage/` and one `register` (docs/engine.md "Where to put a new storage kind").
public struct StorageRegistry {
    public typealias Factory = (StorageRequest) throws -> ModelStorage

    private var factories: [StorageKind: Factory] = [:]
    /// The kinds in the order they were registered (the order an unknown kind's message lists them in).
    public private(set) var kinds: [StorageKind] = []

    public init() {}

    /// Adds (or replaces) a kind.
    public mutating func register(_ kind: StorageKind, _ factory: @escaping Factory) {
        if factories[kind] == nil { kinds.append(kind) }
        factories[kind] = factory
    }

    /// The kind with this name, if registered.
    public func kind(named name: String) -> StorageKind? {
        let kind = StorageKind(rawValue: name)
        return factories[kind] == nil ? nil : kind
    }

    /// The storage of one model.
    public func makeStorage(_ request: StorageRequest) throws -> ModelStorage {
        guard let factory = factories[request.kind] else { throw StorageOptionError.unknownKind(request.kind.rawValue) }
        return try factory(request)
    }

    /// The built-in kinds: file, transient, encrypted, http, encryptedHttp, sqlite, postgres.
    public static var builtIn: StorageRegistry {
        var r = StorageRegistry()
        r.register(.file) { try $0.host.dataFolderStorage() }
        r.register(.transient) { _ in TransientStorage() }
        r.register(.encrypted, FileStorage.sealedFactory)
        r.register(.http) { try HTTPStorage.factory($0, encrypted: false) }
        r.register(.encryptedHttp) { try HTTPStorage.factory($0, encrypted: true) }
        r.register(.sqlite, SQLiteStorage.factory)
        r.register(.postgres, PostgresStorage.factory)
        return r
    }
}
