import Foundation
import OKitBackends
import Testing
@testable import OKitEngine
@testable import OKitLua

/// A storage kind added from outside (docs/engine.md "Where to put a new storage kind"): it reads nothing and
/// counts the stores it is asked for.
final class CountingStorage: ModelStorage {
    var stores = 0
    func load(name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel? { nil }
    func store(_ model: Model, engine: any ModelHost) throws -> StoreOutcome {
        stores += 1
        model.clearDirty()
        return .skipped
    }
}

@Suite struct StorageRegistryTests {
    @Test func theBuiltInKindsAreRegisteredInOrder() {
        #expect(StorageRegistry.builtIn.kinds.map(\.rawValue) == ["file", "transient", "encrypted", "http", "encryptedHttp", "sqlite", "postgres"])
        #expect(StorageRegistry.builtIn.kind(named: "redis") == nil)
    }

    @Test func aRegisteredKindIsUsedByOkitModelAndListedWhenAKindIsUnknown() throws {
        let memory = CountingStorage()
        let asked = LockedBox<[String]>([])
        let t = try TempApp(["app.lua": """
            local okit = require "okit"
            okit.entity("Note", { text = "string" })
            notes = okit.model("Note", { name = "notes", storage = "memory" })
            okit.state { notes }
            """])
        let app = try t.launch { o in
            o.storageKinds.register(StorageKind(rawValue: "memory")) { request in
                asked.value.append(request.model)
                return memory
            }
        }
        #expect(asked.value == ["notes"])
        #expect(app.engine.storage(of: "notes") === memory)
        try app.storeState()
        #expect(memory.stores == 1)

        let bad = try TempApp(["app.lua": "local okit = require 'okit'\nokit.entity('N', { t = 'string' })\nokit.model('N', { storage = 'redis' })\n"])
        do { _ = try bad.launch { $0.storageKinds.register(StorageKind(rawValue: "memory")) { _ in memory } }; Issue.record("no error") } catch {
            #expect("\(error)".contains("unknown storage \"redis\" (file, transient, encrypted, http, encryptedHttp, sqlite, postgres, memory)"), "\(error)")
        }
    }
}

/// A value a non-escaping test closure may change.
final class LockedBox<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}
