import Foundation

/// A model file that cannot be read or written. Messages name the file, the place and the way out.
public struct StorageError: Error, CustomStringConvertible {
    public enum Kind: Sendable { case corrupt, wrongType, io, locked, invalidName }

    public let kind: Kind
    public let path: String
    public let message: String
    /// Byte offset, 1-based line and column, and JSON path of a problem inside a file.
    public var offset: Int?
    public var line: Int?
    public var column: Int?
    public var jsonPath: String?

    public init(kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    public var description: String {
        switch kind {
        case .corrupt, .wrongType:
            var place = path
            if let line, let column { place += ":\(line):\(column)" }
            var text = "\(place): \(message)"
            if let jsonPath { text += " at \(jsonPath)" }
            if let offset { text += " (byte \(offset))" }
            // The way out: `--recover` moves a model file (`…/okit/data/<model>.json`, its journal) aside; any other file (a
            // partial's payload, a file checked inside a backup) is fixed or moved aside by hand.
            let url = URL(fileURLWithPath: path)
            let folder = url.deletingLastPathComponent()
            if ["json", "journal"].contains(url.pathExtension), folder.lastPathComponent == "data", folder.deletingLastPathComponent().lastPathComponent == "okit" {
                let model = url.deletingPathExtension().lastPathComponent
                return text + "\n  the file is left as it is; fix it, or run okit-run with --recover \(model) to move it aside and start this model fresh"
            }
            if folder.deletingLastPathComponent().lastPathComponent == "data" {
                return text + "\n  the file is left as it is; fix it, restore a backup (okit-run backup restore NAME), or move it aside to start this partial empty"
            }
            return text + "\n  the file is left as it is"
        case .io, .locked, .invalidName:
            return "\(path): \(message)"
        }
    }
}
