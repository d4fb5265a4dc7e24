import Foundation

/// `manifest.json`, the first thing a restore reads: what the archive holds, and how to check it. Each file's
/// path is relative to `<data>/okit/data`; in the archive it is stored as `data/<path>` (so a model named
/// `manifest` cannot collide with the manifest).
struct BackupManifest: Codable, Equatable {
    /// The format this okit writes and reads; a newer number is refused with a clear message.
    static let currentVersion = 1
    static let entryName = "manifest.json"
    static let dataPrefix = "data/"
    /// A manifest larger than this is refused before it is read (a hostile archive cannot exhaust memory).
    static let maxSize: UInt64 = 64 << 20

    struct File: Codable, Equatable {
        /// Relative to `<data>/okit/data`, `/`-separated.
        var path: String
        /// Bytes of the entry as stored in the archive.
        var size: Int64
        /// Lower-case hex SHA-256 of the entry's bytes.
        var sha256: String
        /// Hex key id of a sealed entry (`SealedFile.keyId`; absent for plain entries).
        var keyId: String?
    }

    var formatVersion: Int
    var appId: String
    /// ISO 8601, UTC.
    var createdAt: String
    var secure: Bool
    var files: [File]

    var createdDate: Date? {
        Array(createdAt.utf8).withUnsafeBufferPointer { ISODate.parseExact($0) }
    }

    static func timestamp(_ date: Date) -> String {
        var out: [UInt8] = []
        if ISODate.isExactlyWritable(date) { ISODate.appendExact(date, to: &out) } else { ISODate.appendExact(Date(timeIntervalSince1970: 0), to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }

    static func decode(_ bytes: [UInt8]) throws -> BackupManifest {
        try JSONDecoder().decode(BackupManifest.self, from: Data(bytes))
    }

    /// Why a relative path may not become a file under the data folder, or nil when it is safe: no absolute
    /// paths, no empty, `.` or `..` components, no `\`, NUL or control characters, no leading `.` (the
    /// temporaries of atomic writes; no model name or id starts with one).
    static func unsafety(of path: String) -> String? {
        if path.isEmpty { return "has an empty path" }
        if path.hasPrefix("/") { return "is an absolute path" }
        if path.contains("\\") { return "contains \\" }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "contains a control character" }
        if path.utf8.count > 4096 { return "has a path that is too long" }
        for component in path.split(separator: "/", omittingEmptySubsequences: false) {
            if component.isEmpty { return "has an empty path component" }
            if component == ".." { return "contains a .. component (it would leave the data folder)" }
            if component == "." || component.hasPrefix(".") { return "has a component starting with \".\"" }
            if component.utf8.count > 255 { return "has a path component that is too long" }
        }
        return nil
    }

    /// Checks the manifest itself: its version, and every path safe and listed once.
    func check(backup: String, path: String) throws(BackupError) {
        if formatVersion > BackupManifest.currentVersion {
            throw BackupError(.newerFormat, backup: backup, "backup \(backup) has format \(formatVersion), newer than this okit reads (\(BackupManifest.currentVersion)); update okit to restore it")
        }
        if formatVersion < 1 { throw .damaged(backup, path: path, "the manifest has format \(formatVersion)") }
        var seen = Set<String>()
        for f in files {
            if let why = BackupManifest.unsafety(of: f.path) { throw .unsafeEntry(backup, entry: f.path, why) }
            if !seen.insert(f.path).inserted { throw .unsafeEntry(backup, entry: f.path, "is listed twice in the manifest") }
            if f.size < 0 { throw .damaged(backup, path: path, "the manifest gives \(f.path) a negative size") }
            if f.sha256.utf8.count != 64 || !f.sha256.utf8.allSatisfy(BackupHex.isDigit) {
                throw .damaged(backup, path: path, "the manifest's SHA-256 of \(f.path) is malformed")
            }
            if let k = f.keyId, BackupHex.decode(k)?.count != SealedFile.idSize {
                throw .damaged(backup, path: path, "the manifest's key id of \(f.path) is malformed")
            }
        }
    }
}

/// Lower-case hex, for digests and key ids.
enum BackupHex {
    static func encode<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func isDigit(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) }

    static func decode(_ text: String) -> [UInt8]? {
        let u = Array(text.utf8)
        guard u.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x61...0x66: return c - 0x61 + 10
            case 0x41...0x46: return c - 0x41 + 10
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(u.count / 2)
        var i = 0
        while i < u.count {
            guard let hi = value(u[i]), let lo = value(u[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}
