import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// An exit patch interrupted by a crash (storage.md "Writing"): its intent, `<model>.patch`, is finished at the
/// next open when it is whole and names this file; otherwise it is dropped and the journal replays.
@Suite struct ExitPatchRecoveryTests {
    func open(_ folder: TempFolder) throws -> (ShopFixture, FileStorage) {
        (try ShopFixture(), try FileStorage(dataFolder: folder.url))
    }

    func names(_ folder: TempFolder) throws -> [String] {
        let (g, s) = try open(folder)
        try g.start(storage: s, books: [])
        return (0..<200).map { g.book($0)["name"]!.description }
    }

    /// A shop of 200 books written whole, book 7 renamed and journaled; the intent the exit patch would write.
    func journaledRename(_ folder: TempFolder) throws -> ExitPatchIntent {
        let (f, s) = try open(folder)
        try f.start(storage: s, books: (0..<200).map { "Book \($0)" })
        try f.engine.store(f.shop)
        try f.engine.set(f.book(7), "name", .string("Seven"))
        guard case .journal = try f.engine.store(f.shop) else { throw Failure.notJournaled }
        return try #require(try s.plannedExitPatch(f.shop, engine: f.engine)?.intent)
    }

    enum Failure: Error { case notJournaled }

    /// Writes bytes at an offset of the model file, in place.
    func poke(_ folder: TempFolder, _ bytes: [UInt8], at offset: Int) throws {
        let h = try FileHandle(forWritingTo: folder.file("default.json"))
        defer { try? h.close() }
        try h.seek(toOffset: UInt64(offset))
        try h.write(contentsOf: Data(bytes))
    }

    @Test func aTornPatchIsRepairedFromItsIntentAtTheNextOpen() throws {
        let folder = try TempFolder()
        let intent = try journaledRename(folder)
        let patch = try #require(intent.patches.first)
        #expect(intent.patches.count == 1 && patch.bytes.count < 16, "a rename writes a few bytes: \(patch.bytes.count)")
        // A power loss after the intent was synced: half the patch reached the disk; the journal was removed.
        try Data(intent.encoded()).write(to: folder.file("default.patch"))
        try poke(folder, Array(patch.bytes.prefix(patch.bytes.count / 2)) + [0x22, 0x7D, 0x5D], at: patch.offset)
        try FileManager.default.removeItem(at: folder.file("default.journal"))
        let names = try names(folder)
        #expect(names[7] == "Seven" && names[8] == "Book 8")
        #expect(folder.read("default.patch") == nil)
        let data = try Data(contentsOf: folder.file("default.json"))
        #expect((try? JSONSerialization.jsonObject(with: data)) != nil)
    }

    @Test func aTornIntentIsDroppedAndTheJournalReplays() throws {
        let folder = try TempFolder()
        let intent = try journaledRename(folder)
        let before = try Data(contentsOf: folder.file("default.json"))
        try Data(intent.encoded().dropLast(3)).write(to: folder.file("default.patch"))
        #expect(try names(folder)[7] == "Seven", "from the journal")
        #expect(folder.read("default.patch") == nil)
        #expect(try Data(contentsOf: folder.file("default.json")) == before, "nothing written from a torn intent")
    }

    @Test func anIntentForAnotherFileIsDropped() throws {
        let folder = try TempFolder()
        let intent = try journaledRename(folder)
        do {
            // The file is written whole since (a new inode, another generation).
            let (f, s) = try open(folder)
            try f.start(storage: s, books: [])
            try f.engine.set(f.root, "name", .string("Shop"))
            try f.engine.store(f.shop)
        }
        let before = try Data(contentsOf: folder.file("default.json"))
        try Data(intent.encoded()).write(to: folder.file("default.patch"))
        #expect(try names(folder)[7] == "Seven")
        #expect(folder.read("default.patch") == nil)
        #expect(try Data(contentsOf: folder.file("default.json")) == before)
    }

    @Test func intentsReadBackAndRefuseDamage() throws {
        let intent = ExitPatchIntent(size: 9000, device: 2049, inode: 77, prefixLength: 4096, prefixCRC: 0xDEAD_BEEF,
                                     patches: [.init(offset: 5000, bytes: Array("Seven\" \n x".utf8)), .init(offset: 8000, bytes: [])])
        let bytes = intent.encoded()
        #expect(ExitPatchIntent.parse(bytes) == intent)
        for cut in [1, 5, bytes.count / 2, bytes.count - 1] { #expect(ExitPatchIntent.parse(Array(bytes.prefix(cut))) == nil) }
        var flipped = bytes
        flipped[flipped.count - 4] ^= 1
        #expect(ExitPatchIntent.parse(flipped) == nil)
    }
}

/// Finding an entity's object by its id, and the smallest write that replaces it (`JSONObjectSpan`).
@Suite struct JSONObjectSpanTests {
    func locate(_ id: String, _ json: String) -> String? {
        let bytes = Array(json.utf8)
        return bytes.withUnsafeBufferPointer { buf in
            JSONObjectSpan.locate(id: id, in: buf).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
    }

    @Test func theObjectWhoseDirectIdItIsIsFound() {
        #expect(locate("X", #"{"a":[{"id":"X","n":{"k":1}},{"id":"Y"}]}"#) == #"{"id":"X","n":{"k":1}}"#)
        #expect(locate("X", #"[{"n":{"k":"{"},"s":"{\"id\":","id":"X"}]"#) == #"{"n":{"k":"{"},"s":"{\"id\":","id":"X"}"#)
        #expect(locate("X", #"[{"n":{"id":"Z"}, "id" : "X" }]"#) == #"{"n":{"id":"Z"}, "id" : "X" }"#)
    }

    @Test func anythingUncertainIsNotFound() {
        #expect(locate("X", #"[{"id":"X"},{"id":"Y","see":"X"}]"#) == nil, "twice")
        #expect(locate("X", #"[{"id":"R","refKey":"X"}]"#) == nil, "not an id member")
        #expect(locate("X", #"[{"s":"say \"X"}]"#) == nil, "inside a string")
        #expect(locate("X", #"[{"n":{"id":"X"}}]"#) == #"{"id":"X"}"#, "the inner object is the one whose id it is")
        #expect(locate("a,b", #"[{"id":"a,b"}]"#) == nil, "an id with a structural character")
        #expect(locate("X", #"[{"id":"Q"}]"#) == nil)
    }

    @Test func aLargeDocumentIsSearchedAStepAtATimeAndAnIdAcrossAStepIsFound() {
        // The quoted id "TARGET" starts three bytes before the end of the first step: found whole, once.
        let step = JSONObjectSpan.scanStep
        let head = #"{"pad":""#, member = #"","items":[{"id":"TARGET","n":1}],"more":""#
        let padding = step - 3 - head.utf8.count - #"","items":[{"id":"#.utf8.count
        let json = head + String(repeating: "x", count: padding) + member + String(repeating: "y", count: step + 100) + #""}"#
        let bytes = Array(json.utf8)
        var told: [Int] = []
        let found = bytes.withUnsafeBufferPointer { buf in
            JSONObjectSpan.locate(id: "TARGET", in: buf, scanned: { told.append($0) }).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
        #expect(found == #"{"id":"TARGET","n":1}"#)
        // Told as each step passes (the first search stops at the id; the second goes on to the end), never backwards
        // within one search, and never past the end.
        #expect(!told.isEmpty && told.last == bytes.count && told.allSatisfy { $0 > step && $0 <= bytes.count })
        #expect(zip(told.dropFirst(), told).allSatisfy { $0 >= $1 })
    }

    @Test func aRenameWritesTheNewNameAndSpacesOnly() throws {
        let old = Array(#"{"id":"B7","name":"Book 7","price":1.5}"#.utf8)
        let new = Array(#"{"id":"B7","name":"Seven","price":1.5}"#.utf8)
        let p = try #require(old.withUnsafeBufferPointer { JSONObjectSpan.patch(old: $0, new: new) })
        var result = old
        result.replaceSubrange(p.offset..<(p.offset + p.bytes.count), with: p.bytes)
        #expect(String(decoding: result, as: UTF8.self) == #"{"id":"B7","name": "Seven","price":1.5}"#)
        #expect(String(decoding: p.bytes, as: UTF8.self) == #" "Seven"#, "the name and one space")
        let longer = Array(#"{"id":"B7","name":"Book 7 and more","price":1.5}"#.utf8)
        #expect(old.withUnsafeBufferPointer { JSONObjectSpan.patch(old: $0, new: longer) } == nil)
        #expect(old.withUnsafeBufferPointer { JSONObjectSpan.patch(old: $0, new: old) }?.bytes.isEmpty == true)
    }

    @Test func onlyChangedMembersAreRewritten() throws {
        func merged(_ file: String, _ before: String, _ after: String) -> String? {
            let bytes = Array(file.utf8)
            return bytes.withUnsafeBufferPointer { JSONMemberMerge.merged(file: $0, before: Array(before.utf8), after: Array(after.utf8)) }
                .map { String(decoding: $0, as: UTF8.self) }
        }
        let file = #"{"id":"B", "date":660811907,"name":"Long name","x":[1, 2]}"#
        let before = #"{"id":"B","name":"Long name","date":"2021-12-10T06:51:47Z","x":[1, 2]}"#
        #expect(merged(file, before, #"{"id":"B","name":"N","date":"2021-12-10T06:51:47Z","x":[1, 2]}"#)
                == #"{"id":"B", "date":660811907,"name":"N","x":[1, 2]}"#, "replaced")
        #expect(merged(file, before, #"{"id":"B","name":"Long name","date":"2021-12-10T06:51:47Z","x":[1, 2],"c":"new"}"#)
                == #"{"id":"B", "date":660811907,"name":"Long name","x":[1, 2],"c":"new"}"#, "added")
        #expect(merged(file, before, #"{"id":"B","name":"Long name","date":"2021-12-10T06:51:47Z"}"#)
                == #"{"id":"B", "date":660811907,"name":"Long name"}"#, "removed")
        #expect(merged(#"{"id":"B","n\u0061me":"Long name"}"#, before, #"{"id":"B","name":"N"}"#) == nil, "an escaped key")
    }
}
