import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// Issue 13's storage holes at the file level: damaged journals, duplicate keys, deep trees (seeded fuzz), and
/// what is not a regular file where a file is read.
@Suite struct HostileFileTests {
    // MARK: Hole 13: a damaged journal record that is not the last

    /// A shop stored in full, then three journal records; the journal's bytes.
    func journaled(_ folder: TempFolder) throws -> Data {
        let f = try ShopFixture()
        let s = try FileStorage(dataFolder: folder.url)
        try f.start(storage: s, books: (0..<100).map { "Book \($0)" })
        try f.engine.store(f.shop)
        for (k, name) in ["First", "Second", "Third"].enumerated() {
            try f.engine.set(f.book(k + 1), "name", .string(name))
            guard case .journal = try f.engine.store(f.shop) else { Issue.record("expected a journal write"); break }
        }
        return try Data(contentsOf: folder.file("default.journal"))
    }

    @Test func aDamagedMiddleRecordStopsTheLoadAndKeepsEverything() throws {
        let folder = try TempFolder()
        var journal = try journaled(folder)
        let lines = journal.split(separator: 0x0A, omittingEmptySubsequences: false)
        #expect(lines.count == 5, "header, three records, the final newline")
        // One byte inside the second record's JSON.
        let second = lines[0].count + 1 + lines[1].count + 1 + 30
        journal[second] ^= 0x01
        try journal.write(to: folder.file("default.journal"))
        let model = try Data(contentsOf: folder.file("default.json"))
        let f = try ShopFixture()
        let s = try FileStorage(dataFolder: folder.url)
        do {
            _ = try f.start(storage: s, books: [])
            Issue.record("a damaged journal loaded")
        } catch let e as StorageError {
            #expect(e.path == folder.file("default.journal").path)
            #expect(e.description.contains("not the last") && e.remedy == .fixOrRecover(model: "default"), "\(e)")
        }
        #expect(try Data(contentsOf: folder.file("default.journal")) == journal, "the journal is left as it is")
        #expect(try Data(contentsOf: folder.file("default.json")) == model, "the model is not compacted without it")
    }

    @Test func aTornLastRecordIsStillDropped() throws {
        let folder = try TempFolder()
        var journal = try journaled(folder)
        journal.removeLast(7)
        try journal.write(to: folder.file("default.journal"))
        let f = try ShopFixture()
        _ = try f.start(storage: try FileStorage(dataFolder: folder.url), books: [])
        #expect(f.book(1)["name"]!.description == "First" && f.book(2)["name"]!.description == "Second")
        #expect(f.book(3)["name"]!.description == "Book 3")
    }

    @Test func aFlippedByteAnywhereInACompleteRecordIsNeverSilentlyDropped() throws {
        let folder = try TempFolder()
        let journal = try journaled(folder)
        let header = journal.firstIndex(of: 0x0A)! + 1
        var rng = SplitMix64(seed: 13)
        for _ in 0..<40 {
            var damaged = journal
            // Not the final newline: without it the last record is exactly what a torn append leaves.
            let at = header + Int(rng.next() % UInt64(journal.count - header - 1))
            damaged[at] ^= UInt8(1 << (rng.next() % 8))
            let contents = Journal.parse(Array(damaged), generation: 1)
            #expect(contents.matches)
            #expect(contents.damageAt != nil, "byte \(at): reported, never a shorter list of records without a word")
        }
    }

    // MARK: Duplicate keys

    @Test func aFieldNamedTwiceIsAnErrorWithItsPath() throws {
        let f = try ReaderFixture()
        let e = try #require(f.error(#"{"books":[{"id":"B","name":"a","count":1,"name":"b"}]}"#))
        #expect(e.message == "field \"name\" of a Book appears twice", "\(e)")
        #expect(e.jsonPath == "$.books[0].name", "\(e)")
        #expect(f.error(#"{"name":"x","n\u0061me":"y"}"#)?.message == "field \"name\" of a Lib appears twice")
        #expect(f.error(#"{"books":[{"id":"B","extra":1,"extra":2}]}"#) == nil, "unknown fields are kept verbatim, both")
    }

    // MARK: Deep trees (seeded fuzz): nothing deeper than the limit is built, and what is written reads back

    @Test func seededDeepTreesStayWithinTheLimitAndReadBack() throws {
        let f = try ReaderFixture()
        let e = f.engine
        var rng = SplitMix64(seed: 5)
        var refused = 0
        for round in 0..<60 {
            let lib = try e.make("Lib", [:])
            var nodes = [try e.make("Node", [:])]
            try e.set(lib, "root", .entity(nodes[0]))
            for _ in 0..<(100 + Int(rng.next() % 400)) {
                let fresh = try e.make("Node", [:])
                // A chain grown at its end, at a random node (replacing what was below), or above an old top.
                do {
                    switch rng.next() % 64 {
                    case 0..<40: try e.set(nodes[nodes.count - 1], "child", .entity(fresh)); nodes.append(fresh)
                    case 40:
                        let k = Int(rng.next() % UInt64(nodes.count))
                        try e.set(nodes[k], "child", .entity(fresh)); nodes = Array(nodes[...k]) + [fresh]
                    default:
                        let top = try e.make("Node", [:])
                        let chain = try e.make("Node", [:])
                        try e.set(chain, "child", .entity(top))
                        try e.set(nodes[nodes.count - 1], "child", .entity(chain)); nodes += [chain, top]
                    }
                } catch is EntityDepthError { refused += 1 }
            }
            var depth = 1, n: Entity? = lib
            while let x = n, case .entity(let c)? = x["root"] ?? x["child"] { depth += 1; n = c }
            #expect(depth <= Engine.maxEntityDepth, "round \(round)")
            var w = JSONWriter()
            w.document(lib, type: "Lib", version: 1, generation: 1, headerExtras: [])
            #expect(w.deepest <= JSONReader.maxDepth)
            #expect((try? f.read(w.bytes)) != nil, "round \(round): what is written reads back")
        }
        #expect(refused > 0, "the fuzz reached the limit")
        // A detached chain of any length is measured without recursion, and refused.
        var top = try e.make("Node", [:])
        for k in 0..<48_000 {
            let p = try e.make("Node", [:])
            do { try e.set(p, "child", .entity(top)); top = p } catch is EntityDepthError { #expect(k == Engine.maxEntityDepth - 1); break }
        }
    }

    @Test func aWriteDeeperThanALoadReadsIsFlagged() throws {
        let f = try ReaderFixture()
        let node = try f.engine.make("Node", [:])
        node.unknownFields = [("kept", Array((String(repeating: "[", count: 520) + String(repeating: "]", count: 520)).utf8))]
        let lib = try f.engine.make("Lib", [:])
        try f.engine.set(lib, "root", .entity(node))
        var w = JSONWriter()
        w.document(lib, type: "Lib", version: 1, generation: 1, headerExtras: [])
        #expect(w.deepest > JSONReader.maxDepth)
        #expect(f.error(String(decoding: w.bytes, as: UTF8.self)) != nil, "what the writer flags is what the reader refuses")
    }

    // MARK: Not regular files (seeded over kinds)

    @Test func onlyRegularFilesAreRead() throws {
        let folder = try TempFolder()
        let base = folder.url.path
        let regular = base + "/regular"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: regular))
        let cases: [(String, (String) -> Void)] = [
            ("a FIFO", { _ = mkfifo($0, 0o600) }),
            ("a directory", { _ = mkdir($0, 0o700) }),
            ("symbolic link to nothing", { _ = symlink(base + "/nothing", $0) }),
            ("symbolic link to nothing", { _ = symlink($0, $0) }),
            ("a FIFO", { p in _ = mkfifo(base + "/fifo-target", 0o600); _ = symlink(base + "/fifo-target", p) }),
        ]
        for (k, (what, make)) in cases.enumerated() {
            let path = base + "/case\(k)"
            make(path)
            do {
                _ = try AtomicFile.read(path)
                Issue.record("\(what) was read")
            } catch let e as StorageError {
                #expect(e.description.contains(path) && e.description.contains(what), "\(e)")
            }
        }
        #expect(try AtomicFile.read(base + "/missing") == nil)
        _ = symlink(regular, base + "/link")
        #expect(try AtomicFile.read(base + "/link") == Array("{}".utf8))
    }
}
