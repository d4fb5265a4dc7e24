import Foundation

extension FileStorage {
    /// Moves a model's file (and its journal) aside to `<name>.json.corrupt-<UTC timestamp>` so the model can
    /// start fresh; nothing is deleted. Returns the new paths. Takes the folder's lock while it works (and releases
    /// it, so the app can start next: `okit-run --recover`): a folder in use by another process is left alone.
    @discardableResult
    public static func recover(dataFolder: URL, model name: String, now: Date = Date()) throws -> [String] {
        let layout = DataFolder(dataFolder)
        let files = [try layout.modelFile(name), try layout.journal(name)]
        guard files.contains(where: { FileManager.default.fileExists(atPath: $0) }) else { return [] }
        let lock = try DataFolderLock(layout)
        defer { lock.release() }
        var stamp = ISODate.format(now, fractional: false)
        stamp.removeAll { $0 == "-" || $0 == ":" }
        var moved: [String] = []
        for from in files {
            guard FileManager.default.fileExists(atPath: from) else { continue }
            var n = 1
            while true {
                let to = from + ".corrupt-" + stamp + (n == 1 ? "" : "-\(n)")
                // link + unlink never replaces an existing copy (link fails when the name exists); where hard
                // links are not supported, rename after checking the name is free.
                if link(from, to) == 0 {
                    if unlink(from) != 0 { throw AtomicFile.error(from, "cannot move aside") }
                } else if errno == EEXIST || FileManager.default.fileExists(atPath: to) {
                    n += 1
                    continue
                } else if rename(from, to) != 0 {
                    throw AtomicFile.error(from, "cannot move aside")
                }
                moved.append(to)
                break
            }
        }
        if !moved.isEmpty { try AtomicFile.syncFolder(layout.models) }
        return moved
    }
}
