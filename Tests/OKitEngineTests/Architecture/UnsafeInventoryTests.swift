import Foundation
import Testing
import OKitTestSupport

/// Every unsafe construct in the code of `Sources/` is listed in docs/unsafe.md (quality.md, reliability promise
/// 11): a row per file names each construct the file has and how many times, the invariant that makes them safe
/// and the tests that guard them. A construct in a file whose row does not list it (or lists fewer), a row that
/// lists more than the file has, and a guarding test that does not exist all fail here, with the place to fix.
///
/// Files are matched by their name, not their folder, so a file moved between targets keeps its row; the names
/// of `Sources/` are therefore unique, which is checked too.
@Suite struct UnsafeInventoryTests {
    /// The constructs, by the name the inventory gives them, and the pattern that finds each in code.
    static let constructs: [(name: String, pattern: String)] = [
        ("unowned(unsafe)", #"\bunowned\s*\(\s*unsafe\s*\)"#),
        ("nonisolated(unsafe)", #"\bnonisolated\s*\(\s*unsafe\s*\)"#),
        ("@unchecked Sendable", #"@unchecked\s+Sendable\b"#),
        ("@exclusivity(unchecked)", #"@exclusivity\s*\(\s*unchecked\s*\)"#),
        ("@_silgen_name", #"@_silgen_name\b"#),
        ("Unmanaged", #"\bUnmanaged\b"#),
        ("_withUnsafeGuaranteedRef", #"\b_withUnsafeGuaranteedRef\b"#),
        ("unsafeBitCast", #"\bunsafeBitCast\b"#),
        ("unsafeDowncast", #"\bunsafeDowncast\b"#),
        ("unsafelyUnwrapped", #"\bunsafelyUnwrapped\b"#),
        ("Unsafe…Pointer", #"\bUnsafe(?:Mutable)?(?:Raw)?(?:Buffer)?Pointer\b"#),
        ("withUnsafe…", #"\bwithUnsafe[A-Za-z]*"#),
        ("unsafeUninitializedCapacity", #"\bunsafeUninitializedCapacity\b"#),
        ("assumingMemoryBound", #"\bassumingMemoryBound\b"#),
        ("bindMemory", #"\bbindMemory\b"#),
        ("withMemoryRebound", #"\bwithMemoryRebound\b"#),
        ("unsafeAddress", #"\bunsafe(?:Mutable)?Address\b"#),
        ("OpaquePointer(", #"\bOpaquePointer\s*\("#),
        ("unsafeTry…", #"\bunsafeTry[A-Za-z]*"#),
    ]

    static var root: URL { OKitRun.root }

    /// The `.swift` files under a folder, sorted by path.
    static func swiftFiles(under folder: URL) -> [URL] {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// A line without its `//` comment (a `//` inside a string literal on the line is kept).
    static func code(_ line: Substring) -> Substring {
        var inString = false
        var escaped = false
        var previous: Character = " "
        for i in line.indices {
            let c = line[i]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "/", previous == "/" {
                return line[..<line.index(before: i)]
            }
            previous = inString ? " " : c
        }
        return line
    }

    /// One use of a construct in the code.
    struct Site: Equatable {
        let path: String   // relative to the root
        let line: Int
        let construct: String
    }

    /// Every use of a construct in the `.swift` files under `sources`, paths relative to `root`.
    static func sites(under sources: URL, root: URL) -> [Site] {
        let patterns = constructs.map { (name: $0.name, regex: try! NSRegularExpression(pattern: $0.pattern)) }
        let any = try! NSRegularExpression(pattern: constructs.map { "(?:\($0.pattern))" }.joined(separator: "|"))
        var out: [Site] = []
        for file in swiftFiles(under: sources) {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            let relative = file.path.replacingOccurrences(of: root.path + "/", with: "")
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                // Most lines have no construct at all: only those that do are cut at their comment and counted.
                let whole = String(line)
                guard any.firstMatch(in: whole, range: NSRange(whole.startIndex..., in: whole)) != nil else { continue }
                let s = String(code(line))
                for p in patterns {
                    for _ in p.regex.matches(in: s, range: NSRange(s.startIndex..., in: s)) {
                        out.append(Site(path: relative, line: n + 1, construct: p.name))
                    }
                }
            }
        }
        return out
    }

    /// A row of the inventory: a file, its constructs with their counts, the tests named as its guards.
    struct Row {
        let docLine: Int
        let path: String
        var name: String { (path as NSString).lastPathComponent }
        let counts: [String: Int]
        let unknown: [String]
        let tests: [String]
        /// The guard cell says there is no test ("none …").
        let untested: Bool
    }

    /// The cells of a Markdown table row.
    static func cells(_ line: Substring) -> [String] {
        var parts = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.first == "" { parts.removeFirst() }
        if parts.last == "" { parts.removeLast() }
        return parts
    }

    /// The backticked texts of a cell.
    static func quoted(_ cell: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: "`([^`]+)`")
        return regex.matches(in: cell, range: NSRange(cell.startIndex..., in: cell)).compactMap {
            Range($0.range(at: 1), in: cell).map { String(cell[$0]) }
        }
    }

    /// The rows of the inventory's tables: every table whose first two columns are `file` and `constructs`.
    static func rows(of doc: String) -> [Row] {
        let known = Set(constructs.map(\.name))
        let counted = try! NSRegularExpression(pattern: "`([^`]+)`\\s*×\\s*([0-9]+)")
        var out: [Row] = []
        var guardColumn: Int?
        for (n, line) in doc.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard line.hasPrefix("|") else { guardColumn = nil; continue }
            let c = cells(line)
            if c.count >= 2, c[0] == "file", c[1] == "constructs" {
                guardColumn = c.firstIndex(of: "guarded by")
                continue
            }
            guard let g = guardColumn, c.count > g, let path = quoted(c[0]).first else { continue }
            var counts: [String: Int] = [:]
            var unknown: [String] = []
            for m in counted.matches(in: c[1], range: NSRange(c[1].startIndex..., in: c[1])) {
                guard let r1 = Range(m.range(at: 1), in: c[1]), let r2 = Range(m.range(at: 2), in: c[1]) else { continue }
                let name = String(c[1][r1])
                if known.contains(name) { counts[name, default: 0] += Int(c[1][r2]) ?? 0 } else { unknown.append(name) }
            }
            let tests = quoted(c[g]).filter { $0.range(of: #"^[A-Z][A-Za-z0-9]*\.[a-z][A-Za-z0-9]*$"#, options: .regularExpression) != nil }
            out.append(Row(docLine: n + 1, path: path, counts: counts, unknown: unknown, tests: tests,
                           untested: c[g].lowercased().hasPrefix("none")))
        }
        return out
    }

    /// Whether `Suite.test` names a test function under `tests`: a file there declares the suite (or extends it)
    /// and a function of that name.
    static func testExists(_ reference: String, in files: [(text: String, path: String)]) -> Bool {
        let parts = reference.split(separator: ".")
        guard parts.count == 2 else { return false }
        let suite = try! NSRegularExpression(pattern: #"\b(?:struct|class|enum|extension)\s+"# + String(parts[0]) + #"\b"#)
        let function = try! NSRegularExpression(pattern: #"\bfunc\s+"# + String(parts[1]) + #"\s*\("#)
        return files.contains { f in
            let range = NSRange(f.text.startIndex..., in: f.text)
            return suite.firstMatch(in: f.text, range: range) != nil && function.firstMatch(in: f.text, range: range) != nil
        }
    }

    /// What is wrong between the code under `sources`, the inventory `doc` and the tests under `tests`, one
    /// message per problem (empty when the inventory is true).
    static func problems(sources: URL, tests: URL, doc: String, docName: String, root: URL) -> [String] {
        var out: [String] = []
        let files = swiftFiles(under: sources).map { $0.path.replacingOccurrences(of: root.path + "/", with: "") }
        var pathsByName: [String: [String]] = [:]
        for f in files { pathsByName[(f as NSString).lastPathComponent, default: []].append(f) }
        for (name, paths) in pathsByName.sorted(by: { $0.key < $1.key }) where paths.count > 1 {
            out.append("\(name) is the name of \(paths.count) files (\(paths.joined(separator: ", "))): \(docName) matches files by name, so names under Sources/ must be unique")
        }

        let rows = Self.rows(of: doc)
        var rowByName: [String: Row] = [:]
        for row in rows {
            if let first = rowByName[row.name] {
                out.append("\(docName):\(row.docLine): \(row.name) has a second row (the first at line \(first.docLine)): one row per file")
                continue
            }
            rowByName[row.name] = row
            if pathsByName[row.name] == nil {
                out.append("\(docName):\(row.docLine): `\(row.path)` is not a file under Sources/ (remove its row, or fix its name)")
            }
            for u in row.unknown {
                out.append("\(docName):\(row.docLine): `\(u)` is not one of the constructs the inventory counts")
            }
        }

        let sites = Self.sites(under: sources, root: root)
        var found: [String: [String: [Site]]] = [:]
        for s in sites { found[(s.path as NSString).lastPathComponent, default: [:]][s.construct, default: []].append(s) }
        for name in Set(found.keys).union(rowByName.keys).sorted() {
            let have = found[name] ?? [:]
            let listed = rowByName[name]?.counts ?? [:]
            for construct in constructs.map(\.name) {
                let here = have[construct] ?? []
                let count = listed[construct] ?? 0
                if here.count == count { continue }
                if count == 0 {
                    for s in here {
                        out.append("\(s.path):\(s.line): \(s.construct) — not listed for this file in \(docName) (add it to the file's row, with the invariant that makes it safe and the test that guards it)")
                    }
                } else if here.isEmpty {
                    let row = rowByName[name]!
                    out.append("\(docName):\(row.docLine): lists `\(construct)` ×\(count) for \(name), which has none (take it out of the row)")
                } else {
                    let row = rowByName[name]!
                    let places = here.map { "\($0.path):\($0.line)" }.joined(separator: ", ")
                    out.append("\(docName):\(row.docLine): lists `\(construct)` ×\(count) for \(name), which has \(here.count): \(places)")
                }
            }
        }

        let testFiles = swiftFiles(under: tests).compactMap { url -> (text: String, path: String)? in
            (try? String(contentsOf: url, encoding: .utf8)).map { ($0, url.path) }
        }
        for row in rows {
            if row.tests.isEmpty, !row.untested {
                out.append("\(docName):\(row.docLine): the row of \(row.name) names no guarding test (`Suite.test`, or \"none\" and why)")
            }
            for t in row.tests where !testExists(t, in: testFiles) {
                out.append("\(docName):\(row.docLine): `\(t)` is not a test under Tests/")
            }
        }
        return out
    }

    /// The construct names of the inventory's "What counts" table (its first column, under `construct`).
    static func countedConstructs(in doc: String) -> [String] {
        var inTable = false
        var out: [String] = []
        for line in doc.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else { inTable = false; continue }
            let c = cells(line)
            if c.first == "construct" { inTable = true; continue }
            if inTable, let first = c.first, let name = quoted(first).first { out.append(name) }
        }
        return out
    }

    static func inventory() throws -> String {
        try String(contentsOf: root.appendingPathComponent("docs/unsafe.md"), encoding: .utf8)
    }

    @Test func everyUnsafeConstructInSourcesIsListed() throws {
        let found = Self.problems(sources: Self.root.appendingPathComponent("Sources"),
                                  tests: Self.root.appendingPathComponent("Tests"),
                                  doc: try Self.inventory(), docName: "docs/unsafe.md", root: Self.root)
        #expect(found.isEmpty, "docs/unsafe.md and the code disagree:\n\(found.joined(separator: "\n"))")
        #expect(Self.sites(under: Self.root.appendingPathComponent("Sources"), root: Self.root).count > 100,
                "the unsafe constructs of Sources/ were not found")
    }

    @Test func theInventoryCountsTheConstructsThisTestLooksFor() throws {
        #expect(Self.countedConstructs(in: try Self.inventory()) == Self.constructs.map(\.name),
                "docs/unsafe.md's \"What counts\" table lists other constructs than UnsafeInventoryTests.constructs")
    }

    @Test func fileNamesUnderSourcesAreUnique() {
        var seen: [String: String] = [:]
        for file in Self.swiftFiles(under: Self.root.appendingPathComponent("Sources")) {
            let name = file.lastPathComponent
            #expect(seen[name] == nil, "\(name) is at \(seen[name] ?? "") and \(file.path): rename one (docs/unsafe.md matches files by name)")
            seen[name] = file.path
        }
        #expect(seen.count > 100)
    }

    @Test func aMissingRowAStaleRowAndAWrongCountAreFound() throws {
        let folder = try TempFolder()
        try folder.put("Sources/A/Listed.swift", """
            /// An `Unmanaged` in a comment does not count, nor "UnsafeRawPointer" in a string.
            let p: UnsafeRawPointer? = nil // UnsafeRawPointer
            let s = "// not a comment"; let q: UnsafeMutablePointer<Int>? = nil
            """)
        try folder.put("Sources/B/Unlisted.swift", "final class C: @unchecked Sendable {}\n")
        try folder.put("Sources/B/Moved.swift", "let u = Unmanaged<AnyObject>.self\n")
        try folder.put("Sources/B/Clean.swift", "let x = 1\n")
        try folder.put("Tests/SomeTests.swift", "@Suite struct SomeTests {\n    @Test func guardsIt() {}\n}\n")
        let doc = """
            | file | constructs | invariant | guarded by |
            |---|---|---|---|
            | `Sources/A/Listed.swift` | `Unsafe…Pointer` ×1 | … | `SomeTests.guardsIt` |
            | `Sources/Old/Moved.swift` | `Unmanaged` ×1 | … | `SomeTests.guardsIt` |
            | `Sources/B/Clean.swift` | `withUnsafe…` ×2 | … | `SomeTests.noSuchTest` |
            | `Sources/B/Gone.swift` | `Unmanaged` ×1, `unsafeThing` ×1 | … | none: only run by hand |
            """
        let found = Self.problems(sources: folder.url.appendingPathComponent("Sources"),
                                  tests: folder.url.appendingPathComponent("Tests"), doc: doc, docName: "unsafe.md",
                                  root: folder.url)
        #expect(found == [
            "unsafe.md:6: `Sources/B/Gone.swift` is not a file under Sources/ (remove its row, or fix its name)",
            "unsafe.md:6: `unsafeThing` is not one of the constructs the inventory counts",
            "unsafe.md:5: lists `withUnsafe…` ×2 for Clean.swift, which has none (take it out of the row)",
            "unsafe.md:6: lists `Unmanaged` ×1 for Gone.swift, which has none (take it out of the row)",
            "unsafe.md:3: lists `Unsafe…Pointer` ×1 for Listed.swift, which has 2: Sources/A/Listed.swift:2, Sources/A/Listed.swift:3",
            "Sources/B/Unlisted.swift:1: @unchecked Sendable — not listed for this file in unsafe.md (add it to the file's row, with the invariant that makes it safe and the test that guards it)",
            "unsafe.md:5: `SomeTests.noSuchTest` is not a test under Tests/",
        ], "\(found.joined(separator: "\n"))")
    }

    @Test func twoFilesOfOneNameAreFound() throws {
        let folder = try TempFolder()
        try folder.put("Sources/A/Same.swift", "let a = 1\n")
        try folder.put("Sources/B/Same.swift", "let b = 2\n")
        let found = Self.problems(sources: folder.url.appendingPathComponent("Sources"),
                                  tests: folder.url.appendingPathComponent("Tests"), doc: "", docName: "unsafe.md",
                                  root: folder.url)
        #expect(found == ["Same.swift is the name of 2 files (Sources/A/Same.swift, Sources/B/Same.swift): unsafe.md matches files by name, so names under Sources/ must be unique"])
    }
}
