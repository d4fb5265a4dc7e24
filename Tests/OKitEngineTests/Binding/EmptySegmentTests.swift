import Foundation
import Testing
@testable import OKitEngine

/// A porter's finding: `books//name` was refused ("empty segments are not allowed"), though OKit keeps an empty
/// middle segment and reads it as `.`, and drops an empty one at the end (okit-behaviour §1.2–1.3).
@Suite struct EmptySegmentTests {
    @Test func anEmptyMiddleSegmentIsDotAndAnEmptyLastOneIsDropped() throws {
        let f = try ShopFixture()
        try f.start()
        func text(_ b: String) throws -> String? { try f.engine.get(f.root, b).displayString }
        #expect(try text("books//name") == text("books/./name"))
        #expect(try text("books//name") == "Dune, Emma, Anna")
        #expect(try text("books[0]//name") == "Dune")
        #expect(try text("/books//name") == "Dune, Emma, Anna")
        #expect(try text("books[0]/") == "Dune" || text("books[0]/") == text("books[0]"))
        #expect(try text("books[0]/name/") == "Dune")
        #expect(try text("={books[0]/name/}") == "Dune")
    }

    @Test func theParserKeepsTheEmptySegmentAsDot() throws {
        let b = try BindingParser.parse("a//b")
        guard case .path(let p) = b.parts[0] else { Issue.record("not a path"); return }
        #expect(p.segments.count == 3)
        if case .current = p.segments[1] {} else { Issue.record("the middle segment is not `.`") }
        let trailing = try BindingParser.parse("a/")
        guard case .path(let q) = trailing.parts[0] else { Issue.record("not a path"); return }
        #expect(q.segments.count == 1)
    }
}
