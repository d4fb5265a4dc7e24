import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `okit/convert-in-progress`: what a conversion between two forms in the data folder (`okit-run convert`, a JSON
/// file ↔ a SQLite database) is about to do, written before the new form is put in place and removed once the old
/// one is moved aside. A crash in between leaves it, and the next start (`complete`) finishes the conversion when
/// the new form is in place (it was read back and compared before) or undoes it when not: one form of the model is
/// live after a crash at any point, never both.
struct ConversionMarker: Codable, Equatable {
    static let name = "convert-in-progress"
    /// The new form's file, a name in `okit/data` (`default.sqlite`).
    var target: String
    /// Each old file and its name aside (`default.json` → `default.json.converted-…`).
    var aside: [[String]]

    var isValid: Bool {
        Names.isSafe(target) && aside.allSatisfy { $0.count == 2 && $0.allSatisfy(Names.isSafe) }
    }

    /// Writes the marker for a conversion whose new form will be at `target` (a path in `<data>/okit/data`).
    static func begin(target: String, aside: [(String, String)]) throws -> String {
        let models = (target as NSString).deletingLastPathComponent
        let path = (models as NSString).deletingLastPathComponent + "/" + name
        let marker = ConversionMarker(target: (target as NSString).lastPathComponent,
                                      aside: aside.map { [($0.0 as NSString).lastPathComponent, ($0.1 as NSString).lastPathComponent] })
        try AtomicFile.replace(path, with: Array(try JSONEncoder().encode(marker)))
        return path
    }

    /// Finishes or undoes a conversion a crash interrupted (see the type). `okit`: `<data>/okit`.
    static func complete(okit: String) throws {
        let path = okit + "/" + name
        guard let bytes = try AtomicFile.read(path) else { return }
        guard let marker = try? JSONDecoder().decode(ConversionMarker.self, from: Data(bytes)), marker.isValid else {
            throw StorageError(kind: .corrupt, path: path, message: "the marker of an interrupted conversion between storage forms is damaged\n  check which form of the model in \(okit)/data holds your data, keep only it (move the other aside), then delete the marker")
        }
        let models = okit + "/data", fm = FileManager.default
        if fm.fileExists(atPath: models + "/" + marker.target) {
            for pair in marker.aside where fm.fileExists(atPath: models + "/" + pair[0]) && !fm.fileExists(atPath: models + "/" + pair[1]) {
                if rename(models + "/" + pair[0], models + "/" + pair[1]) != 0 {
                    throw AtomicFile.error(models + "/" + pair[0], "cannot finish an interrupted conversion (moving the old form aside)")
                }
            }
        } else {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(models + "/" + marker.target + ".converting" + suffix) }
        }
        try AtomicFile.syncFolder(models)
        try AtomicFile.remove(path)
    }
}
