import Foundation
import Testing
import OKitTestSupport
import OKitEngine

// docs/engine.md "Where to put a new storage kind" shows this kind as it is written here, through the engine's
// public API only (no `@testable`): `theWalkthroughIsThisCode` checks that the section's Swift blocks are the
// parts of this file marked `walkthrough:`, word for word.

// walkthrough: the kind
/// An S3-shaped kind: each model is one object, `<model>.json`, in the bucket its `bucket` option names.
final class S3Storage: ModelStorage, BackupParticipant {
    let bucket: String
    let client: S3Client

    init(bucket: String, client: S3Client) {
        self.bucket = bucket
        self.client = client
    }

    /// The storage of one `s3` model. `bucket`: the process's setting, else the model's option, else the app's.
    static func factory(_ request: StorageRequest, client: S3Client) throws -> ModelStorage {
        guard let bucket = try request.option("bucket", expected: "a bucket name", example: "shop-data") else {
            throw StorageOptionError(kind: request.kind, option: "bucket", reason: .missing(example: "shop-data"))
        }
        return S3Storage(bucket: bucket, client: client)
    }

    func load(name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel? {
        guard let bytes = try client.get(bucket, name + ".json") else { return nil }   // nothing yet: start fresh
        return try ModelDocument.read(bytes, rootType: rootType, engine: engine, source: "s3://\(bucket)/\(name).json")
    }

    func store(_ model: Model, engine: any ModelHost) throws -> StoreOutcome {
        guard model.isDirty else { return .unchanged }
        let bytes = ModelDocument.bytes(of: model, engine: engine)
        try client.put(bucket, model.name + ".json", bytes)
        model.markStored()
        return .full(bytes: bytes.count)
    }

    // A capability: the object is not a file of the data folder, so a backup holds it as the model's JSON file,
    // and a restore puts it back.
    func backupSnapshot(_ model: Model, engine: any ModelHost) throws -> [UInt8] {
        try client.get(bucket, model.name + ".json") ?? ModelDocument.bytes(of: model, engine: engine)
    }

    func restoreFromBackup(_ root: Entity, model: Model, engine: any ModelHost) throws {
        try client.put(bucket, model.name + ".json", ModelDocument.bytes(root: root, engine: engine))
    }
}

extension StorageKind {
    static let s3 = StorageKind(rawValue: "s3")
}

/// Where the objects are: S3's HTTP API for a real kind.
protocol S3Client: AnyObject {
    func get(_ bucket: String, _ key: String) throws -> [UInt8]?
    func put(_ bucket: String, _ key: String, _ bytes: [UInt8]) throws
}
// walkthrough: end

/// The test's buckets, in memory.
final class MemoryS3: S3Client {
    var objects: [String: [UInt8]] = [:]
    func get(_ bucket: String, _ key: String) throws -> [UInt8]? { objects[bucket + "/" + key] }
    func put(_ bucket: String, _ key: String, _ bytes: [UInt8]) throws { objects[bucket + "/" + key] = bytes }
}

/// The S3-shaped kind of the walkthrough, registered by one line and used as a front end uses a kind.
@Suite struct S3StorageKindTests {
    /// A session on `folder` with the `s3` kind registered, a shop of books declared and its model kept in S3.
    static func session(_ folder: TempFolder, client: MemoryS3, options modelOptions: [String: Value] = ["bucket": .string("shop-data")],
                        settings: [String: String] = [:]) throws -> (AppSession, Model) {
        var options = SessionOptions()
        options.dataFolder = folder.url
        options.storageSettings = settings
        // walkthrough: register
        options.storageKinds.register(.s3, options: ["bucket"]) { try S3Storage.factory($0, client: client) }
        // walkthrough: end
        let session = AppSession(options: options)
        try session.engine.schema.entity("Book", fields: [FieldSpec("name", .string)])
        try session.engine.schema.entity("Shop", fields: [try FieldSpec("books", "[Book]")])
        try session.engine.schema.validate()
        let storage = try session.makeStorage(kind: .s3, model: "default", options: modelOptions)
        let model = try session.engine.register(model: "default", type: "Shop", storage: storage, storageKind: .s3)
        return (session, model)
    }

    static func names(_ session: AppSession, _ model: Model) throws -> [String] {
        try session.engine.collection(model.root, "books").items.compactMap { $0.entity?["name"]?.displayString }
    }

    @Test func aModelIsStoredAsAnObjectAndReadBack() throws {
        let folder = try TempFolder(), s3 = MemoryS3()
        do {
            let (session, model) = try Self.session(folder, client: s3)
            try session.engine.insert(.entity(session.engine.make("Book", ["name": .string("Dune")])),
                                      into: session.engine.collection(model.root, "books"))
            #expect(try session.engine.store(model) != .unchanged)
            #expect(try session.engine.store(model) == .unchanged)
            session.closeDataFolder()
        }
        #expect(s3.objects["shop-data/default.json"] != nil)
        let (again, model) = try Self.session(folder, client: s3)
        #expect(try Self.names(again, model) == ["Dune"])
    }

    @Test func theKindDeclaresTheOptionItReads() throws {
        let folder = try TempFolder()
        let (session, _) = try Self.session(folder, client: MemoryS3())
        #expect(session.options.storageKinds.options(of: .s3) == ["bucket"], "an app file may give bucket to an s3 model")
        #expect(session.options.storageKinds.allOptions.contains("bucket"))
    }

    @Test func theBucketIsAnOptionTheProcessMayOverride() throws {
        let folder = try TempFolder(), s3 = MemoryS3()
        do {
            _ = try Self.session(folder, client: s3, options: [:])
            Issue.record("a model without a bucket was made")
        } catch let e as StorageOptionError {
            #expect(e.option == "bucket" && e.kind == .s3)
            guard case .missing(let example) = e.reason else { Issue.record("not missing: \(e)"); return }
            #expect(example == "shop-data")
        }
        do {
            _ = try Self.session(folder, client: s3, options: ["bucket": .int(5)])
            Issue.record("a bucket that is no text was taken")
        } catch let e as StorageOptionError {
            guard case .wrongType = e.reason else { Issue.record("not a wrong type: \(e)"); return }
        }
        let (session, model) = try Self.session(folder, client: s3, settings: ["bucket": "other"])
        try session.engine.insert(.entity(session.engine.make("Book", ["name": .string("Emma")])),
                                  into: session.engine.collection(model.root, "books"))
        try session.engine.store(model)
        #expect(s3.objects.keys.sorted() == ["other/default.json"])
    }

    @Test func aBackupHoldsTheObjectAndARestorePutsItBack() throws {
        let folder = try TempFolder(), s3 = MemoryS3()
        let (session, model) = try Self.session(folder, client: s3)
        try session.engine.insert(.entity(session.engine.make("Book", ["name": .string("Dune")])),
                                  into: session.engine.collection(model.root, "books"))
        try session.createBackup(name: "before", password: nil)
        try session.engine.insert(.entity(session.engine.make("Book", ["name": .string("Emma")])),
                                  into: session.engine.collection(model.root, "books"))
        try session.storeState()
        #expect(try Self.names(session, model) == ["Emma", "Dune"])
        try session.restoreBackup(name: "before", password: nil)
        #expect(try Self.names(session, session.engine.model(named: "default")!) == ["Dune"])
        #expect(!FileManager.default.fileExists(atPath: DataFolder(folder.url).models + "/default.json"),
                "the backup's JSON file went back to the kind, not into the data folder")
    }

    /// The parts of a text between `// walkthrough: NAME` and `// walkthrough: end`, without their common indent.
    static func walkthroughParts(_ text: String) -> [String] {
        var parts: [String] = [], current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t == "// walkthrough: end", let c = current {
                let indent = c.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
                parts.append(c.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n"))
                current = nil
            } else if t.hasPrefix("// walkthrough: ") {
                current = []
            } else {
                current?.append(line)
            }
        }
        return parts
    }

    /// The Swift blocks of docs/engine.md's section "Where to put a new storage kind".
    static func walkthroughBlocks() throws -> [String] {
        let doc = try String(contentsOf: OKitRun.root.appendingPathComponent("docs/engine.md"), encoding: .utf8)
        guard let start = doc.range(of: "## Where to put a new storage kind") else { return [] }
        let section = doc[start.upperBound...].components(separatedBy: "\n## ")[0]
        var blocks: [String] = [], current: [String]?, indent = 0
        for line in section.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t == "```swift" {
                current = []
                indent = line.prefix { $0 == " " }.count
            } else if t == "```", let c = current {
                blocks.append(c.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(String(line.dropFirst(min(indent, line.prefix { $0 == " " }.count))))
            }
        }
        return blocks
    }

    @Test func theWalkthroughIsThisCode() throws {
        let here = try String(contentsOf: OKitRun.root.appendingPathComponent("Tests/OKitEngineTests/S3StorageKindTests.swift"), encoding: .utf8)
        let parts = Self.walkthroughParts(here)
        let blocks = try Self.walkthroughBlocks()
        #expect(parts.count == 2, "the walkthrough parts of this file were not found")
        #expect(blocks == parts, "docs/engine.md \"Where to put a new storage kind\" differs from S3StorageKindTests.swift: copy the parts marked walkthrough: into the section")
    }
}
