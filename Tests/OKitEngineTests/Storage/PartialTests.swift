import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// Partials (storage.md "Partials"): a stub's payload lives in `<model>/<stub id>.json`, loads on the first read
/// of the payload field, stores only when changed, and shares its synced fields with the stub.
@Suite struct PartialTests {
    /// A library of groups: `GroupDefer` stubs (name, color) whose `Group` payloads hold books and a ref.
    final class Library {
        let schema = Schema()
        let engine: Engine
        let storage: FileStorage
        var model: Model!

        init(_ folder: TempFolder, seed: UInt64 = 1, sealed: Bool = false) throws {
            engine = Engine(schema: schema, clock: VirtualClock(), ids: SeededIds(seed: seed))
            try schema.entity("Book", fields: [FieldSpec("name", .string)])
            try schema.entity("Group", fields: [
                FieldSpec("name", .string, default: .string("<New Group>")),
                FieldSpec("color", .string, default: .string("#0000FF")),
                FieldSpec("books", "[Book]"),
                FieldSpec("pick", "ref Book"),
                FieldSpec("cover", "image?"),
            ])
            try schema.partial("GroupDefer", fields: [
                FieldSpec("name", .string, default: .string("<New Group>")),
                FieldSpec("color", .string, default: .string("#0000FF")),
            ], spec: PartialSpec(payloadType: "Group", sync: ["name", "color"]))
            try schema.entity("Shelf", fields: [FieldSpec("groups", "[GroupDefer]"), FieldSpec("title", .string), FieldSpec("logo", "image?")])
            try schema.validate()
            storage = try FileStorage(dataFolder: folder.url)
            if sealed { try storage.seal(model: "shelf", passphrase: nil) }
            model = try engine.register(model: "shelf", type: "Shelf", storage: storage)
        }

        var groups: EntityCollection { get throws { try engine.collection(model.root, "groups") } }
        func group(_ i: Int) throws -> Entity { try #require(try groups.element(at: i)?.entity) }

        /// Adds a group with `books` inside its payload.
        @discardableResult
        func addGroup(_ name: String, books: [String]) throws -> Entity {
            let stub = try engine.make("GroupDefer", ["name": .string(name)])
            try engine.insert(.entity(stub), into: groups, append: true)
            let payload = try engine.payload(of: stub)
            for b in books {
                try engine.insert(.entity(try engine.make("Book", ["name": .string(b)])), into: engine.collection(payload, "books"), append: true)
            }
            return stub
        }
    }

    func bytes(_ folder: TempFolder, _ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: folder.file(name).path).map { [UInt8]($0) }
    }

    func payloadFiles(_ folder: TempFolder) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.file("shelf").path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func aPayloadIsStoredInItsOwnFileAndLoadsOnlyWhenRead() throws {
        let folder = try TempFolder()
        var ids: [String] = []
        do {
            let lib = try Library(folder)
            ids.append(try #require(lib.addGroup("Fantasy", books: ["Dune", "Emma"]).id))
            ids.append(try #require(lib.addGroup("Crime", books: ["Anna"]).id))
            try lib.engine.store(lib.model)
        }
        #expect(payloadFiles(folder) == ids.map { "\($0).json" }.sorted())
        let model = String(decoding: bytes(folder, "shelf.json") ?? [], as: UTF8.self)
        #expect(model.contains("Fantasy") && !model.contains("Dune"), "the model holds stubs only")

        let lib = try Library(folder)
        let fantasy = try lib.group(0)
        #expect(!lib.engine.isPayloadLoaded(fantasy))
        #expect(try lib.engine.get(fantasy, "name").displayString == "Fantasy", "a stub's own fields need no payload")
        #expect(!lib.engine.isPayloadLoaded(fantasy))
        #expect(try lib.engine.get(fantasy, "group/books[1]/name").displayString == "Emma")
        #expect(lib.engine.isPayloadLoaded(fantasy))
        #expect(!lib.engine.isPayloadLoaded(try lib.group(1)), "a stub never read keeps its payload unloaded")
    }

    @Test func onlyTheChangedPayloadIsWritten() throws {
        let folder = try TempFolder()
        var crimeId = ""
        do {
            let lib = try Library(folder)
            try lib.addGroup("Fantasy", books: ["Dune"])
            crimeId = try #require(lib.addGroup("Crime", books: ["Anna"]).id)
            try lib.engine.store(lib.model)
        }
        let modelBefore = bytes(folder, "shelf.json")
        let lib = try Library(folder)
        let fantasy = try lib.group(0)
        let fantasyFile = "shelf/\(try #require(fantasy.id)).json"
        let crimeBefore = bytes(folder, "shelf/\(crimeId).json")
        let book = try #require(try lib.engine.get(fantasy, "group/books[0]").entity)
        try lib.engine.set(book, "name", .string("Dune Messiah"))
        #expect(lib.model.isDirty)
        #expect(try lib.engine.store(lib.model) == .unchanged, "the model file is not written for a payload's change")
        #expect(bytes(folder, "shelf.json") == modelBefore)
        #expect(bytes(folder, "shelf/\(crimeId).json") == crimeBefore)
        #expect(String(decoding: bytes(folder, fantasyFile) ?? [], as: UTF8.self).contains("Dune Messiah"))
        #expect(!lib.model.isDirty)
    }

    @Test func syncedFieldsStayEqualInBothDirectionsAndBothAreStored() throws {
        let folder = try TempFolder()
        do {
            let lib = try Library(folder)
            try lib.addGroup("Fantasy", books: ["Dune"])
            try lib.engine.store(lib.model)
        }
        do {
            let lib = try Library(folder)
            let stub = try lib.group(0)
            // Writing the stub loads the payload and writes it too.
            try lib.engine.set(stub, "name", .string("Sci-Fi"))
            #expect(try lib.engine.get(stub, "group/name").displayString == "Sci-Fi")
            // Writing the payload writes the stub (which the model file then stores: OKit lost this change).
            let payload = try lib.engine.payload(of: stub)
            try lib.engine.set(payload, "color", .string("#FF0000"))
            #expect(try lib.engine.get(stub, "color").displayString == "#FF0000")
            try lib.engine.store(lib.model)
        }
        let lib = try Library(folder)
        let stub = try lib.group(0)
        #expect(try lib.engine.get(stub, "color").displayString == "#FF0000")
        #expect(try lib.engine.get(stub, "name").displayString == "Sci-Fi")
        #expect(try lib.engine.get(stub, "group/color").displayString == "#FF0000")
        #expect(try lib.engine.get(stub, "group/name").displayString == "Sci-Fi")
    }

    @Test func removingAStubDeletesItsPayloadAfterTheModelIsWritten() throws {
        let folder = try TempFolder()
        let lib = try Library(folder)
        let doomed = try #require(lib.addGroup("Doomed", books: ["X"]).id)
        try lib.addGroup("Kept", books: ["Y"])
        try lib.engine.store(lib.model)
        #expect(payloadFiles(folder).contains("\(doomed).json"))
        try lib.engine.remove(at: 0, from: lib.groups)
        try lib.engine.store(lib.model)
        #expect(!payloadFiles(folder).contains("\(doomed).json"))
        #expect(payloadFiles(folder).count == 1)
        #expect(!String(decoding: bytes(folder, "shelf.json") ?? [], as: UTF8.self).contains("Doomed"))
    }

    @Test func refsIntoAPayloadResolveOnceItIsLoaded() throws {
        let folder = try TempFolder()
        do {
            let lib = try Library(folder)
            let stub = try lib.addGroup("Fantasy", books: ["Dune", "Emma"])
            let payload = try lib.engine.payload(of: stub)
            let emma = try #require(try lib.engine.get(payload, "books[1]").entity)
            try lib.engine.set(payload, "pick", .entity(emma))
            try lib.engine.store(lib.model)
        }
        let lib = try Library(folder)
        let stub = try lib.group(0)
        #expect(try lib.engine.get(stub, "group/pick/ref/name").displayString == "Emma")
    }

    @Test func bindingsThroughThePayloadFieldAreCheckedAgainstThePayloadType() throws {
        let folder = try TempFolder()
        let lib = try Library(folder)
        let checker = BindingChecker(engine: lib.engine)
        let stubType = try #require(lib.schema.type(named: "GroupDefer"))
        #expect(checker.check("group/books[0]/name", context: stubType).isEmpty)
        #expect(!checker.check("group/nope", context: stubType).isEmpty)
        #expect(throws: EngineError.self) { try lib.engine.set(try lib.addGroup("A", books: []), "group", .null) }
    }

    @Test func aStubMadeDetachedBringsItsPayloadIntoTheModel() throws {
        let folder = try TempFolder()
        do {
            let lib = try Library(folder)
            let stub = try lib.engine.make("GroupDefer", ["name": .string("Poetry")])
            let payload = try lib.engine.payload(of: stub)
            try lib.engine.insert(.entity(try lib.engine.make("Book", ["name": .string("Odes")])), into: lib.engine.collection(payload, "books"), append: true)
            try lib.engine.insert(.entity(stub), into: lib.groups, append: true)
            try lib.engine.store(lib.model)
        }
        let lib = try Library(folder)
        #expect(try lib.engine.get(try lib.group(0), "group/books[0]/name").displayString == "Odes")
    }

    @Test func aDamagedPayloadIsReportedAndNeverWrittenOver() throws {
        let folder = try TempFolder()
        var id = ""
        do {
            let lib = try Library(folder)
            id = try #require(lib.addGroup("Fantasy", books: ["Dune"]).id)
            try lib.engine.store(lib.model)
        }
        let damaged = Array(#"{"okit":{"version":1,"type":"Group"},"name": oops}"#.utf8)
        try Data(damaged).write(to: folder.file("shelf/\(id).json"))
        let lib = try Library(folder)
        let stub = try lib.group(0)
        do {
            _ = try lib.engine.get(stub, "group/name", mode: .action)
            Issue.record("a damaged payload loaded")
        } catch let e as StorageError {
            #expect(e.path.hasSuffix("shelf/\(id).json"))
            #expect(e.line == 1)
            #expect(!e.description.contains("--recover"), "--recover moves model files, not payloads: \(e.description)")
            #expect(e.remedy == .fixOrRestorePartial)
        }
        // A stub change that would sync into the payload fails the same way, and changes nothing.
        #expect(throws: StorageError.self) { try lib.engine.set(stub, "color", .string("#00FF00")) }
        try lib.engine.store(lib.model)
        #expect(bytes(folder, "shelf/\(id).json") == damaged)
    }

    @Test func removingAStubWhosePayloadWasNeverLoadedDeletesThePayloadsImagesToo() throws {
        let folder = try TempFolder()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 9, 9]
        var doomed = ""
        do {
            let lib = try Library(folder)
            let stub = try lib.addGroup("Doomed", books: ["X"])
            doomed = try #require(stub.id)
            try lib.engine.writeBytes(try lib.engine.payload(of: stub), "cover", png, format: "image/png")
            try lib.addGroup("Kept", books: ["Y"])
            try lib.engine.store(lib.model)
        }
        let images = { (try? FileManager.default.contentsOfDirectory(atPath: folder.file("shelf/_image").path)) ?? [] }
        #expect(images().count == 1)
        let lib = try Library(folder)
        #expect(!lib.engine.isPayloadLoaded(try lib.group(0)))
        try lib.engine.remove(at: 0, from: lib.groups)
        try lib.engine.store(lib.model)
        #expect(!payloadFiles(folder).contains("\(doomed).json"))
        #expect(images().isEmpty, "the unloaded payload's image is deleted with it")
        #expect(payloadFiles(folder).count == 1)
    }

    @Test func switchingEncryptionRewritesUnloadedPayloadsAndImages() throws {
        let folder = try TempFolder()
        var id = ""
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        do {
            let lib = try Library(folder, sealed: true)
            id = try #require(lib.addGroup("Fantasy", books: ["Dune Secret"]).id)
            try lib.engine.writeBytes(lib.model.root, "logo", png, format: "image/png")
            try lib.engine.store(lib.model)
        }
        let logo = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.file("shelf/_image").path).first)
        #expect(SealedFile.isSealed(try #require(bytes(folder, "shelf/\(id).json"))))
        #expect(SealedFile.isSealed(try #require(bytes(folder, "shelf/_image/\(logo)"))))
        do {
            let lib = try Library(folder, sealed: true)
            #expect(!lib.engine.isPayloadLoaded(try lib.group(0)))
            try lib.storage.setSealing(lib.model, false, passphrase: nil, engine: lib.engine)
        }
        let plain = try #require(bytes(folder, "shelf/\(id).json"))
        #expect(!SealedFile.isSealed(plain) && String(decoding: plain, as: UTF8.self).contains("Dune Secret"))
        #expect(!SealedFile.isSealed(try #require(bytes(folder, "shelf.json"))))
        #expect(bytes(folder, "shelf/_image/\(logo)") == png)
        do {
            let lib = try Library(folder)   // plain now: no key needed
            #expect(try lib.engine.get(try lib.group(0), "group/books[0]/name").displayString == "Dune Secret")
            try lib.storage.setSealing(lib.model, true, passphrase: nil, engine: lib.engine)
        }
        #expect(SealedFile.isSealed(try #require(bytes(folder, "shelf/_image/\(logo)"))))
        #expect(SealedFile.isSealed(try #require(bytes(folder, "shelf/\(id).json"))))
        #expect(SealedFile.isSealed(try #require(bytes(folder, "shelf.json"))))
    }
}
