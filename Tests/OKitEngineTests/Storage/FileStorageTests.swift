import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

@Suite struct FileStorageTests {
    /// A fresh fixture on the folder; the storage is released when the fixture is.
    func open(_ folder: TempFolder) throws -> (ShopFixture, FileStorage) {
        let f = try ShopFixture()
        let storage = try FileStorage(dataFolder: folder.url)
        return (f, storage)
    }

    @Test func everyFieldTypeRoundTrips() throws {
        let folder = try TempFolder()
        do {
            let (f, s) = try open(folder)
            try f.start(storage: s)
            let b = f.book(0)
            try f.engine.set(b, "date", .string("2019-05-01T10:00:00.123456Z"))
            try f.engine.set(b, "comment", .string("line\nbreak \"quoted\" é ✓"))
            try f.engine.set(b, "marked", .bool(true))
            try f.engine.set(b, "price", .double(0.1))
            try f.engine.set(b, "copies", .int(-42))
            try f.engine.insert(.string("sci-fi"), into: f.engine.collection(b, "tags"))
            try f.engine.put(.string("fine"), forKey: "review", in: f.engine.collection(b, "notes"))
            try f.engine.insert(.entity(f.engine.make("BookDate")), into: f.engine.collection(b, "dates"))
            try f.engine.set(b, "author", .string("A-1"))
            try f.engine.insert(.entity(f.engine.make("Book", ["id": .string("FAV")])), into: f.engine.collection(f.root, "favorites"))
            #expect(try f.engine.store(f.shop) != .unchanged)
        }
        let (g, s2) = try open(folder)
        try g.start(storage: s2, books: [])
        let b = g.book(0)
        #expect(b["name"]!.description == "Dune")
        #expect(b["date"]!.isSame(as: .date(Date(timeIntervalSince1970: 1_556_704_800.123456))))
        #expect(b["comment"]!.description == "line\nbreak \"quoted\" é ✓")
        #expect(b["marked"]!.isSame(as: .bool(true)) && b["price"]!.isSame(as: .double(0.1)) && b["copies"]!.isSame(as: .int(-42)))
        #expect(try g.engine.collection(b, "tags").items.first!.description == "sci-fi")
        #expect(try g.engine.collection(b, "notes").value(forKey: "review")!.description == "fine")
        #expect(try g.engine.collection(b, "dates").count == 1)
        #expect(b["author"]!.entity!["refKey"]!.description == "A-1")
        #expect(try g.engine.collection(g.root, "favorites").items.first!.entity!.id == "FAV")
        #expect(try g.engine.collection(b, "authors").items.first!.entity!["name"]!.description == "Author of Dune")
        #expect(b.id == f_id(folder))
    }

    /// The first book's id in the stored file.
    func f_id(_ folder: TempFolder) -> String? {
        guard let text = folder.read("default.json"), let r = text.range(of: #""books":[{"id":""#) else { return nil }
        return String(text[r.upperBound...].prefix(36))
    }

    /// A full write is streamed to the file a chunk at a time (`JSONWriter.sink`): over many chunks the file holds
    /// exactly what one buffer would, it reads back, and a write refused after chunks went out leaves the previous
    /// file and no temporary behind.
    @Test func aModelOfManyChunksIsStreamedByteForByte() throws {
        let folder = try TempFolder()
        let names = (0..<20_000).map { "Book \($0) " + String(repeating: "é", count: 40) }
        let file: String
        do {
            let (f, s) = try open(folder)
            try f.start(storage: s, books: names)
            #expect(try f.engine.store(f.shop) != .unchanged)
            var whole = JSONWriter()
            whole.document(f.root, type: "Shop", version: f.engine.schemaVersion, generation: 1, headerExtras: f.shop.headerExtras)
            file = try #require(folder.read("default.json"))
            #expect(whole.out.count > 3 * JSONWriter.chunk, "the model spans several chunks")
            #expect(Array(file.utf8) == whole.bytes)
            // Past the chunks already sent, a nesting no load reads: refused, the file as it was, no temporary left.
            let node = try f.engine.make("Author", ["name": .string("deep")])
            node.unknownFields = [("kept", Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8))]
            try f.engine.insert(.entity(node), into: f.engine.collection(f.book(19_999), "authors"), append: true)
            #expect(throws: StorageError.self) { try f.engine.store(f.shop) }
            #expect(folder.read("default.json") == file)
            #expect(folder.read(".default.json.tmp") == nil)
        }
        let (g, s2) = try open(folder)
        try g.start(storage: s2, books: [])
        #expect(try g.engine.collection(g.root, "books").count == names.count)
        #expect(g.book(19_999)["name"]?.description == names[19_999])
    }

    /// A large model file is mapped rather than read (`FileBytes`): the same bytes either way, at every size
    /// around the thresholds, and a head check still sees the first bytes first.
    @Test func aLargeFileIsMappedWithTheSameBytes() throws {
        let folder = try TempFolder()
        for size in [0, 1, 4095, 4096, 4097, AtomicFile.mappedSize - 1, AtomicFile.mappedSize, AtomicFile.mappedSize * 3 + 17] {
            let text = String((0..<size).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            let url = try folder.put("f\(size).json", text)
            var heads = 0
            let mapped = try #require(try AtomicFile.read(url.path, head: { _ in heads += 1 }, mapLarge: true))
            #expect(mapped.bytes == Array(text.utf8), "\(size) bytes")
            #expect(mapped.count == size)
            #expect(try AtomicFile.read(url.path) == Array(text.utf8))
            #expect(heads == 1)
        }
        #expect(try AtomicFile.read(folder.path + "/missing.json", mapLarge: true) == nil)
    }

    /// glibc's calls that Swift does not declare are found at run time (a full write's early writeback, the trim
    /// after a load); a name the library lacks is nil, not a crash.
    @Test func glibcCallsAreFoundByName() {
        typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32
        #expect(RuntimeSymbol.lookup("sync_file_range", as: SyncFileRange.self) != nil)
        #expect(RuntimeSymbol.lookup("okit_no_such_function", as: SyncFileRange.self) == nil)
    }

    @Test func unknownFieldsAreKeptVerbatim() throws {
        let folder = try TempFolder()
        try folder.write("default.json", #"""
        {"okit":{"version":1,"type":"Shop","future":[1,2]},"name":"S","extra":{"a":[1,{"b":null}],"c":"x"},
         "books":[{"id":"B1","name":"Dune","newField":[true,false],"authors":[{"id":"A1","name":"H","born":1920}]}]}
        """#)
        do {
            let (f, s) = try open(folder)
            try f.start(storage: s, books: [])
            try f.engine.set(f.root, "name", .string("Shop 2"))
            try f.engine.store(f.shop)
        }
        let text = try #require(folder.read("default.json"))
        #expect(text.contains(#""extra":{"a":[1,{"b":null}],"c":"x"}"#))
        #expect(text.contains(#""newField":[true,false]"#))
        #expect(text.contains(#""born":1920"#))
        #expect(text.contains(#""future":[1,2]"#))
        #expect(text.contains(#""name":"Shop 2""#))
    }

    @Test func okitStyleFilesLoad() throws {
        let folder = try TempFolder()
        // OKit: dates as seconds since 2001, no okit header, missing fields.
        try folder.write("default.json", #"{"books":[{"id":"B1","name":"Dune","date":578397600,"authors":[]}],"genres":[]}"#)
        let (f, s) = try open(folder)
        try f.start(storage: s, books: [])
        let b = f.book(0)
        #expect(b["date"]!.isSame(as: .date(Date(timeIntervalSince1970: 1_556_704_800))))
        #expect(b["copies"]!.isSame(as: .int(0)), "missing fields take their defaults")
        #expect(b["type"]!.description == "0")
        #expect(f.root["name"]!.description == "Book Shop")
        #expect(f.shop.storedVersion == nil)
    }

    @Test func lossyValuesAreCoercedOnlyWhenLossless() throws {
        let folder = try TempFolder()
        try folder.write("default.json", #"{"books":[{"id":"B1","copies":"5","price":"2.5","marked":false}]}"#)
        let (f, s) = try open(folder)
        try f.start(storage: s, books: [])
        #expect(f.book(0)["copies"]!.isSame(as: .int(5)))
        #expect(f.book(0)["price"]!.isSame(as: .double(2.5)))
    }

    @Test(arguments: [
        (#"{"books":[{"id":"B0"},{"id":"B1","price":"abc"}]}"#, "expected a number", "$.books[1].price", 1),
        ("{\"books\":[{\"id\":\"B0\"},\n {\"id\":\"B1\",\n  \"copies\": [1]}]}", "expected an int", "$.books[1].copies", 3),
        (#"{"books":[{"id":"B0","marked":"maybe"}]}"#, "expected true or false", "$.books[0].marked", 1),
        (#"{"books":{"id":"B0"}}"#, "expected an array", "$.books", 1),
        (#"{"name":5}"#, "expected a string", "$.name", 1),
        (#"{"books":[{"date":"yesterday"}]}"#, "expected an ISO 8601 date", "$.books[0].date", 1),
    ])
    func wrongTypesAreErrorsWithTheirPlace(_ json: String, _ message: String, _ path: String, _ line: Int) throws {
        let folder = try TempFolder()
        try folder.write("default.json", json)
        let (f, s) = try open(folder)
        do {
            try f.start(storage: s, books: [])
            Issue.record("no error")
        } catch let e as StorageError {
            #expect(e.message == message)
            #expect(e.jsonPath == path)
            #expect(e.line == line)
            #expect(e.description.contains("default.json:\(line):"))
            // The field's type may have changed: a migration converts it (lua-api.md "Schema versions").
            guard case .described(let way)? = e.remedy else { Issue.record("\(String(describing: e.remedy))"); return }
            #expect(way.contains(" and the file holds ") && way.contains("okit.migrate(1, function(model, raw)"), "\(way)")
        }
        #expect(folder.read("default.json") == json, "a file that did not load is never changed")
    }

    @Test(arguments: ["", "{", #"{"books":[{"id":"B1""#, #"{"name":"unterminated}"#, "[1,2]", #"{"name":"x"} trailing"#,
                      #"{"name":"\u12"}"#, "{\"name\":\"a\u{1}\"}", #"{"books":[{"id":"B1",}]}"#, "nul\u{0}l"])
    func malformedFilesAreRefused(_ json: String) throws {
        let folder = try TempFolder()
        try folder.write("default.json", json)
        let (f, s) = try open(folder)
        #expect(throws: StorageError.self) { try f.start(storage: s, books: []) }
        #expect(folder.read("default.json") == json)
    }

    @Test func aCorruptModelIsNeverOverwrittenAndCanBeMovedAside() throws {
        let folder = try TempFolder()
        try folder.write("default.json", "{broken")
        do {
            let (f, s) = try open(folder)
            #expect(throws: StorageError.self) { try f.start(storage: s, books: []) }
        }
        let moved = try FileStorage.recover(dataFolder: folder.url, model: "default", now: Date(timeIntervalSince1970: 1_556_704_800))
        #expect(moved.count == 1 && moved[0].hasSuffix("default.json.corrupt-20190501T100000Z"))
        #expect(try String(contentsOfFile: moved[0], encoding: .utf8) == "{broken")
        let (g, s2) = try open(folder)
        try g.start(storage: s2, books: ["Fresh"])
        try g.engine.store(g.shop)
        #expect(folder.read("default.json")?.contains("Fresh") == true)
    }

    @Test func unchangedModelsAreNotRewritten() throws {
        let folder = try TempFolder()
        let (f, s) = try open(folder)
        try f.start(storage: s)
        #expect(try f.engine.store(f.shop) != .unchanged)
        let attrs1 = try FileManager.default.attributesOfItem(atPath: folder.file("default.json").path)
        #expect(try f.engine.store(f.shop) == .unchanged)
        let attrs2 = try FileManager.default.attributesOfItem(atPath: folder.file("default.json").path)
        #expect(attrs1[.systemFileNumber] as? Int == attrs2[.systemFileNumber] as? Int, "same inode: not replaced")
        try f.engine.set(f.book(0), "name", .string("Dune"))
        #expect(try f.engine.store(f.shop) == .unchanged, "writing the same value changes nothing")
    }

    @Test func storesLeaveNoTemporaryFiles() throws {
        let folder = try TempFolder()
        let (f, s) = try open(folder)
        try f.start(storage: s, books: (0..<50).map { "Book \($0)" })
        for k in 0..<6 {
            if k % 2 == 0 { try f.engine.remove(at: 0, from: f.engine.collection(f.root, "books")) }
            else { try f.engine.set(f.book(0), "name", .string("N\(k)")) }
            try f.engine.store(f.shop)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.modelsFolder.path).sorted()
        #expect(files == ["default.journal", "default.json"])
    }

    @Test func recoverMovesTheJournalAsideTooAndDeletesNothing() throws {
        let folder = try TempFolder()
        try folder.write("default.json", #"{"books":[{"id":"B1","price":"x"}]}"#)
        try folder.write("default.journal", "OKJ1 0\n")
        let moved = try FileStorage.recover(dataFolder: folder.url, model: "default", now: Date(timeIntervalSince1970: 1_556_704_800))
        #expect(moved.map { ($0 as NSString).lastPathComponent } == ["default.json.corrupt-20190501T100000Z", "default.journal.corrupt-20190501T100000Z"])
        let again = try FileStorage.recover(dataFolder: folder.url, model: "default")
        #expect(again.isEmpty)
        try folder.write("default.json", "{}")
        let third = try FileStorage.recover(dataFolder: folder.url, model: "default", now: Date(timeIntervalSince1970: 1_556_704_800))
        #expect(third.first?.hasSuffix("default.json.corrupt-20190501T100000Z-2") == true, "an earlier copy is never replaced")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.modelsFolder.path).count == 3)
        #expect(throws: (any Error).self) { try FileStorage.recover(dataFolder: folder.url, model: "../x") }
    }

    @Test func recoverLeavesAFolderInUseAlone() throws {
        let folder = try TempFolder()
        try folder.write("default.json", #"{"books":[]}"#)
        let live = try FileStorage(dataFolder: folder.url)   // an app has the folder open
        #expect(throws: StorageError.self) { try FileStorage.recover(dataFolder: folder.url, model: "default") }
        #expect(FileManager.default.fileExists(atPath: folder.file("default.json").path), "the live model's file stays")
        live.close()
        #expect(try FileStorage.recover(dataFolder: folder.url, model: "default").count == 1, "free again: it works")
    }

    @Test func theLockIsReleasedByCloseAndDeinit() throws {
        let folder = try TempFolder()
        let first = try FileStorage(dataFolder: folder.url)
        first.close()
        do { _ = try FileStorage(dataFolder: folder.url) }
        _ = try FileStorage(dataFolder: folder.url)
        // The same folder through another spelling is the same folder.
        let other = try FileStorage(dataFolder: folder.url)
        #expect(throws: StorageError.self) { try FileStorage(dataFolder: URL(fileURLWithPath: folder.url.path + "/okit/..")) }
        _ = other
    }

    @Test(.enabled(if: ["/usr/bin/flock", "/bin/flock"].contains { FileManager.default.isExecutableFile(atPath: $0) },
                   "needs flock(1) to hold the lock from another process"))
    func anotherProcessHoldingTheLockIsRefused() throws {
        let folder = try TempFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("okit"), withIntermediateDirectories: true)
        // A shell takes the lock on an inherited descriptor, says so, then becomes `sleep` (one process to kill).
        let lockPath = folder.url.appendingPathComponent("okit/lock").path
        let holder = try ChildProcess.start("/bin/sh", ["-c", "exec 9>\"$0\"; flock 9 && echo locked && exec sleep 30", lockPath])
        defer { holder.signal(SIGKILL); _ = holder.wait() }
        var said = holder.outputSoFar
        for _ in 0..<1000 where said.isEmpty { usleep(10_000); said = holder.outputSoFar }
        try #require(said.hasPrefix("locked"), "the helper shell could not take the lock")
        var refused: StorageError?
        do { _ = try FileStorage(dataFolder: folder.url) } catch let e as StorageError { refused = e }
        let e = try #require(refused, "the other process's lock was not seen")
        #expect(e.kind == .locked)
        #expect(e.description.contains("in use by another okit process"))
    }
}


typealias SplitMix = SplitMix64
