import Foundation
import Testing
import OKitTestSupport

/// A large model read by okit-run on its main thread, where the heap's next pages are made ready on the other
/// core while it reads (HeapPrefault): what is loaded is exactly what the file holds.
@Suite struct LargeModelLoadTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Author", { name = "string" })
    okit.entity("Book", { name = "string", price = "double", authors = "[Author]" })
    okit.entity("Shop", { books = "[Book]" })
    okit.state { okit.model("Shop") }
    """

    /// A shop of `count` books (about 200 bytes each), as JSON text.
    static func shop(_ count: Int) -> String {
        var books: [String] = []
        books.reserveCapacity(count)
        for i in 0..<count {
            let id = String(format: "B%07d-0000-4000-8000-000000000000", i)
            books.append(#"{"id":"\#(id)","name":"Book \#(i) Ünïcode ✓","price":\#(Double(i) / 4),"authors":[{"id":"A\#(id)","name":"Author \#(i % 97)"}]}"#)
        }
        return #"{"books":["# + books.joined(separator: ",") + "]}"
    }

    @Test func everyValueOfAModelLargerThanThePrefaultsThresholdIsLoaded() throws {
        try #require(OKitRun.isBuilt)
        let folder = try TempFolder()
        let app = folder.url.appendingPathComponent("app.lua")
        try LargeModelLoadTests.app.write(to: app, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.modelsFolder, withIntermediateDirectories: true)
        let text = LargeModelLoadTests.shop(40_000)
        #expect(text.utf8.count > 6 << 20, "larger than HeapPrefault.minimumBytes")
        try text.write(to: folder.modelsFolder.appendingPathComponent("default.json"), atomically: true, encoding: .utf8)
        let result = try OKitRun.run([app.path, "--data", folder.path], in: folder, timeout: 120)
        #expect(result.code == 0, "\(result.err)")
        let line = try #require(result.out.split(separator: "\n").first { $0.hasPrefix(#"{"model":"default""#) })
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let data = try #require(printed["data"] as? [String: Any])
        let books = try #require(data["books"] as? [[String: Any]])
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let expectedBooks = try #require(expected["books"] as? [[String: Any]])
        #expect(books.count == expectedBooks.count)
        for (got, want) in zip(books, expectedBooks) where got["id"] as? String != want["id"] as? String
            || got["name"] as? String != want["name"] as? String || got["price"] as? Double != want["price"] as? Double
            || (got["authors"] as? [[String: Any]])?.first?["name"] as? String != (want["authors"] as? [[String: Any]])?.first?["name"] as? String {
            Issue.record("book \(want["id"] ?? "?") differs: \(got)")
            break
        }
    }
}
