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
            let model = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            return text + "\n  the file is left as it is; fix it, or run okit-run with --recover \(model) to move it aside and start this model fresh"
        case .io, .locked, .invalidName:
            return "\(path): \(message)"
        }
    }
}
