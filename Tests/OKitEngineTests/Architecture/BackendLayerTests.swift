import Foundation
import Testing
import OKitTestSupport

/// The engine and the storage backends (docs/engine.md "Layers"): `OKitEngine` depends on no database or network
/// package — the `sqlite` and `postgres` kinds are targets of their own (`OKitSQLite` on GRDB, `OKitPostgres` on
/// postgres-nio) — and neither the engine nor a backend reads the environment or says a front end's words (okit-run's
/// commands, its `OKIT_…` variables): those come in `SessionOptions` and are worded by the front end.
@Suite struct BackendLayerTests {
    /// Packages (and their products) the engine must not depend on.
    static let forbidden = ["GRDB", "GRDBSQLite", "PostgresNIO", "postgres-nio", "NIO", "NIOCore", "NIOPosix", "NIOSSL",
                            "NIOEmbedded", "swift-nio", "swift-nio-ssl", "Logging", "swift-log", "Hummingbird"]
    /// The targets that must read no environment variable and say no okit-run words.
    static let quietTargets = ["OKitEngine", "OKitSQLite", "OKitPostgres"]

    static var root: URL { OKitRun.root }

    /// The dependencies listed in `Package.swift` for target `name` (the text between its `dependencies: [` and the
    /// matching `]`), as the quoted names in it.
    static func dependencies(ofTarget name: String, manifest: String) -> [String]? {
        guard let start = manifest.range(of: ".target(name: \"\(name)\""),
              let list = manifest.range(of: "dependencies: [", range: start.upperBound..<manifest.endIndex) else { return nil }
        var depth = 1, i = list.upperBound
        while i < manifest.endIndex, depth > 0 {
            if manifest[i] == "[" { depth += 1 } else if manifest[i] == "]" { depth -= 1 }
            i = manifest.index(after: i)
        }
        let text = manifest[list.upperBound..<manifest.index(before: i)]
        let quoted = try! NSRegularExpression(pattern: #""([^"]+)""#)
        let s = String(text)
        return quoted.matches(in: s, range: NSRange(s.startIndex..., in: s)).compactMap { Range($0.range(at: 1), in: s).map { String(s[$0]) } }
    }

    /// A line's code: without its `//` comment (a `//` inside a string literal is code) and without string
    /// interpolation's nesting taken apart — enough for these checks.
    static func code(_ line: Substring) -> String {
        var out = "", inString = false, previous: Character = " "
        for c in line {
            if c == "\"" && previous != "\\" { inString.toggle() }
            if !inString && c == "/" && previous == "/" { out.removeLast(); break }
            out.append(c)
            previous = c
        }
        return out
    }

    /// `file:line: text` for every line of code (not comments) under `folders` of `base` that holds one of `words`.
    static func lines(holding words: [String], in folders: [String], base: URL) -> [String] {
        var out: [String] = []
        for folder in folders {
            for file in LayerTests.swiftFiles(under: base.appendingPathComponent(folder)) {
                guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                let relative = file.path.replacingOccurrences(of: base.path + "/", with: "")
                for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let c = code(line)
                    if words.contains(where: { c.contains($0) }) { out.append("\(relative):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))") }
                }
            }
        }
        return out
    }

    @Test func theEngineDependsOnNoDatabaseOrNetworkPackage() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let engine = try #require(Self.dependencies(ofTarget: "OKitEngine", manifest: manifest), "no OKitEngine target in Package.swift")
        #expect(engine.contains("Crypto"), "the OKitEngine target's dependencies were not read: \(engine)")
        let bad = engine.filter { Self.forbidden.contains($0) }
        #expect(bad.isEmpty, "OKitEngine depends on \(bad): a database or network package belongs to a backend target (OKitSQLite, OKitPostgres)")
        #expect(Self.dependencies(ofTarget: "OKitSQLite", manifest: manifest)?.contains("GRDB") == true)
        #expect(Self.dependencies(ofTarget: "OKitPostgres", manifest: manifest)?.contains("PostgresNIO") == true)
        let imports = Self.forbidden.map { "import \($0)" }
        let found = Self.lines(holding: imports, in: ["OKitEngine"], base: Self.root.appendingPathComponent("Sources"))
            .filter { line in imports.contains { line.hasSuffix($0) } }
        #expect(found.isEmpty, "the engine imports a backend's package:\n\(found.joined(separator: "\n"))")
    }

    @Test func theEngineAndTheBackendsReadNoEnvironmentAndSayNoCommandLineWords() {
        let sources = Self.root.appendingPathComponent("Sources")
        let words = ["okit-run", "OKIT_", "processInfo.environment", "getenv("]
        let found = Self.lines(holding: words, in: Self.quietTargets, base: sources)
        #expect(found.isEmpty, "below the front end: an environment read or okit-run's words (pass the value in SessionOptions, give the error a Remedy the front end words):\n\(found.joined(separator: "\n"))")
    }

    @Test func theChecksFindWhatTheyLookFor() throws {
        let folder = try TempFolder()
        try folder.put("A/a.swift", """
            /// okit-run and OKIT_X in a doc comment
            let a = 1 // OKIT_X in a comment
            let url = "http://host" // okit-run
            let b = "set OKIT_X"
            let c = "http://x okit-run"
            import GRDB
            """)
        #expect(Self.lines(holding: ["okit-run", "OKIT_"], in: ["A"], base: folder.url) == [
            "A/a.swift:4: let b = \"set OKIT_X\"", "A/a.swift:5: let c = \"http://x okit-run\"",
        ])
        let manifest = """
            .target(name: "X", dependencies: [
                .product(name: "Crypto", package: "swift-crypto"), "Y",
            ]),
            .target(name: "Z", dependencies: ["GRDB"]),
            """
        #expect(Self.dependencies(ofTarget: "X", manifest: manifest) == ["Crypto", "swift-crypto", "Y"])
        #expect(Self.dependencies(ofTarget: "Z", manifest: manifest) == ["GRDB"])
    }
}
