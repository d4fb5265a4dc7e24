import Foundation

extension FileStorage {
    /// Moves a model's file (and its journal) aside to `<name>.json.corrupt-<UTC timestamp>` so the model can
    /// start fresh; nothing is deleted. Returns the new paths. Works without taking the folder's lock, so it can
    /// run before an app starts (`okit-run --recover`).
    @discardableResult
    public static func recover(dataFolder: URL, model name: String, now: Date = Date()) throws -> [String] {
        try Names.validate(name, what: "model name")
        let folder = dataFolder.path + "/okit/data"
        var stamp = ISODate.format(now, fractional: false)
        stamp.removeAll { $0 == "-" || $0 == ":" }
        var moved: [String] = []
        for file in ["\(name).json", "\(name).journal"] {
            let from = folder + "/" + file
            guard FileManager.default.fileExists(atPath: from) else { continue }
            var to = from + ".corrupt-" + stamp
            var n = 2
            while FileManager.default.fileExists(atPath: to) { to = from + ".corrupt-" + stamp + "-\(n)"; n += 1 }
            if rename(from, to) != 0 { throw AtomicFile.error(from, "cannot move aside") }
            moved.append(to)
        }
        if !moved.isEmpty { try AtomicFile.syncFolder(folder) }
        return moved
    }
}
