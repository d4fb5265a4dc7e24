import Crypto
import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// The backup reader, fuzzed (quality.md "Reliability promises" 4 and 6): real backups with their bytes flipped,
/// truncated, padded with garbage and with ranges duplicated or removed, and archives with a mangled manifest,
/// from a fixed seed. Each restore either succeeds with exactly the backed-up data or is refused with a short
/// BackupError, and a refused restore leaves the data folder byte for byte as it was.
@Suite struct BackupFuzzTests {
    let fixture = BackupTests()
    /// OKIT_FUZZ_SEED and OKIT_FUZZ_ROUNDS run other and longer series (outside scripts/test); OKIT_FUZZ_TRACE
    /// prints the outcomes.
    static let env = ProcessInfo.processInfo.environment
    static let seed = env["OKIT_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0
    static let rounds = env["OKIT_FUZZ_ROUNDS"].flatMap { Int($0) } ?? 1

    func report(_ outcomes: [String: Int]) {
        if Self.env["OKIT_FUZZ_TRACE"] != nil { FileHandle.standardError.write(Data("outcomes: \(outcomes)\n".utf8)) }
    }

    /// A data folder with a plain and a secure backup, and data changed since (so a restore is visible); what each
    /// restores (a secure backup holds the sealed files opened).
    func prepare() throws -> (TempFolder, BackupStore, backedUp: [String: [UInt8]], secureBackedUp: [String: [UInt8]]) {
        let folder = try TempFolder()
        try fixture.populate(folder, sealed: true)
        let store = BackupStore(dataFolder: folder.url)
        let openSealed: ([UInt8]) -> SymmetricKey? = { $0 == SealedFile.keyId(BackupTests.key) ? BackupTests.key : nil }
        try store.create(name: "plain", appId: "shop", now: BackupTests.t1)
        try store.create(name: "secure", appId: "shop", password: BackupTests.password, openSealed: openSealed, now: BackupTests.t1)
        let backedUp = fixture.snapshot(folder)
        try changeData(folder)
        let other = try TempFolder()
        try BackupStore(dataFolder: other.url).restore(store.file(named: "secure").path, password: BackupTests.password)
        return (folder, store, backedUp, fixture.snapshot(other))
    }

    func changeData(_ folder: TempFolder) throws {
        try fixture.put(folder, "okit/data/Shop.json", Array(#"{"after":1}"#.utf8))
        try fixture.put(folder, "okit/data/Added.json", Array("{}".utf8))
    }

    /// Restores `bytes` as a backup file: refused with a short BackupError and nothing changed, or restored whole.
    func attempt(_ bytes: [UInt8], _ what: String, folder: TempFolder, store: BackupStore, backedUp: [String: [UInt8]],
                 password: String? = nil, outcomes: inout [String: Int]) throws {
        let url = store.backupFolder.appendingPathComponent("fuzz.okbackup")
        try? FileManager.default.removeItem(at: url)
        try Data(bytes).write(to: url)
        let before = fixture.snapshot(folder)
        do {
            try store.restore("fuzz", password: password, key: { $0 == SealedFile.keyId(BackupTests.key) ? BackupTests.key : nil })
            outcomes["restored", default: 0] += 1
            #expect(fixture.snapshot(folder) == backedUp, "a restore that succeeds restores exactly the backup (\(what))")
            try changeData(folder)
        } catch let e as BackupError {
            outcomes["\(e.kind)", default: 0] += 1
            let message = e.description
            #expect(!message.isEmpty && message.split(separator: "\n", omittingEmptySubsequences: false).count <= 2,
                    "one or two lines (\(what)): \(message.prefix(400))")
            #expect(message.count <= 600, "a short message (\(what.prefix(60))): \(message.count) characters: \(message.prefix(300))")
            #expect(fixture.snapshot(folder) == before, "a refused restore changes nothing (\(what)): \(message.prefix(200))")
        } catch {
            Issue.record("not a BackupError (\(what)): \(error)")
        }
        #expect(fixture.leftovers(folder).isEmpty, "no staging folder left behind (\(what))")
    }

    /// One random change to the bytes; `from` keeps a prefix intact (a secure backup's salt and rounds, so a
    /// restore does not derive a new key each time).
    static func mutate(_ original: [UInt8], _ r: inout SplitMix64, from: Int = 0) -> ([UInt8], String) {
        var b = original
        let n = b.count
        func at() -> Int { from + r.below(max(1, n - from)) }
        switch r.below(8) {
        case 0:
            let k = 1 + r.below(8)
            for _ in 0..<k { let i = at(); b[i] ^= UInt8(truncatingIfNeeded: 1 << r.below(8)) }
            return (b, "\(k) bits flipped")
        case 1:
            let i = at()
            b[i] = UInt8(truncatingIfNeeded: r.next())
            return (b, "byte \(i) set")
        case 2:
            let i = r.below(n)
            return (Array(b.prefix(i)), "truncated at \(i)")
        case 3:
            let i = at(), k = 1 + r.below(300)
            b.insert(contentsOf: (0..<k).map { _ in UInt8(truncatingIfNeeded: r.next()) }, at: i)
            return (b, "\(k) garbage bytes at \(i)")
        case 4:
            let i = at(), k = 1 + r.below(min(400, n - i)), j = at()
            b.insert(contentsOf: Array(original[i..<i + k]), at: j)
            return (b, "range \(i)+\(k) duplicated at \(j)")
        case 5:
            let i = at(), k = 1 + r.below(min(200, n - i))
            b.removeSubrange(i..<i + k)
            return (b, "range \(i)+\(k) removed")
        case 6:
            let i = at(), k = 1 + r.below(min(64, n - i))
            for j in i..<i + k { b[j] = [0x00, 0xFF][r.below(2)] }
            return (b, "range \(i)+\(k) zeroed or set")
        default:
            return (b + (0..<(1 + r.below(100))).map { _ in UInt8(truncatingIfNeeded: r.next()) }, "garbage appended")
        }
    }

    @Test func damagedPlainAndSecureBackupsAreRefusedAndTheDataUntouched() throws {
        let (folder, store, backedUp, secureBackedUp) = try prepare()
        let plain = [UInt8](try Data(contentsOf: store.file(named: "plain")))
        let secure = [UInt8](try Data(contentsOf: store.file(named: "secure")))
        var r = SplitMix64(seed: 0xBAC0_F0CC &+ Self.seed)
        var outcomes: [String: Int] = [:]
        for _ in 0..<300 * Self.rounds {
            let (bytes, what) = Self.mutate(plain, &r)
            try attempt(bytes, "plain, " + what, folder: folder, store: store, backedUp: backedUp, outcomes: &outcomes)
        }
        for _ in 0..<80 * Self.rounds {
            let (bytes, what) = Self.mutate(secure, &r, from: SecureBackup.headerSize - 8)
            try attempt(bytes, "secure, " + what, folder: folder, store: store, backedUp: secureBackedUp,
                        password: BackupTests.password, outcomes: &outcomes)
        }
        // The header's round count out of range, and a header cut short.
        var rounds = secure
        rounds[24] = 0xFF
        try attempt(rounds, "secure, rounds", folder: folder, store: store, backedUp: secureBackedUp, password: BackupTests.password, outcomes: &outcomes)
        try attempt(Array(secure.prefix(30)), "secure, short header", folder: folder, store: store, backedUp: secureBackedUp,
                    password: BackupTests.password, outcomes: &outcomes)
        report(outcomes)
        #expect((outcomes["damaged"] ?? 0) + (outcomes["mismatch"] ?? 0) > 300, "\(outcomes)")
    }

    /// A manifest's text with one random change: a value replaced by an extreme or hostile one, characters
    /// flipped, removed or duplicated.
    static func mangle(_ text: String, _ r: inout SplitMix64) -> String {
        var s = Array(text.unicodeScalars)
        // Sizes past Int64 when added (Int64.max beside another file) and a path of thousands of characters.
        let hostile = ["-1", "4611686018427387904", "9223372036854775807", "\"" + String(repeating: "b", count: 5000) + "\"", "-9223372036854775808", "1e300", "18446744073709551616", "null", "[]",
                       "{}", "\"\"", "\"../evil\"", "\"/etc/passwd\"", "\"a\\nb\"", "\"data/../x\"", "true", "\"\\u0000\"",
                       "\"" + String(repeating: "a", count: 300) + "\"", "0.5", "2", "\"Shop.json\"", "\"manifest.json\""]
        switch r.below(5) {
        case 0, 1:
            // Replace the value after a random colon.
            let colons = s.indices.filter { s[$0] == ":" }
            guard let c = colons.isEmpty ? nil : colons[r.below(colons.count)] else { return text }
            var end = c + 1
            while end < s.count, s[end] == " " { end += 1 }
            if end < s.count, s[end] == "\"" {
                end += 1
                while end < s.count, s[end] != "\"" { end += s[end] == "\\" ? 2 : 1 }
                end = min(end + 1, s.count)
            } else if end < s.count, s[end] == "[" || s[end] == "{" {
                var depth = 0
                repeat {
                    if s[end] == "[" || s[end] == "{" { depth += 1 } else if s[end] == "]" || s[end] == "}" { depth -= 1 }
                    end += 1
                } while end < s.count && depth > 0
            } else {
                while end < s.count, !",}]\n".unicodeScalars.contains(s[end]) { end += 1 }
            }
            s.replaceSubrange((c + 1)..<end, with: Array((" " + hostile[r.below(hostile.count)]).unicodeScalars))
        case 2:
            let i = r.below(s.count)
            s[i] = Unicode.Scalar(UInt8(32 + r.below(95)))
        case 3:
            let i = r.below(s.count), k = 1 + r.below(min(40, s.count - i))
            s.removeSubrange(i..<i + k)
        default:
            let i = r.below(s.count), k = 1 + r.below(min(200, s.count - i))
            s.insert(contentsOf: Array(s[i..<i + k]), at: r.below(s.count))
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: s)
        return String(out)
    }

    @Test func mangledManifestsAreRefusedAndTheDataUntouched() throws {
        let (folder, store, backedUp, _) = try prepare()
        let original = try fixture.entries(store.file(named: "plain"))
        let manifest = String(decoding: try #require(original["manifest.json"]), as: UTF8.self)
        var r = SplitMix64(seed: 0x3A41_F357 &+ Self.seed)
        var outcomes: [String: Int] = [:]
        let zipURL = folder.url.appendingPathComponent("made.zip")
        for _ in 0..<150 * Self.rounds {
            let text = Self.mangle(manifest, &r)
            let entries = [("manifest.json", Array(text.utf8))]
                + original.filter { $0.key != "manifest.json" }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            try? FileManager.default.removeItem(at: zipURL)
            try fixture.zip(zipURL, entries)
            try attempt([UInt8](try Data(contentsOf: zipURL)), "manifest \(text.prefix(120))", folder: folder, store: store,
                        backedUp: backedUp, outcomes: &outcomes)
        }
        report(outcomes)
        #expect((outcomes["damaged"] ?? 0) > 30, "\(outcomes)")
    }

    /// An entry whose deflate stream does not end within its compressed size made ZIPFoundation wait at the end
    /// of the file forever (found by `scripts/fuzz backup`); it is refused before any entry is read.
    @Test func aDeflateStreamCutShortIsRefusedNotWaitedFor() throws {
        let (folder, store, _, _) = try prepare()
        var bytes = [UInt8](try Data(contentsOf: store.file(named: "plain")))
        #expect(DeflateCheck.unsafeEntries(in: bytes).isEmpty, "okit's own archive is safe")
        // Shrink the first compressed entry's compressed size by 2 bytes, in the central directory and its local header.
        func u32(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24 }
        func put32(_ i: Int, _ v: Int) { for k in 0..<4 { bytes[i + k] = UInt8((v >> (8 * k)) & 0xFF) } }
        var p = try #require((0..<(bytes.count - 4)).first { u32($0) == 0x0201_4B50 })
        while !(bytes[p + 10] == 8 && u32(p + 20) > 2) {
            p += 46 + Int(bytes[p + 28]) + Int(bytes[p + 29]) << 8 + Int(bytes[p + 30]) + Int(bytes[p + 31]) << 8 + Int(bytes[p + 32]) + Int(bytes[p + 33]) << 8
            try #require(u32(p) == 0x0201_4B50, "a compressed entry")
        }
        let compressed = u32(p + 20), local = u32(p + 42)
        put32(p + 20, compressed - 2)
        put32(local + 18, compressed - 2)
        let name = String(decoding: bytes[(p + 46)..<(p + 46 + Int(bytes[p + 28]))], as: UTF8.self)
        #expect(DeflateCheck.unsafeEntries(in: bytes) == [name])
        guard DeflateCheck.unsafeEntries(in: bytes) == [name] else { return }   // never reach ZIPFoundation's wait
        let hostile = folder.url.appendingPathComponent("hostile.okbackup")
        try Data(bytes).write(to: hostile)
        let before = fixture.snapshot(folder)
        do {
            try store.restore(hostile.path)
            Issue.record("a cut-short entry was restored")
        } catch let e as BackupError {
            #expect(e.description.contains("is cut short or damaged"), "\(e.description)")
        }
        #expect(fixture.snapshot(folder) == before, "nothing changed")
    }
    /// Issue 13: zip64 markers (in the end record, a zip64 record and locator, an entry's sizes, a zip64 extra
    /// field) and high-ratio entries, seeded: each is refused before anything is decompressed, nothing changes.
    @Test func zip64AndHighRatioArchivesAreRefused() throws {
        let (folder, store, backedUp, _) = try prepare()
        let plain = [UInt8](try Data(contentsOf: store.file(named: "plain")))
        var r = SplitMix64(seed: 0x2164_0B0B &+ Self.seed)
        var outcomes: [String: Int] = [:]
        func u32(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24 }
        let eocd = plain.count - 22
        let start = u32(plain, eocd + 16)
        var central: [Int] = []   // the offsets of the central directory's entries
        var p = start
        while p < eocd, u32(plain, p) == 0x0201_4B50 {
            central.append(p)
            p += 46 + Int(plain[p + 28]) + Int(plain[p + 29]) << 8 + Int(plain[p + 30]) + Int(plain[p + 31]) << 8
                + Int(plain[p + 32]) + Int(plain[p + 33]) << 8
        }
        for _ in 0..<40 * Self.rounds {
            var b = plain
            let what: String
            switch r.below(4) {
            case 0:
                b = BackupHostileTests.zip64(plain, lying: r.below(2) == 0)
                what = "zip64 end record"
            case 1:
                let e = central[r.below(central.count)], field = [20, 24, 42][r.below(3)]
                for k in 0..<4 { b[e + field + k] = 0xFF }
                what = "entry field \(field) at \(e) set to 0xFFFFFFFF"
            case 2:
                let field = [8, 10, 12, 16][r.below(4)]
                for k in 0..<(field < 12 ? 2 : 4) { b[eocd + field + k] = 0xFF }
                what = "end record field \(field) marked zip64"
            default:
                // The first entry's extra field id made 1 (a zip64 field), when it has an extra field.
                guard let e = central.first(where: { plain[$0 + 30] != 0 || plain[$0 + 31] != 0 }) else { continue }
                let extra = e + 46 + Int(plain[e + 28]) + Int(plain[e + 29]) << 8
                b[extra] = 1; b[extra + 1] = 0
                what = "zip64 extra field"
            }
            try attempt(b, what, folder: folder, store: store, backedUp: backedUp, outcomes: &outcomes)
        }
        let bomb = folder.url.appendingPathComponent("bomb.zip")
        for _ in 0..<3 * Self.rounds {
            let size = (2 + r.below(14)) << 20
            try? FileManager.default.removeItem(at: bomb)
            try BackupHostileTests.bomb(bomb, size: size)
            try attempt([UInt8](try Data(contentsOf: bomb)), "bomb of \(size) bytes", folder: folder, store: store,
                        backedUp: backedUp, outcomes: &outcomes)
        }
        report(outcomes)
        #expect(outcomes["restored"] == nil, "\(outcomes)")
    }
}
