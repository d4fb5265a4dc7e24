import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// A large model file is read from a mapping whose pages the load gives back as it goes (issue 38: the peak
/// memory of a session was the model plus the whole file): given back, the bytes are still the file's, and a
/// model many times larger than a release step loads whole.
@Suite struct MappedLoadReleaseTests {
    @Test func pagesGivenBackReadTheSameBytesAgain() throws {
        let folder = try TempFolder()
        let size = AtomicFile.mappedSize * 3 + 17
        let text = String((0..<size).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
        let url = try folder.put("big.json", text)
        let mapped = try #require(try AtomicFile.read(url.path, mapLarge: true))
        #expect(mapped.isMapped)
        for before in [0, 1, 4095, 4096, AtomicFile.mappedSize + 5, size, size + 4096] {
            mapped.releasePages(before: before)
            #expect(mapped.bytes == Array(text.utf8), "after giving back the pages before \(before)")
        }
    }

    @Test func aModelLargerThanManyReleaseStepsLoadsWhole() throws {
        let folder = try TempFolder()
        let count = 60_000
        do {
            let f = try ShopFixture()
            try f.start(storage: try FileStorage(dataFolder: folder.url), books: (0..<count).map { "Book number \($0) of a long shelf" })
            #expect(try f.engine.store(f.shop) != .unchanged)
        }
        let file = folder.url.appendingPathComponent("okit/data/default.json")
        let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        #expect(size > 2 * JSONReader.releaseStep, "the file spans several release steps (\(size) bytes)")
        let g = try ShopFixture()
        try g.start(storage: try FileStorage(dataFolder: folder.url), books: [])
        let books = try g.engine.collection(g.root, "books").items
        #expect(books.count == count)
        #expect(books.last?.entity?["name"]?.description == "Book number \(count - 1) of a long shelf")
        #expect(books[count / 2].entity?["name"]?.description == "Book number \(count / 2) of a long shelf")
    }
}
