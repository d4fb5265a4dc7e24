import Foundation

extension FileStorage {
    /// Moves a model's file (and its journal) aside to `<name>.json.corrupt-<UTC timestamp>` so the model can
    /// start fresh; nothing is deleted. Returns the new paths. Works without taking the folder's lock, so it can
    /// run before an app starts (`okit-run --recover`).
    @discardableResult
    public static func recover(dataFolder: URL, model name: String, now: Date = Date()) throws -> [String] {
        let layout = DataFolder(dataFolder)
        let files = [try layout.modelFile(name), try layout.journal(name)]
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
