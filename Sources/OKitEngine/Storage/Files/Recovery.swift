import Foundation

extension FileStorage {
    /// Moves a model's files aside so the model can start fresh; nothing is deleted. A JSON model's file becomes
    /// `<name>.json.corrupt-<UTC timestamp>`, its journal and an exit patch's intent (`<name>.patch`) likewise
    /// `<name>.journal.corrupt-…` and `<name>.patch.corrupt-…`; a model's file in another form (`forms`: a sqlite
    /// model's database) becomes `<name>.<ext>.corrupt-<UTC timestamp>` with its side files (`-wal`, `-shm`) beside
    /// it under the same new name (so the moved database still opens with them). Returns the new paths. Takes the folder's lock while it works (and
    /// releases it, so the app can start next: `okit-run --recover`): a folder in use by another process is left
    /// alone.
    @discardableResult
    public static func recover(dataFolder: URL, model name: String, now: Date = Date(), forms: [DataFolderForm] = []) throws -> [String] {
        let layout = DataFolder(dataFolder)
        // Each group moves under one new name: its first path, and the others as that name plus their suffix.
        // An exit patch's intent (`<name>.patch`, left by a crash while quitting) goes with the file it was made for.
        var groups: [(String, [String])] = [(try layout.modelFile(name), []), (try layout.journal(name), []),
                                            (try layout.modelFile(name, extension: "patch"), [])]
        for form in forms { groups.append((try form.file(of: name, in: layout), form.sideSuffixes)) }
        let fm = FileManager.default
        guard groups.contains(where: { g in ([""] + g.1).contains { fm.fileExists(atPath: g.0 + $0) } }) else { return [] }
        let lock = try DataFolderLock(layout)
        defer { lock.release() }
        var stamp = ISODate.format(now, fractional: false)
        stamp.removeAll { $0 == "-" || $0 == ":" }
        var moved: [String] = []
        for (from, suffixes) in groups {
            let present = ([""] + suffixes).filter { fm.fileExists(atPath: from + $0) }
            guard !present.isEmpty else { continue }
            var n = 1
            // A free new name for every file of the group.
            while ([""] + suffixes).contains(where: { fm.fileExists(atPath: aside(from, stamp, n) + $0) }) { n += 1 }
            let to = aside(from, stamp, n)
            // The database first: a -wal left behind alone is harmless, one moved without its database is not.
            for suffix in present { moved.append(try moveAside(from + suffix, to + suffix)) }
        }
        if !moved.isEmpty { try AtomicFile.syncFolder(layout.models) }
        return moved
    }

    private static func aside(_ from: String, _ stamp: String, _ n: Int) -> String {
        from + ".corrupt-" + stamp + (n == 1 ? "" : "-\(n)")
    }

    /// Moves `from` to `to`. link + unlink never replaces an existing copy (link fails when the name exists); where
    /// hard links are not supported, rename after checking the name is free.
    private static func moveAside(_ from: String, _ to: String) throws -> String {
        if link(from, to) == 0 {
            if unlink(from) != 0 { throw AtomicFile.error(from, "cannot move aside") }
        } else if errno == EEXIST || FileManager.default.fileExists(atPath: to) {
            throw StorageError(kind: .io, path: from, message: "cannot move aside to \(to): the name is taken")
        } else if rename(from, to) != 0 {
            throw AtomicFile.error(from, "cannot move aside")
        }
        return to
    }
}
