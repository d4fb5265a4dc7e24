import Foundation
import Testing
import OKitTestSupport

/// docs/engine.md's walkthroughs "Where to put a new screen kind" and "Where to put a new front end" show the code
/// of this test target's counter kind and line front end: each of their Swift blocks names its file on its first
/// line (`// Tests/…`) and is a run of that file's lines, as written (indentation aside).
@Suite struct WalkthroughTests {
    static let sections = ["## Where to put a new screen kind", "## Where to put a new front end"]

    /// The Swift blocks of a section of a Markdown text, each as its lines.
    static func swiftBlocks(_ markdown: String, section: String) -> [[String]] {
        guard let start = markdown.range(of: section + "\n") else { return [] }
        let rest = markdown[start.upperBound...]
        let body = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        var blocks: [[String]] = []
        var current: [String]?
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" { current = [] } else if current != nil, trimmed == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(String(line))
            }
        }
        return blocks
    }

    /// What is wrong with a block: it names no file, or is not a run of the file's lines; nil when it is.
    static func problem(_ block: [String], root: URL) -> String? {
        let lines = block.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = lines.first, first.hasPrefix("// Tests/") || first.hasPrefix("// Sources/") else {
            return "a block names no file on its first line:\n\(block.joined(separator: "\n"))"
        }
        let path = String(first.dropFirst(3))
        guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else { return "no file \(path)" }
        let file = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let shown = Array(lines.dropFirst())
        guard !shown.isEmpty, shown.count <= file.count else { return "an empty or too long block of \(path)" }
        for i in 0...(file.count - shown.count) where Array(file[i..<(i + shown.count)]) == shown { return nil }
        return "this block is not as \(path) has it:\n\(shown.joined(separator: "\n"))"
    }

    @Test(arguments: sections) func theWalkthroughShowsTheCodeAsItIs(section: String) throws {
        let root = OKitRun.root
        let markdown = try String(contentsOf: root.appendingPathComponent("docs/engine.md"), encoding: .utf8)
        let blocks = Self.swiftBlocks(markdown, section: section)
        #expect(blocks.count >= 3, "docs/engine.md has no walkthrough \(section)")
        for block in blocks {
            if let problem = Self.problem(block, root: root) { Issue.record("docs/engine.md \(section): \(problem)") }
        }
    }

    @Test func aBlockThatDriftedIsFound() throws {
        let folder = try TempFolder()
        try folder.put("Tests/A.swift", "struct A {\n    var b = 1\n}\n")
        #expect(Self.problem(["// Tests/A.swift", "struct A {", "  var b = 1"], root: folder.url) == nil)
        #expect(Self.problem(["// Tests/A.swift", "struct A {", "  var b = 2"], root: folder.url)?.hasPrefix("this block is not") == true)
        #expect(Self.problem(["struct A {"], root: folder.url)?.hasPrefix("a block names no file") == true)
    }
}
