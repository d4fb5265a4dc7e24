import Foundation

/// What an app that replaces this one takes over (development mode's live reload, web.md "Live reload"): the
/// models as they are in memory, the data folder's storage with its lock, and the virtual clock's time.
public struct ReloadHandover {
    /// The `file`, `encrypted` and `transient` models, by name, as the JSON file storage writes
    /// (`SessionOptions.modelsInMemory`). Models kept elsewhere (`sqlite`, `postgres`, `http`) are read from their
    /// store again.
    public var models: [String: [UInt8]]
    /// The data folder's storage (`SessionOptions.openDataFolder`), nil when no model opened it.
    public var dataFolder: FileStorage?
    /// The virtual clock's time now (the new app's clock goes on from here); nil on the system clock.
    public var virtualNow: Date?
    /// The seed of the new app's ids on the virtual clock: the next one after this app's, so that its ids do not
    /// repeat the ones already made.
    public var seed: UInt64

    /// Sets the options of the app that takes over.
    public func apply(to options: inout SessionOptions) {
        options.modelsInMemory = models
        options.openDataFolder = dataFolder
        if let virtualNow {
            options.virtualNow = virtualNow
            options.seed = seed
        }
    }
}

extension AppSession {
    /// The kinds whose models are handed over in memory.
    static let kindsHandedOver: Set<StorageKind> = [.file, .encrypted, .transient]

    /// Stores what changed (so nothing typed is lost whatever the new app declares), then hands the models over
    /// in memory: the new app starts from them, is not seeded and reads nothing of them from disk.
    public func handOver() throws -> ReloadHandover {
        try storeState()
        var models: [String: [UInt8]] = [:]
        for m in engine.models where Self.kindsHandedOver.contains(m.storageKind) {
            models[m.name] = Array(engine.json(of: m).utf8)
        }
        return ReloadHandover(models: models, dataFolder: fileStorage, virtualNow: virtualClock?.now,
                              seed: options.seed &+ 1)
    }
}
