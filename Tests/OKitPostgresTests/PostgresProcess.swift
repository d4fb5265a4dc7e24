import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitPostgres

/// One okit "process" in the Postgres tests: an engine with its own data folder and connections over a shared
/// database (two of them in one test stand for two processes).
final class PostgresProcess {
    let folder: TempFolder
    let engine: Engine
    let files: FileStorage
    let storage: PostgresStorage
    let model: Model
    var conflicts: [ConflictRecord] = []
    var root: Entity { model.root }

    init(url: String, folder existing: TempFolder? = nil, schema build: (Schema) throws -> Void,
         seed: ((Engine, Entity) throws -> Void)? = nil, batchBytes: Int? = nil, fetchRows: Int? = nil,
         recordRows: Bool = true,
         configure: ((PostgresStorage) -> Void)? = nil) throws {
        folder = try existing ?? TempFolder()
        let schema = Schema()
        try build(schema)
        engine = Engine(schema: schema)
        files = try FileStorage(dataFolder: folder.url)
        storage = PostgresStorage(files: files, settings: try PostgresSettings.parse(url))
        if let batchBytes { storage.batchBytes = batchBytes }
        if let fetchRows { storage.fetchRows = fetchRows }
        storage.recordRows = recordRows
        configure?(storage)
        let engine = self.engine
        // Conflicts found while loading (pending changes replayed) are kept too.
        var early: [ConflictRecord] = []
        storage.onConflict = { early.append($0) }
        model = try engine.register(model: "default", type: "Shop", storage: storage, storageKind: .postgres) { root in
            try seed?(engine, root)
        }
        conflicts = early
        storage.onConflict = { [unowned self] in self.conflicts.append($0) }
    }

    var books: EntityCollection { get throws { try engine.collection(root, "books") } }
    func collection(_ name: String) throws -> EntityCollection { try engine.collection(root, name) }
    func book(_ id: String) -> Entity? { engine.lookup(id: id, from: model) }

    /// Applies the other processes' announced changes, waiting (up to `timeout` seconds) until one arrived;
    /// false when none did.
    @discardableResult
    func follow(timeout: TimeInterval = 10) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try storage.followAnnouncements(model, engine: engine) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    func store() throws { try engine.store(model) }

    /// Closes the connections and the data folder (another process may then open the same folder).
    func close() { storage.close(); files.close() }

    deinit { storage.close(); files.close() }
}
