import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// storage.md "A link to a regular file is followed": a model file kept elsewhere through a symbolic link (a
/// synced folder, another disk) is written through the link — the temporary in the target's folder, renamed over
/// the target — so the link stays and the file it leads to is the current one.
@Suite struct FileStorageLinkTests {
    /// Moves `<data>/okit/data/<name>` to `<folder>/elsewhere/<name>` and puts a relative link in its place.
    func linkAway(_ folder: TempFolder, _ name: String) throws -> (link: String, target: String) {
        let elsewhere = folder.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let target = elsewhere.appendingPathComponent(name).path
        try FileManager.default.moveItem(atPath: folder.file(name).path, toPath: target)
        try FileManager.default.createSymbolicLink(atPath: folder.file(name).path, withDestinationPath: "../../elsewhere/" + name)
        return ("../../elsewhere/" + name, target)
    }

    func names(_ dir: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    @Test func storesWriteThroughALinkAndKeepIt() throws {
        let folder = try TempFolder()
        do {
            let (f, s) = try FileStorageTests().open(folder)
            try f.start(storage: s, books: (0..<200).map { "Book \($0)" })
            try f.engine.store(f.shop)
        }
        let (link, target) = try linkAway(folder, "default.json")
        do {
            let (g, s) = try FileStorageTests().open(folder)
            try g.start(storage: s, books: [])
            try g.engine.set(g.book(7), "name", .string("Seven"))
            guard case .journal = try g.engine.store(g.shop) else { Issue.record("expected a journal write"); return }
            // A full write (a change of membership at the root) goes to the link's target.
            try g.engine.remove(at: 0, from: g.engine.collection(g.root, "books"))
            guard case .full = try g.engine.store(g.shop) else { Issue.record("expected a full write"); return }
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("default.json").path) == link, "the link stays")
        let text = try String(contentsOfFile: target, encoding: .utf8)
        #expect(text.contains("Seven") && !text.contains("\"Book 0\""))
        #expect(names(folder.modelsFolder.path) == ["default.json"], "no temporary, no regular file beside the link")
        #expect(names((target as NSString).deletingLastPathComponent) == ["default.json"], "the temporary was renamed over the target")
        // And it loads back through the link.
        let (h, s) = try FileStorageTests().open(folder)
        try h.start(storage: s, books: [])
        #expect(h.book(6)["name"]!.description == "Seven")
    }

    @Test func aJournalThatIsALinkIsWrittenThroughItToo() throws {
        let folder = try TempFolder()
        let (f, s) = try FileStorageTests().open(folder)
        try f.start(storage: s, books: (0..<200).map { "Book \($0)" })
        try f.engine.store(f.shop)
        try f.engine.set(f.book(1), "name", .string("One"))
        guard case .journal = try f.engine.store(f.shop) else { Issue.record("expected a journal write"); return }
        let (link, target) = try linkAway(folder, "default.journal")
        try f.engine.set(f.book(2), "name", .string("Two"))
        guard case .journal = try f.engine.store(f.shop) else { Issue.record("expected a journal write"); return }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("default.journal").path) == link)
        let journal = try String(contentsOfFile: target, encoding: .utf8)
        #expect(journal.contains("One") && journal.contains("Two"))
    }

    @Test func theWriteTargetOfALinkIsTheRegularFileItLeadsTo() throws {
        let folder = try TempFolder()
        try folder.write("real.json", "{}")
        let real = folder.file("real.json").path
        #expect(FileStorage.writeTarget(real) == real)
        _ = symlink("real.json", folder.file("a.json").path)
        _ = symlink("a.json", folder.file("b.json").path)   // a link to a link
        let resolved = try #require(realpath(real, nil).map { p in defer { free(p) }; return String(cString: p) })
        #expect(FileStorage.writeTarget(folder.file("a.json").path) == resolved)
        #expect(FileStorage.writeTarget(folder.file("b.json").path) == resolved)
        // A link to nothing or to a folder is left as it is (a load refuses it first).
        _ = symlink("nothing.json", folder.file("c.json").path)
        _ = symlink("/tmp", folder.file("d.json").path)
        #expect(FileStorage.writeTarget(folder.file("c.json").path) == folder.file("c.json").path)
        #expect(FileStorage.writeTarget(folder.file("d.json").path) == folder.file("d.json").path)
    }
}
