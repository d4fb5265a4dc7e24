import Foundation

/// File storage of models in a data folder. STUB: being written.
public final class FileStorage: ModelStorage {
    public let dataFolder: URL
    public init(dataFolder: URL) throws { self.dataFolder = dataFolder }
    public func load(name: String, rootType: EntityType, engine: Engine) throws -> LoadedModel? { nil }
    public func store(_ model: Model, engine: Engine) throws -> StoreOutcome { model.clearDirty(); return .skipped }
}
