import Foundation
import Testing
import OKitTestSupport

/// The engine core (schema, values, models, storage, bindings, reactivity) does not know screens: no source file
/// of a core folder names a type declared under `Sources/OKitEngine/Screens/`. Screens build on the core, never
/// the other way round. Inside Screens/, the shell (`Shell/`) knows screens only through `ShellScreen` and
/// `ScreenDeclaration`, not the kinds in the other folders.
@Suite struct LayerTests {
    /// The core folders of `Sources/OKitEngine`.
    static let coreFolders = ["Schema", "Values", "Codec", "Model", "Storage", "Binding", "Extensions", "Localization",
                              "Reactivity", "App"]

    /// Core files that still name screen types, relative to `Sources/OKitEngine`.
    static let allowed: Set<String> = []

    static var engineSources: URL { OKitRun.root.appendingPathComponent("Sources/OKitEngine") }

    /// The `.swift` files under a folder, sorted by path.
    static func swiftFiles(under folder: URL) -> [URL] {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// A line without its `//` comment.
    static func code(_ line: Substring) -> Substring {
        guard let slashes = line.range(of: "//") else { return line }
        return line[..<slashes.lowerBound]
    }

    /// The names of the types declared at the top level of the files under `folder`
    /// (`class|struct|enum|protocol|typealias|actor NAME`, after any modifiers).
    static func declaredTypes(under folder: URL) -> Set<String> {
        let declaration = try! NSRegularExpression(
            pattern: #"^(?:(?:public|internal|package|fileprivate|private|final|indirect)\s+)*(?:class|struct|enum|protocol|typealias|actor)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
        var names: Set<String> = []
        for file in swiftFiles(under: folder) {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let s = String(line)
                guard let m = declaration.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)),
                      let r = Range(m.range(at: 1), in: s) else { continue }
                names.insert(String(s[r]))
            }
        }
        return names
    }

    /// `file:line: Name` for each mention of one of `types` in the code (not the comments) of the files under
    /// `folders` of `base`, except the `allowed` files (paths relative to `base`).
    static func mentions(of types: Set<String>, in folders: [String], base: URL, allowed: Set<String>) -> [String] {
        let identifier = try! NSRegularExpression(pattern: #"[A-Za-z_][A-Za-z0-9_]*"#)
        var out: [String] = []
        for folder in folders {
            for file in swiftFiles(under: base.appendingPathComponent(folder)) {
                let relative = file.path.replacingOccurrences(of: base.path + "/", with: "")
                guard !allowed.contains(relative), let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let s = String(code(line))
                    for m in identifier.matches(in: s, range: NSRange(s.startIndex..., in: s)) {
                        guard let r = Range(m.range, in: s), types.contains(String(s[r])) else { continue }
                        out.append("\(relative):\(n + 1): \(s[r])")
                    }
                }
            }
        }
        return out
    }

    @Test func theCoreNamesNoScreenType() {
        let types = Self.declaredTypes(under: Self.engineSources.appendingPathComponent("Screens"))
        #expect(types.contains("AppShell") && types.contains("ShellError") && types.contains("ListScreen"),
                "the screen types were not found under Sources/OKitEngine/Screens")
        for folder in Self.coreFolders {
            var isFolder: ObjCBool = false
            let path = Self.engineSources.appendingPathComponent(folder).path
            #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue,
                    "core folder \(folder) is not in Sources/OKitEngine (update LayerTests.coreFolders)")
        }
        let found = Self.mentions(of: types, in: Self.coreFolders, base: Self.engineSources, allowed: Self.allowed)
        #expect(found.isEmpty, "the engine core names screen types (move the code into Screens/):\n\(found.joined(separator: "\n"))")
    }

    /// The session is the top layer of the engine: neither the core nor the screens name its types
    /// (`AppSession`, `Driver`, `SessionRecorder`, `ScreenWatch`, `ShellLocation`, …).
    @Test func nothingBelowTheSessionNamesIt() {
        let types = Self.declaredTypes(under: Self.engineSources.appendingPathComponent("Session"))
        #expect(types.contains("AppSession") && types.contains("Driver"), "the session types were not found under Sources/OKitEngine/Session")
        let found = Self.mentions(of: types, in: Self.coreFolders + ["Screens"], base: Self.engineSources, allowed: [])
        #expect(found.isEmpty, "the core or the screens name session types (move the code into Session/):\n\(found.joined(separator: "\n"))")
    }

    /// What the shell may name of one kind: `file: Type`, relative to `Sources/OKitEngine/Screens`.
    static let shellMayName: Set<String> = [
        // The app host hands the backups screens their service through the shell.
        "Shell/AppShell.swift: BackupService",
    ]

    /// The shell does not know which screen kinds exist: no file of `Screens/Shell/` names a type declared in a
    /// kind's folder (every folder of Screens/ but Shell/ and Check/).
    @Test func theShellNamesNoScreenKind() throws {
        let screens = Self.engineSources.appendingPathComponent("Screens")
        let kinds = try FileManager.default.contentsOfDirectory(atPath: screens.path)
            .filter { !["Shell", "Check"].contains($0) && !$0.hasPrefix(".") }.sorted()
        #expect(kinds.contains("List") && kinds.contains("Detail"), "the kinds' folders were not found: \(kinds)")
        let types = kinds.reduce(into: Set<String>()) { $0.formUnion(Self.declaredTypes(under: screens.appendingPathComponent($1))) }
        let found = Self.mentions(of: types, in: ["Shell"], base: screens, allowed: []).filter { mention in
            !Self.shellMayName.contains { allowed in
                let parts = allowed.components(separatedBy: ": ")
                return mention.hasPrefix(parts[0] + ":") && mention.hasSuffix(": " + parts[1])
            }
        }
        #expect(found.isEmpty, "the shell names a screen kind's types (give the kind a ShellScreen requirement instead):\n\(found.joined(separator: "\n"))")
    }

    @Test func aCoreFileNamingAScreenTypeIsFound() throws {
        let folder = try TempFolder()
        try folder.put("Screens/Shell/Shell.swift", "public final class Shell {}\nstruct Row {\n    struct Nested {}\n}\n")
        try folder.put("Model/A.swift", "/// Shell is named in a comment only.\nlet a = 1 // Shell\nlet b: Shell? = nil\nlet c = Nested()\n")
        try folder.put("App/Allowed.swift", "let d: Shell? = nil\n")
        let types = Self.declaredTypes(under: folder.url.appendingPathComponent("Screens"))
        #expect(types == ["Shell", "Row"])
        #expect(Self.mentions(of: types, in: ["Model", "App"], base: folder.url, allowed: ["App/Allowed.swift"])
                == ["Model/A.swift:3: Shell"])
    }
}
