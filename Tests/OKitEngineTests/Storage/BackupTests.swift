import Crypto
import Foundation
import Testing
import OKitTestSupport
import ZIPFoundation
@testable import OKitEngine
import OKitLua
@testable import okit_run     // CommandLineAdvice: okit-run's words for what a person reads

/// Backups (storage.md "Backups"): one zip per backup with a manifest; a secure one sealed under a password;
/// restore verifies everything before it touches the data, then swaps the data folder all or nothing.
@Suite struct BackupTests {
    /// One password for the whole suite, so the derived key is cached and the suite stays fast.
    static let password = "correct horse battery staple"
    static let key = SymmetricKey(size: .bits256)
    static let t1 = Date(timeIntervalSince1970: 1_700_000_000)
    static let t2 = Date(timeIntervalSince1970: 1_700_003_600.25)

    // MARK: Fixtures

    func put(_ folder: TempFolder, _ rel: String, _ bytes: [UInt8]) throws {
        let url = folder.url.appendingPathComponent(rel)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// A data folder with a model, its journal, a partial, data and image side files, keys, a lock and pending
    /// changes; with `sealed`, a second model sealed with `BackupTests.key` (file and side file).
    func populate(_ folder: TempFolder, sealed: Bool = false) throws {
        try put(folder, "okit/data/Shop.json", Array(#"{"okit":{"version":1,"type":"Shop"},"books":[{"id":"b1","name":"Dune"}]}"#.utf8))
        try put(folder, "okit/data/Shop.journal", Array("OKITJ 1\n{\"id\":\"b1\",\"name\":\"Dune 2\"}\n".utf8))
        try put(folder, "okit/data/Shop/g1.json", Array(#"{"id":"g1","name":"Group"}"#.utf8))
        try put(folder, "okit/data/Shop/_data/d1.raw", (0..<300).map { UInt8($0 % 251) })
        try put(folder, "okit/data/Shop/_image/i1.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 40))
        try put(folder, "okit/keys/data.key", Array(repeating: 1, count: 32))
        try put(folder, "okit/lock", [])
        try put(folder, "okit/pending/Shop.json", Array("{}".utf8))
        if sealed {
            try put(folder, "okit/data/Secret.json", try SealedFile.seal(Array(#"{"okit":{"version":1,"type":"Vault"},"pin":"1234"}"#.utf8), key: Self.key))
            try put(folder, "okit/data/Secret/_data/s1.raw", try SealedFile.seal(Array("secret bytes".utf8), key: Self.key))
        }
    }

    /// Every path under `<data>/okit/data` with its bytes (folders as `path/`, links as `path -> target`).
    func snapshot(_ folder: TempFolder) -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        let root = folder.modelsFolder.path
        func walk(_ rel: String) {
            let dir = rel.isEmpty ? root : root + "/" + rel
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
                let child = rel.isEmpty ? name : rel + "/" + name
                let path = root + "/" + child
                if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                    out[child + " -> " + target] = []
                    continue
                }
                var isDir: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
                if isDir.boolValue {
                    out[child + "/"] = []
                    walk(child)
                } else {
                    out[child] = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
                }
            }
        }
        walk("")
        return out
    }

    /// What restores leave beside the data folder (nothing, after a success or a refusal).
    func leftovers(_ folder: TempFolder) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path + "/okit")) ?? [])
            .filter { $0.hasPrefix("restore-") }.sorted()
    }

    /// The backup error `body` throws, in okit-run's words (`CommandLineAdvice`: what a person reads).
    func backupError(_ body: () throws -> Void) -> BackupError? {
        do { try body() } catch let e as BackupError { return e.worded(CommandLineAdvice.words(for:)) } catch {
            Issue.record("not a BackupError: \(error)")
            return nil
        }
        Issue.record("no error")
        return nil
    }

    /// A zip written entry by entry, for archives okit would never write.
    func zip(_ url: URL, _ entries: [(String, [UInt8])], links: [(String, String)] = []) throws {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let archive = try Archive(url: url, accessMode: .create)
        for (path, bytes) in entries {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(bytes.count)) { pos, size in
                Data(bytes[Int(pos)..<min(bytes.count, Int(pos) + size)])
            }
        }
        for (path, target) in links {
            let bytes = Array(target.utf8)
            try archive.addEntry(with: path, type: .symlink, uncompressedSize: Int64(bytes.count)) { _, _ in Data(bytes) }
        }
    }

    func manifest(_ files: [(String, [UInt8])]) throws -> [UInt8] {
        try BackupManifest(formatVersion: 1, appId: "test", createdAt: "2024-01-01T00:00:00Z", secure: false,
                           files: files.map { .init(path: $0.0, size: Int64($0.1.count), sha256: BackupArchive.sha256($0.1)) })
            .encoded()
    }

    func entries(_ url: URL) throws -> [String: [UInt8]] {
        try entries(Archive(url: url, accessMode: .read))
    }

    func entries(_ archive: Archive) throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for e in archive {
            var bytes: [UInt8] = []
            _ = try archive.extract(e) { bytes.append(contentsOf: $0) }
            out[e.path] = bytes
        }
        return out
    }

    // MARK: Create, list, delete

    @Test func createListNewestFirstAndDelete() throws {
        let folder = try TempFolder()
        try populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        let first = try store.create(name: "first", appId: "shop", now: Self.t1)
        let second = try store.create(name: "second", appId: "shop", password: Self.password, now: Self.t2)
        #expect(first.url.path == folder.url.path + "/okit/backup/first.okbackup")
        let list = try store.list()
        #expect(list.map(\.name) == ["second", "first"])
        #expect(list.map(\.secure) == [true, false])
        #expect(list[1].createdAt == Self.t1, "from the manifest")
        #expect(abs(list[0].createdAt.timeIntervalSince(Self.t2)) < 0.001, "from the secure header")
        #expect(list.allSatisfy { $0.size > 0 })
        #expect(list[0] == second && list[1].size == first.size)
        #expect(try store.isSecure("second") && !store.isSecure("first"))

        try store.delete(name: "first")
        #expect(try store.list().map(\.name) == ["second"])
        let e = backupError { try store.delete(name: "first") }
        #expect(e?.kind == .notFound)
        #expect(e?.description.contains("no backup named first") == true)
    }

    @Test func anExistingNameIsRefusedAndTheBackupKept() throws {
        let folder = try TempFolder()
        try populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        let info = try store.create(name: "daily", appId: "shop", now: Self.t1)
        let before = try Data(contentsOf: info.url)
        try put(folder, "okit/data/Shop.json", Array("{}".utf8))
        let e = backupError { try store.create(name: " daily ", appId: "shop", now: Self.t2) }
        #expect(e?.kind == .exists)
        #expect(e?.description.hasPrefix("a backup named daily exists; choose another name or delete it") == true)
        #expect(try Data(contentsOf: info.url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.backupFolder.path) == ["daily.okbackup"],
                "no temporary left behind")
    }

    // The rule the backups screen's refusal states (`backupBadName`): at most 60 characters, no leading dot, none of
    // / \\ : ? % * | " < > (what OKit's backups screen takes out of a name), no control character, no text direction
    // control (a name shown reversed deceives: `\u{202E}gpj.exe` reads as "exe.jpg").
    @Test(arguments: ["../evil", "a/b", "a\\b", ".hidden", "", "   ", "x\u{0}y", "..", "line\nbreak", "evil\".html; x=\"",
                      "<img src=x>", "%2e%2e", "ünïcödé <b>", "a:b", "a?b", "a*b", "a|b", "x\u{85}y", String(repeating: "é", count: 61),
                      "\u{202E}gpj.exe", "a\u{2066}b\u{2069}", "x\u{200F}"])
    func unsafeNamesAreRefused(_ name: String) throws {
        let folder = try TempFolder()
        try populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        let e = backupError { try store.create(name: name, appId: "shop", now: Self.t1) }
        #expect(e?.kind == .invalidName)
        #expect(!FileManager.default.fileExists(atPath: folder.url.path + "/okit/evil.okbackup"))
        #expect(try store.list().isEmpty)
        // A name only the create rule refuses may name an older backup: deleting it finds none here.
        let deleted = backupError { try store.delete(name: name) }?.kind
        #expect(deleted == .invalidName || deleted == .notFound)
    }

    @Test func namesWithAccentsSpacesAndPunctuationAreKept() throws {
        let folder = try TempFolder()
        try populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        for name in ["Ünïcödé été", "before update (2) - v1.2_final", "Zoë's #3 & co", String(repeating: "ő", count: 60)] {
            #expect(try store.create(name: name, appId: "shop", now: Self.t1).name == name)
        }
    }

    @Test func theRefusalStatesTheRuleApplied() throws {
        let rule = BackupStore.forbiddenInName.map { String($0) }.joined(separator: " ")
        #expect(rule == "/ \\ : ? % * | \" < >" && BackupStore.maxNameLength == 60)
        for language in ["en", "de", "es", "fr", "it", "pt"] {
            let words = BuiltInWords.okitTemplate(.backupBadName, language: language).replacingOccurrences(of: "\u{A0}", with: " ")
            #expect(words.contains("60") && words.contains(rule), "\(language): \(words)")
        }
    }

    @Test func namesAreTrimmedAndTheExtensionDropped() throws {
        let folder = try TempFolder()
        try populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        #expect(try store.create(name: "  before update.okbackup ", appId: "shop", now: Self.t1).name == "before update")
        #expect(try store.list().map(\.name) == ["before update"])
    }

    @Test func aBackupHoldsEveryDataFileAndNothingElse() throws {
        let folder = try TempFolder()
        try populate(folder, sealed: true)
        try put(folder, "okit/data/.Shop.json.tmp", Array("half".utf8))   // an atomic write's temporary
        // Links to a folder or to nothing are not followed (a link to a regular file is: BackupLinkTests).
        try FileManager.default.createSymbolicLink(atPath: folder.modelsFolder.path + "/link.json", withDestinationPath: "/etc")
        try FileManager.default.createSymbolicLink(atPath: folder.modelsFolder.path + "/link2.json", withDestinationPath: "/nothing/here")
        let info = try BackupStore(dataFolder: folder.url).create(name: "all", appId: "shop", now: Self.t1)
        let zip = try entries(info.url)
        let data = snapshot(folder).filter { !$0.key.hasSuffix("/") && !$0.key.contains(" -> ") && !$0.key.hasPrefix(".") }
        #expect(Set(zip.keys) == Set(["manifest.json"] + data.keys.map { "data/" + $0 }))
        #expect(Set(data.keys) == ["Shop.json", "Shop.journal", "Shop/g1.json", "Shop/_data/d1.raw", "Shop/_image/i1.png",
                                   "Secret.json", "Secret/_data/s1.raw"])
        for (path, bytes) in data { #expect(zip["data/" + path] == bytes, "stored as is: \(path)") }
        #expect(!zip.keys.contains { $0.contains("keys") || $0.contains("lock") || $0.contains("pending") || $0.contains("link") })

        let m = try BackupManifest.decode(try #require(zip["manifest.json"]))
        #expect(m.formatVersion == 1 && m.appId == "shop" && !m.secure && m.createdAt == "2023-11-14T22:13:20Z")
        for f in m.files {
            #expect(f.size == Int64(data[f.path]?.count ?? -1))
            #expect(f.sha256 == BackupArchive.sha256(data[f.path] ?? []))
            #expect(f.keyId == (f.path.hasPrefix("Secret") ? BackupHex.encode(SealedFile.keyId(Self.key)) : nil))
        }
    }

    // MARK: Restore

    @Test(arguments: [true, false])
    func restoreReplacesEverything(exchange: Bool) throws {
        let folder = try TempFolder()
        try populate(folder)
        var store = BackupStore(dataFolder: folder.url)
        store.useRenameExchange = exchange
        try store.create(name: "good", appId: "shop", now: Self.t1)
        let before = snapshot(folder)
        try put(folder, "okit/data/Shop.json", Array(#"{"changed":true}"#.utf8))
        try put(folder, "okit/data/Added.json", Array("{}".utf8))
        try put(folder, "okit/data/Shop/_data/new.raw", [1, 2, 3])
        try FileManager.default.removeItem(at: folder.file("Shop/g1.json"))
        var seen: [(Int64, Int64)] = []
        try store.restore("good", key: { _ in nil }, validate: nil, progress: { seen.append(($0, $1)) })
        #expect(snapshot(folder) == before)
        #expect(leftovers(folder).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.url.path + "/okit/restore-in-progress"))
        let total = before.values.reduce(0) { $0 + Int64($1.count) }
        #expect(seen.last.map { $0 == (total, total) } == true)
        #expect(Swift.zip(seen.dropLast(), seen.dropFirst()).allSatisfy { $0.0 <= $1.0 }, "progress only grows")
        #expect(FileManager.default.fileExists(atPath: folder.url.path + "/okit/keys/data.key"), "keys are not touched")
    }

    @Test func aBackupRestoresFromAFileOutsideTheFolderIntoAnEmptyDataFolder() throws {
        let source = try TempFolder(), target = try TempFolder()
        try populate(source)
        let info = try BackupStore(dataFolder: source.url).create(name: "move", appId: "shop", now: Self.t1)
        let elsewhere = target.url.appendingPathComponent("move.okbackup")
        try FileManager.default.copyItem(at: info.url, to: elsewhere)
        try BackupStore(dataFolder: target.url).restore(elsewhere.path)
        #expect(snapshot(target) == snapshot(source))
    }

    enum Malicious: String, CaseIterable { case parent, absolute, link, unlisted, outsideData }

    @Test(arguments: Malicious.allCases)
    func zipSlipIsRefusedAndTheDataUntouched(_ kind: Malicious) throws {
        let folder = try TempFolder()
        try populate(folder)
        let before = snapshot(folder)
        let evil = Array("evil".utf8), shop = Array("{}".utf8)
        let url = folder.url.appendingPathComponent("okit/backup/evil.okbackup")
        switch kind {
        case .parent:
            try zip(url, [("manifest.json", try manifest([("../evil", evil)])), ("data/../evil", evil)])
        case .absolute:
            try zip(url, [("manifest.json", try manifest([("/tmp/evil", evil)])), ("/tmp/evil", evil)])
        case .link:
            try zip(url, [("manifest.json", try manifest([("Shop.json", shop)])), ("data/Shop.json", shop)],
                    links: [("data/Shop/link", "/etc")])
        case .unlisted:
            try zip(url, [("manifest.json", try manifest([("Shop.json", shop)])), ("data/Shop.json", shop), ("data/extra.json", shop)])
        case .outsideData:
            try zip(url, [("manifest.json", try manifest([("Shop.json", shop)])), ("data/Shop.json", shop), ("okit/keys/data.key", evil)])
        }
        let e = backupError { try BackupStore(dataFolder: folder.url).restore("evil") }
        #expect(e?.kind == .unsafeEntry)
        #expect(snapshot(folder) == before)
        #expect(leftovers(folder).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.url.path + "/okit/evil"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/evil") || kind != .absolute)
    }

    @Test(arguments: [0.5, 0.97, 0.0])
    func aTruncatedOrGarbageArchiveIsRefused(_ fraction: Double) throws {
        let folder = try TempFolder()
        try populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        let info = try store.create(name: "whole", appId: "shop", now: Self.t1)
        let bytes = try Data(contentsOf: info.url)
        let cut = fraction == 0 ? Data("this is not a zip at all".utf8) : bytes.prefix(Int(Double(bytes.count) * fraction))
        try cut.write(to: store.backupFolder.appendingPathComponent("cut.okbackup"))
        try put(folder, "okit/data/Shop.json", Array(#"{"after":1}"#.utf8))
        let before = snapshot(folder)
        let e = backupError { try store.restore("cut") }
        #expect(e?.kind == .damaged || e?.kind == .mismatch)
        #expect(e?.description.contains("damaged backup cut") == true)
        #expect(snapshot(folder) == before)
        #expect(leftovers(folder).isEmpty)
    }

    @Test func aHashMismatchIsRefused() throws {
        let folder = try TempFolder()
        try populate(folder)
        let before = snapshot(folder)
        let good = Array(#"{"a":1}"#.utf8), bad = Array(#"{"a":2}"#.utf8)
        let url = folder.url.appendingPathComponent("okit/backup/bad.okbackup")
        try zip(url, [("manifest.json", try manifest([("Shop.json", good)])), ("data/Shop.json", bad)])
        let e = backupError { try BackupStore(dataFolder: folder.url).restore("bad") }
        #expect(e?.kind == .mismatch)
        #expect(e?.description.contains("SHA-256") == true)
        #expect(snapshot(folder) == before)
        #expect(leftovers(folder).isEmpty)
    }

    @Test func aMissingEntryIsRefused() throws {
        let folder = try TempFolder()
        try populate(folder)
        let before = snapshot(folder)
        let a = Array(#"{"a":1}"#.utf8)
        let url = folder.url.appendingPathComponent("okit/backup/short.okbackup")
        try zip(url, [("manifest.json", try manifest([("Shop.json", a), ("Shop/g1.json", a)])), ("data/Shop.json", a)])
        let e = backupError { try BackupStore(dataFolder: folder.url).restore("short") }
        #expect(e?.kind == .mismatch)
        #expect(e?.description.contains("Shop/g1.json is in the manifest but missing") == true)
        #expect(snapshot(folder) == before)
    }
}
