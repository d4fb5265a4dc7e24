import Foundation

/// The name of a storage kind (`okit.model(type, { storage = "…" })`). Open: a kind is any name a
/// `StorageRegistry` holds; the engine's own have a static member, and so may a kind of another target.
public struct StorageKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let file = StorageKind(rawValue: "file")
    public static let transient = StorageKind(rawValue: "transient")
    public static let encrypted = StorageKind(rawValue: "encrypted")
    public static let http = StorageKind(rawValue: "http")
    public static let encryptedHttp = StorageKind(rawValue: "encryptedHttp")
}

/// The storage kinds by name (storage.md "Storage kinds"): name → factory, and the model options each reads. A new
/// kind is one folder (or target) and one `register` (docs/engine.md "Where to put a new storage kind").
public struct StorageRegistry {
    public typealias Factory = (StorageRequest) throws -> ModelStorage

    private var factories: [StorageKind: Factory] = [:]
    private var optionNames: [StorageKind: [String]] = [:]
    /// The kinds in the order they were registered (the order an unknown kind's message lists them in).
    public private(set) var kinds: [StorageKind] = []
    /// The forms kinds keep models in inside the data folder besides `<model>.json` (`DataFolderForm`).
    public private(set) var forms: [DataFolderForm] = []

    public init() {}

    /// Adds (or replaces) a kind. `options`: the names of the model options its factory reads
    /// (`okit.model(type, { storage = "s3", bucket = "…" })`); a model gets these in `StorageRequest.options`, and
    /// an option no registered kind reads is refused where the model is declared. Nil: the options of the kind
    /// this one replaces (none for a new kind).
    public mutating func register(_ kind: StorageKind, options: [String]? = nil, _ factory: @escaping Factory) {
        if factories[kind] == nil { kinds.append(kind) }
        factories[kind] = factory
        if let options { optionNames[kind] = options } else if optionNames[kind] == nil { optionNames[kind] = [] }
    }

    /// Adds (or replaces) a kind that keeps its models in a form of its own inside the data folder.
    public mutating func register(_ kind: StorageKind, form: DataFolderForm, options: [String]? = nil, _ factory: @escaping Factory) {
        register(kind, options: options, factory)
        forms.removeAll { $0.kind == kind }
        forms.append(form)
    }

    /// The kind with this name, if registered.
    public func kind(named name: String) -> StorageKind? {
        let kind = StorageKind(rawValue: name)
        return factories[kind] == nil ? nil : kind
    }

    /// The model options a kind reads (`register(_:options:_:)`), in the order given.
    public func options(of kind: StorageKind) -> [String] { optionNames[kind] ?? [] }

    /// Every model option some registered kind reads, each once, in the order of the kinds.
    public var allOptions: [String] {
        var seen = Set<String>()
        return kinds.flatMap { options(of: $0) }.filter { seen.insert($0).inserted }
    }

    /// The storage of one model.
    public func makeStorage(_ request: StorageRequest) throws -> ModelStorage {
        guard let factory = factories[request.kind] else { throw StorageOptionError(kind: request.kind, reason: .unknownKind) }
        return try factory(request)
    }

    /// The engine's own kinds: file, transient, encrypted, http, encryptedHttp. The database kinds are targets of
    /// their own (`OKitSQLite`, `OKitPostgres`), registered by the front end that links them (`OKitBackends`:
    /// `StorageRegistry.builtIn`).
    public static var core: StorageRegistry {
        var r = StorageRegistry()
        r.register(.file) { try $0.host.dataFolderStorage() }
        r.register(.transient) { _ in TransientStorage() }
        r.register(.encrypted, FileStorage.sealedFactory)
        r.register(.http, options: ["endpoint"], HTTPStorage.factory)
        r.register(.encryptedHttp, options: ["endpoint"], HTTPStorage.factory)
        return r
    }
}
