import Foundation
import OKitTestSupport
import Testing
@testable import OKitEngine

/// The codec's tree reader as the places that used Foundation's JSONSerialization use it: standard JSON only
/// (`nonFiniteWords: false`), the reason a document does not read, members by key, raw number text; and the
/// files and lines written and read through it.
@Suite struct JSONTreeTests {
    @Test func standardJSONRefusesTheNonFiniteWordsSnapshotsAccept() {
        for text in ["nan", "inf", "-inf", #"{"a":nan}"#, "[1,-inf]"] {
            #expect(JSONTree.parse(Array(text.utf8), nonFiniteWords: false) == nil, "\(text)")
            #expect(JSONTree.parse(Array(text.utf8)) != nil, "\(text)")
        }
        #expect(JSONTree.parse(Array(#"{"n":null}"#.utf8), nonFiniteWords: false) == .object([(key: "n", value: .null)]))
    }

    @Test func aByteOrderMarkIsSkippedAndTrailingTextRefused() throws {
        #expect(JSONTree.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.int(1)]))
        #expect(JSONTree.parse(Array(" {\"a\":1} \n".utf8)) != nil)
        #expect(throws: JSONTree.Failure.self) { try JSONTree.read(Array(#"{"a":1} x"#.utf8)) }
        do {
            _ = try JSONTree.read(Array(#"{"a":1 "b":2}"#.utf8))
            Issue.record("two members without a comma read")
        } catch {
            #expect(error.offset == 7)
            #expect(error.description == "expected \",\" at byte 7")
        }
    }

    @Test func membersByKeyAndTheirValues() {
        let tree = JSONTree.parse(Array(#"{"s":"x","b":true,"a":["p",1],"s":"last"}"#.utf8))
        #expect(tree?["s"]?.string == "last", "the last of a repeated key, as in a dictionary")
        #expect(tree?["b"]?.bool == true)
        #expect(tree?["a"]?.array == [.string("p"), .int(1)])
        #expect(tree?["missing"] == nil)
        #expect(tree?["b"]?.string == nil && tree?["s"]?.bool == nil)
        #expect(JSONTree.array([])["s"] == nil)
    }

    @Test func aMembersRawTextKeepsIntegersBeyondInt() {
        let line = Array(#"{"okit":"session","seed":18446744073709551615,"x":{"seed":1},"big":12345678901234567890}"#.utf8)
        #expect(JSONTree.rawMember("seed", of: line) == "18446744073709551615")
        #expect(JSONTree.rawMember("big", of: line) == "12345678901234567890")
        #expect(JSONTree.rawMember("none", of: line) == nil)
        #expect(JSONTree.rawMember("seed", of: Array("[1]".utf8)) == nil)
    }

    @Test func aSessionHeaderReadsItsSeedExactly() throws {
        for seed: UInt64 in [0, 42, UInt64(Int.max) + 1, .max] {
            let header = SessionRecorder.Header(app: "/a/app.lua", now: Date(timeIntervalSince1970: 1_556_704_800), seed: seed, language: "de")
            let line = "{\"okit\":\"session\",\"app\":\"/a/app.lua\",\"now\":\"2019-05-01T10:00:00Z\",\"seed\":\(seed),\"lang\":\"de\"}"
            #expect(SessionRecorder.header(of: line) == header)
        }
        #expect(SessionRecorder.header(of: #"{"okit":"session","app":"a","now":"2019-05-01T10:00:00Z"}"#)?.seed == 0)
        #expect(SessionRecorder.header(of: #"{"okit":"other","app":"a","now":"2019-05-01T10:00:00Z"}"#) == nil)
        #expect(SessionRecorder.header(of: "not json") == nil)
        #expect(SessionRecorder.seedValue("-1") == .max)
        #expect(SessionRecorder.seedValue("5.0") == 5)
        #expect(SessionRecorder.seedValue("\"5\"") == 0)
    }

    /// The record of a pending change: sorted keys, no spaces, as Foundation wrote it (a slash is no longer
    /// escaped: `"a/b"` and `"a\/b"` are the same string, and both read).
    @Test func aPendingChangesRecordRoundTrips() throws {
        let folder = try TempFolder()
        let pending = PendingWrites(dataFolder: folder.url)
        let meta = PendingWrites.Meta(etag: "W/\"x\u{1}\"", conflict: true, deletes: ["shelf/_image/a.png"])
        try pending.saveMeta(meta, model: "default")
        let text = String(decoding: try #require(FileManager.default.contents(atPath: pending.metaPath("default"))), as: UTF8.self)
        #expect(text == #"{"conflict":true,"deletes":["shelf/_image/a.png"],"etag":"W/\"x\u0001\""}"#)
        #expect(try pending.meta("default") == meta)
        try pending.saveMeta(PendingWrites.Meta(), model: "other")
        #expect(FileManager.default.contents(atPath: pending.metaPath("other")) == Data(#"{"conflict":false,"deletes":[],"etag":null}"#.utf8))
        try Data(#"{"etag":"e","deletes":["a\/b.png","../up"],"conflict":false}"#.utf8).write(to: URL(fileURLWithPath: pending.metaPath("old")))
        #expect(try pending.meta("old") == PendingWrites.Meta(etag: "e", conflict: false, deletes: ["a/b.png"]))
        try Data("[1]".utf8).write(to: URL(fileURLWithPath: pending.metaPath("bad")))
        #expect(throws: StorageError.self) { try pending.meta("bad") }
    }

    @Test func aBackupsJSONProblemNamesTheReadersReason() {
        #expect(BackupStore.jsonProblem(Array(#"{"a":1}"#.utf8)) == nil)
        #expect(BackupStore.jsonProblem(Array("3".utf8)) == nil, "any value, as a fragment")
        #expect(BackupStore.jsonProblem(Array(#"{"a":nan}"#.utf8)) == "it is not valid JSON (expected null at byte 5)")
        #expect(BackupStore.jsonProblem(Array(#"{"a":1"#.utf8))?.hasPrefix("it is not valid JSON (") == true)
    }
}
