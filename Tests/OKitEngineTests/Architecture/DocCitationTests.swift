import Foundation
import Testing
import OKitTestSupport

/// Every `*.md` a comment in Sources/ cites is a file of this repository (in docs/ or at its root), so a reader
/// who follows a citation finds the page.
@Suite struct DocCitationTests {
    /// `file:line: name` for each cited page that is not a file of the repository.
    static func missingCitations(under folder: URL, root: URL) -> [String] {
        let fm = FileManager.default
        let citation = try! NSRegularExpression(pattern: #"[A-Za-z0-9_./-]+\.md\b"#)
        var missing: [String] = []
        let files = fm.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files.filter({ $0.pathExtension == "swift" }).sorted(by: { $0.path < $1.path }) {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let slashes = line.range(of: "//") else { continue }
                let comment = String(line[slashes.upperBound...])
                let range = NSRange(comment.startIndex..., in: comment)
                for m in citation.matches(in: comment, range: range) {
                    var name = (comment as NSString).substring(with: m.range)
                    if name.hasPrefix("docs/") { name.removeFirst("docs/".count) }
                    let exists = [root.appendingPathComponent("docs/" + name), root.appendingPathComponent(name)]
                        .contains { fm.fileExists(atPath: $0.path) }
                    if !exists { missing.append("\(file.path.replacingOccurrences(of: root.path + "/", with: "")):\(n + 1): \(name)") }
                }
            }
        }
        return missing
    }

    @Test func everyPageACommentInSourcesCitesExists() {
        let missing = Self.missingCitations(under: OKitRun.root.appendingPathComponent("Sources"), root: OKitRun.root)
        #expect(missing.isEmpty, "cited pages that are not files of the repository:\n\(missing.joined(separator: "\n"))")
    }

    @Test func aCitationOfAMissingPageIsFound() throws {
        let folder = try TempFolder()
        try folder.put("Sources/A.swift", "/// See bindings.md and quality.md.\nlet a = 1 // spec/testing.md\n")
        try folder.put("docs/bindings.md", "# Bindings\n")
        #expect(Self.missingCitations(under: folder.url.appendingPathComponent("Sources"), root: folder.url)
                == ["Sources/A.swift:1: quality.md", "Sources/A.swift:2: spec/testing.md"])
    }
}
