import Foundation

extension BackupStore {
    /// The name of a backup already in the backup folder — to restore, delete or describe it: any `.okbackup` the
    /// list shows, one created under an older, looser rule too (`before 10:30`, `50%`, a long name), so the rule
    /// `sanitize` holds new names to never hides an old backup. Only what would leave the folder or hide is refused:
    /// an empty name, a leading `.`, a `/`, a control character.
    public static func existingName(_ raw: String) throws(BackupError) -> String {
        let name = try stripped(raw)
        if name.contains("/") { throw .invalidName(raw, "it contains /") }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .invalidName(raw, "it contains a control character")
        }
        return name
    }

    /// `raw` trimmed, without a trailing `.okbackup`; refused when that leaves nothing or starts with `.` (hidden).
    static func stripped(_ raw: String) throws(BackupError) -> String {
        var name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.lowercased().hasSuffix("." + fileExtension) {
            name = String(name.dropLast(fileExtension.count + 1)).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if name.isEmpty { throw .invalidName(raw, "the name is empty") }
        if name.hasPrefix(".") { throw .invalidName(raw, "it starts with \".\"") }
        return name
    }
}
