import Crypto
import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// `http` and `encryptedHttp` models (storage.md) against a real nginx with WebDAV, with a fault-injecting
/// proxy in front of it: status codes are checked, a failed write stays pending on disk and is sent later, a
/// model is never started fresh because the server could not be read.
@Suite struct HTTPStorageTests {
    /// One run of an app: a shop fixture on an HTTP storage over `folder`.
    struct Run {
        let f: ShopFixture
        let storage: HTTPStorage
        let folder: TempFolder

        init(_ endpoint: URL, _ folder: TempFolder, books: [String]? = nil, key: SymmetricKey? = nil, token: String? = nil,
             timeout: TimeInterval = 5) throws {   // short deadlines only where the deadline is tested
            f = try ShopFixture()
            self.folder = folder
            storage = HTTPStorage(endpoint: endpoint, dataFolder: folder.url, encrypted: key != nil, key: key, token: token, timeout: timeout)
            if let books { try f.start(storage: storage, books: books) }
        }

        /// Registers the shop without seeding books (what a run that loads does).
        func load() throws -> Model { try f.engine.register(model: "default", type: "Shop", storage: storage) }

        func name(_ model: Model, _ i: Int = 0) throws -> String? { try f.engine.get(model.root, "books[\(i)]/name").displayString }

        func rename(_ model: Model, _ i: Int, _ name: String) throws {
            try f.engine.set(try #require(f.engine.get(model.root, "books[\(i)]").entity), "name", .string(name))
        }
    }

    func text(_ bytes: [UInt8]?) -> String { bytes.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    func pendingBody(_ folder: TempFolder) -> String {
        text(FileManager.default.contents(atPath: folder.url.path + "/okit/pending/default.json").map { [UInt8]($0) })
    }

    // MARK: Round trips

    @Test func aModelRoundTripsThroughNginx() throws {
        let nginx = try NginxServer()
        let a = try Run(nginx.endpoint, TempFolder(), books: ["Dune", "Emma"])
        guard case .full = try a.f.engine.store(a.f.shop) else { Issue.record("nothing was sent"); return }
        let onDisk = text(nginx.file("default.json"))
        #expect(onDisk.hasPrefix(#"{"okit":{"version":1,"type":"Shop""#) && onDisk.contains("Dune"), "the document is on nginx's disk")
        #expect(!a.storage.hasPendingChanges)
        #expect(try a.f.engine.store(a.f.shop) == .unchanged)

        let b = try Run(nginx.endpoint, TempFolder())   // another machine: nothing local
        let model = try b.load()
        #expect(try b.name(model, 0) == "Dune" && b.name(model, 1) == "Emma")
        #expect(!model.isDirty)
    }

    @Test func aMissingModelStartsFresh() throws {
        let nginx = try NginxServer()
        let run = try Run(nginx.endpoint, TempFolder())
        let model = try run.load()
        #expect(try run.f.engine.collection(model.root, "books").count == 0)
        #expect(model.isDirty, "a fresh model is written by the next store")
        #expect(nginx.file("default.json") == nil)
    }

    @Test func encryptedBodiesAreSealedOnTheServerAndLoadBack() throws {
        let nginx = try NginxServer()
        let key = SymmetricKey(size: .bits256)
        let a = try Run(nginx.endpoint, TempFolder(), books: ["Dune Secret"], key: key)
        try a.f.engine.store(a.f.shop)
        let sealed = try #require(nginx.file("default.json"))
        #expect(sealed.starts(with: Array("OKITENC1".utf8)))
        #expect(!text(sealed).contains("Dune Secret"))

        let b = try Run(nginx.endpoint, TempFolder(), key: key)
        #expect(try b.name(try b.load()) == "Dune Secret")

        let noKey = try Run(nginx.endpoint, TempFolder())
        do {
            _ = try noKey.load()
            Issue.record("a sealed body loaded without the key")
        } catch let e as StorageError {
            #expect(e.description.contains("encryptedHttp"))
        }
        #expect(nginx.file("default.json") == sealed, "never written over")
    }

    @Test func theBearerTokenAndContentTypeAreSent() throws {
        let server = try FaultServer(mode: .status(404))
        let run = try Run(server.endpoint, TempFolder(), books: ["Dune"], token: "s3cret")
        server.mode = .status(201)
        try run.f.engine.store(run.f.shop)
        let requests = server.requests
        #expect(requests.map(\.method) == ["GET", "PUT"])
        #expect(requests.allSatisfy { $0.headers["authorization"] == "Bearer s3cret" })
        #expect(requests.last?.path == "/okit/default.json")
        #expect(requests.last?.headers["content-type"] == "application/json")
        let body = text(requests.last?.body)
        #expect(body.contains("Dune"))
    }

    @Test func writesSendIfMatchWithTheLastETag() throws {
        let nginx = try NginxServer()
        do {
            let a = try Run(nginx.endpoint, TempFolder(), books: ["Dune"])
            try a.f.engine.store(a.f.shop)
        }
        let proxy = try FaultServer(upstream: nginx.port)
        let run = try Run(proxy.endpoint, TempFolder())
        let model = try run.load()
        let etag = try #require(run.storage.etags["default"], "nginx sends an ETag with a GET")
        try run.rename(model, 0, "Dune II")
        try run.f.engine.store(model)
        let requests = proxy.requests
        #expect(requests.map(\.method) == ["GET", "PUT"])
        #expect(requests[1].headers["if-match"] == etag, "the ETag of the GET is sent as If-Match")
        #expect(run.storage.etags["default"] == nil, "nginx's answer to a PUT has no ETag: the old one is forgotten")
        #expect(text(nginx.file("default.json")).contains("Dune II"))
    }

    // MARK: Failures while loading

    @Test(arguments: [FaultServer.Mode.status(500), .status(401), .slow, .truncated])
    func aModelThatCannotBeReadIsNeverStartedFresh(_ mode: FaultServer.Mode) throws {
        let server = try FaultServer(mode: mode)
        let run = try Run(server.endpoint, TempFolder(), timeout: mode == .slow ? 0.5 : 5)
        do {
            _ = try run.load()
            Issue.record("the model loaded through \(mode)")
        } catch let e as StorageError {
            #expect(e.description.hasPrefix("GET \(server.endpoint.absoluteString)/default.json: "))
            #expect(e.description.contains("not loaded"))
            switch mode {
            case .status(let s): #expect(e.description.contains("\(s)"))
            case .slow: #expect(e.description.contains("within 0.5 s (timed out)"))
            case .truncated: #expect(e.description.contains("cut short"))
            case .pass, .writesFail, .redirect, .endless: break
            }
        }
        #expect(run.f.engine.model(named: "default") == nil)
    }

    @Test func anUnreachableServerStopsTheLoad() throws {
        let port = try Loopback.freePort()   // nothing listens there
        let run = try Run(URL(string: "http://127.0.0.1:\(port)/okit")!, TempFolder())
        #expect(throws: StorageError.self) { try run.load() }
    }

    // MARK: Failures while storing

    /// nginx behind a fault proxy, with version 1 of the shop stored through it.
    func storedShop(_ folder: TempFolder) throws -> (NginxServer, FaultServer, Run, remote: [UInt8]) {
        let nginx = try NginxServer()
        let proxy = try FaultServer(upstream: nginx.port)
        let run = try Run(proxy.endpoint, folder, books: ["Dune", "Emma"])
        try run.f.engine.store(run.f.shop)
        return (nginx, proxy, run, try #require(nginx.file("default.json")))
    }

    @Test(arguments: [FaultServer.Mode.status(500), .slow, .truncated, .status(412)])
    func aFailedWriteStaysPendingAndIsSentWhenTheServerRecovers(_ mode: FaultServer.Mode) throws {
        let folder = try TempFolder()
        let (nginx, proxy, run, remote) = try storedShop(folder)
        proxy.mode = mode
        if mode == .slow { run.storage.timeout = 0.5 }
        try run.rename(run.f.shop, 0, "Changed offline")
        do {
            try run.f.engine.store(run.f.shop)
            Issue.record("a failed write succeeded through \(mode)")
        } catch let e as StorageError {
            #expect(e.description.hasPrefix("PUT \(proxy.endpoint.absoluteString)/default.json: "))
            #expect(e.description.contains(folder.url.path + "/okit/pending/default.json"))
            if mode == .status(412) {
                #expect(e.description.contains("412 Precondition Failed — the server's copy changed"))
                #expect(e.remedy == .syncChoose)   // okit-run's words for it: CommandLineAdviceTests
            }
        }
        #expect(nginx.file("default.json") == remote, "the server's copy is unchanged")
        #expect(pendingBody(folder).contains("Changed offline"), "the change is on disk")
        #expect(run.storage.pendingModels() == ["default"] && run.storage.hasPendingChanges)
        #expect(run.storage.isConflicted("default") == (mode == .status(412)))

        proxy.mode = .pass
        run.storage.timeout = 5
        try run.f.engine.store(run.f.shop)
        #expect(text(nginx.file("default.json")).contains("Changed offline"))
        #expect(!run.storage.hasPendingChanges)
        #expect(!FileManager.default.fileExists(atPath: folder.url.path + "/okit/pending/default.json"))
        #expect(!run.storage.isConflicted("default"))
    }

    @Test func aNewRunLoadsThePendingChangeFirstAndSendsIt() throws {
        let folder = try TempFolder()
        let (nginx, proxy, first, remote) = try storedShop(folder)
        proxy.mode = .status(503)
        try first.rename(first.f.shop, 1, "Typed before the crash")
        #expect(throws: StorageError.self) { try first.f.engine.store(first.f.shop) }

        proxy.mode = .pass
        let sent = proxy.requests.count
        let second = try Run(proxy.endpoint, folder)
        let model = try second.load()
        #expect(proxy.requests.count == sent, "the pending copy is loaded without asking the server")
        #expect(try second.name(model, 1) == "Typed before the crash")
        #expect(!model.isDirty && second.storage.hasPendingChanges)
        #expect(nginx.file("default.json") == remote)

        #expect(try second.f.engine.store(model) != .unchanged, "the pending change is sent though the model did not change")
        #expect(text(nginx.file("default.json")).contains("Typed before the crash"))
        #expect(!second.storage.hasPendingChanges)
        let third = try Run(proxy.endpoint, folder)
        #expect(try third.name(try third.load(), 1) == "Typed before the crash", "from the server now")
    }

    // MARK: Conflicts

    /// A conflict made by nginx itself: the storage believes the server's copy has the ETag "stale".
    func conflict(_ nginx: NginxServer, _ folder: TempFolder) throws -> (Run, remote: [UInt8]) {
        let run = try Run(nginx.endpoint, folder, books: ["Dune"])
        try run.f.engine.store(run.f.shop)
        let remote = try #require(nginx.file("default.json"))
        run.storage.etags["default"] = "\"stale\""
        try run.rename(run.f.shop, 0, "Mine")
        do {
            try run.f.engine.store(run.f.shop)
            Issue.record("nginx took a write with a stale If-Match")
        } catch let e as StorageError {
            #expect(e.description.contains("412 Precondition Failed"))
        }
        #expect(nginx.file("default.json") == remote && run.storage.isConflicted("default"))
        return (run, remote)
    }

    @Test func keepLocalOverwritesTheServersCopy() throws {
        let nginx = try NginxServer(), folder = try TempFolder()
        let (run, _) = try conflict(nginx, folder)
        #expect(throws: StorageError.self) { try run.f.engine.store(run.f.shop) }   // still a conflict
        try run.storage.resolveConflict(run.f.shop, engine: run.f.engine, keepLocal: true)
        #expect(text(nginx.file("default.json")).contains("Mine"))
        #expect(!run.storage.hasPendingChanges && !run.storage.isConflicted("default"))
        #expect(try run.f.engine.store(run.f.shop) == .unchanged)
    }

    @Test func takeRemoteDropsTheLocalChange() throws {
        let nginx = try NginxServer(), folder = try TempFolder()
        let (run, _) = try conflict(nginx, folder)
        let other = try Run(nginx.endpoint, TempFolder())   // someone else's change on the server
        let theirs = try other.load()
        try other.rename(theirs, 0, "Theirs")
        try other.f.engine.store(theirs)

        try run.storage.resolveConflict(run.f.shop, engine: run.f.engine, keepLocal: false)
        #expect(try run.name(run.f.shop) == "Theirs")
        #expect(!run.storage.hasPendingChanges && !run.storage.isConflicted("default"))
        #expect(text(nginx.file("default.json")).contains("Theirs"))
        #expect(try run.f.engine.store(run.f.shop) == .unchanged)
    }

    // MARK: Data and images

    /// A shelf with an image and a data field, on an HTTP storage.
    struct Shelf {
        let schema = Schema()
        let engine: Engine
        let storage: HTTPStorage
        let model: Model
        let folder: TempFolder

        init(_ endpoint: URL, _ folder: TempFolder) throws {
            self.folder = folder
            engine = Engine(schema: schema, clock: VirtualClock(), ids: SeededIds(seed: 7))
            try schema.entity("Shelf", fields: [FieldSpec("title", .string), FieldSpec("logo", "image?"), FieldSpec("file", "data?")])
            try schema.validate()
            storage = HTTPStorage(endpoint: endpoint, dataFolder: folder.url, encrypted: false, key: nil, token: nil, timeout: 5)
            model = try engine.register(model: "shelf", type: "Shelf", storage: storage)
        }

        func meta(_ field: String) throws -> Entity { try #require(model.root[field]?.entity) }
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]

    @Test func sideFilesRoundTripAndRemovedOnesAreDeleted() throws {
        let nginx = try NginxServer()
        let a = try Shelf(nginx.endpoint, TempFolder())
        try a.engine.writeBytes(a.model.root, "logo", Self.png, format: "image/png")
        try a.engine.writeBytes(a.model.root, "file", [1, 2, 3], format: "application/octet-stream")
        try a.engine.store(a.model)
        let logo = "shelf/_image/\(try #require(a.meta("logo").id)).png"
        let file = "shelf/_data/\(try #require(a.meta("file").id)).raw"
        #expect(nginx.file(logo) == Self.png && nginx.file(file) == [1, 2, 3])

        let b = try Shelf(nginx.endpoint, TempFolder())
        #expect(try b.engine.readBytes(b.meta("logo")) == Self.png, "read lazily from the server")
        #expect(try b.engine.readBytes(b.meta("file")) == [1, 2, 3])

        try b.engine.set(b.model.root, "file", .null)
        try b.engine.store(b.model)
        #expect(nginx.file(file) == nil, "deleted after the model no longer names it")
        #expect(nginx.file(logo) == Self.png)
        #expect(!b.storage.hasPendingChanges)
    }

    @Test func sideFilesOfAFailedWriteStayPendingAndAreReadFromThere() throws {
        let nginx = try NginxServer(), folder = try TempFolder()
        let proxy = try FaultServer(mode: .status(500), upstream: nginx.port)
        proxy.mode = .pass
        let a = try Shelf(proxy.endpoint, folder)
        proxy.mode = .status(500)
        try a.engine.writeBytes(a.model.root, "logo", Self.png, format: "image/png")
        #expect(throws: StorageError.self) { try a.engine.store(a.model) }
        let id = try #require(a.meta("logo").id)
        #expect(nginx.file("shelf/_image/\(id).png") == nil)
        #expect(FileManager.default.contents(atPath: folder.url.path + "/okit/pending/shelf.files/_image/\(id).png").map { [UInt8]($0) } == Self.png)

        proxy.mode = .slow   // the next run reads everything from the pending copy
        let b = try Shelf(proxy.endpoint, folder)
        #expect(try b.engine.readBytes(b.meta("logo")) == Self.png)
        proxy.mode = .pass
        try b.engine.store(b.model)
        #expect(nginx.file("shelf/_image/\(id).png") == Self.png)
        #expect(nginx.file("shelf.json") != nil && !b.storage.hasPendingChanges)
    }

    @Test func partialPayloadsLiveBesideTheModelOnTheServer() throws {
        let nginx = try NginxServer()
        func open(_ folder: TempFolder) throws -> (Engine, Model, Schema) {
            let schema = Schema()
            let engine = Engine(schema: schema, clock: VirtualClock(), ids: SeededIds(seed: 3))
            try schema.entity("Book", fields: [FieldSpec("name", .string)])
            try schema.entity("Group", fields: [FieldSpec("name", .string), FieldSpec("books", "[Book]")])
            try schema.partial("GroupDefer", fields: [FieldSpec("name", .string)], spec: PartialSpec(payloadType: "Group", sync: ["name"]))
            try schema.entity("Library", fields: [FieldSpec("groups", "[GroupDefer]")])
            try schema.validate()
            let storage = HTTPStorage(endpoint: nginx.endpoint, dataFolder: folder.url, encrypted: false, key: nil, token: nil)
            return (engine, try engine.register(model: "library", type: "Library", storage: storage), schema)
        }
        let first = try TempFolder(), second = try TempFolder()
        let (a, library, _) = try open(first)
        let stub = try a.make("GroupDefer", ["name": .string("Fantasy")])
        try a.insert(.entity(stub), into: a.collection(library.root, "groups"), append: true)
        try a.insert(.entity(try a.make("Book", ["name": .string("Dune")])), into: a.collection(try a.payload(of: stub), "books"), append: true)
        try a.store(library)
        let id = try #require(stub.id)
        #expect(text(nginx.file("library/\(id).json")).contains("Dune"))
        #expect(!text(nginx.file("library.json")).contains("Dune"), "the payload is not in the model document")

        let (b, loaded, _) = try open(second)
        let group = try #require(try b.collection(loaded.root, "groups").element(at: 0)?.entity)
        #expect(try b.get(group, "group/books[0]/name").displayString == "Dune")
    }

    // MARK: Names

    @Test func unsafeModelNamesNeverBecomeURLs() throws {
        let server = try FaultServer(mode: .status(404))
        let folder = try TempFolder()
        let storage = HTTPStorage(endpoint: server.endpoint, dataFolder: folder.url, encrypted: false, key: nil, token: nil)
        let f = try ShopFixture()
        for name in ["../etc", "a/b", ".hidden"] {
            #expect(throws: (any Error).self) { try storage.load(name: name, rootType: try #require(f.schema.type(named: "Shop")), engine: f.engine) }
        }
        #expect(server.requests.isEmpty)
    }
}
