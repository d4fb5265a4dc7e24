import Foundation

/// A model file that cannot be read or written. Messages name the file and the place; the way out is `remedy`
/// (data a front end words, see `Remedy`).
public struct StorageError: RemedyCarrying {
    public enum Kind: Sendable { case corrupt, wrongType, io, locked, invalidName }

    public let kind: Kind
    public let path: String
    public let message: String
    /// Byte offset, 1-based line and column, and JSON path of a problem inside a file.
    public var offset: Int?
    public var line: Int?
    public var column: Int?
    public var jsonPath: String?
    /// The system's error code (`errno`) of a failed call on the file (`AtomicFile.error`): a front end tells a
    /// full disk (`ENOSPC`) or a read-only one (`EROFS`) from the rest by it, to say what to do.
    public var systemError: Int32?

    /// The way out given by the thrower; a file that does not decode gets one from its place (see `remedy`).
    var givenRemedy: Remedy?
    /// The remedy in the words of the storage's owner (`ModelStorage` owners may set a wording), appended to
    /// `description`; nil: the neutral message.
    public var advice: String?
    /// Values a shared model's database refused (set aside, the rest stored): a person's page names these, in the
    /// app's words, instead of the message (`Engine.refusedNotice`).
    public var refusedValues: [RefusedValue] = []

    public init(kind: Kind, path: String, message: String, remedy: Remedy? = nil) {
        self.kind = kind
        self.path = path
        self.message = message
        givenRemedy = remedy
    }

    /// The way out: the thrower's, or for a file that does not decode, from its place: a model file
    /// (`…/okit/data/<model>.json`, its journal) is moved aside by recovering the model (a kind with a file of its
    /// own gives the remedy itself); a partial's payload
    /// (`…/data/<folder>/<file>`) is fixed, restored or moved aside by hand; any other file (one checked inside a
    /// backup) has none.
    public var remedy: Remedy? {
        if let givenRemedy { return givenRemedy }
        guard kind == .corrupt || kind == .wrongType else { return nil }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        if ["json", "journal"].contains(url.pathExtension), folder.lastPathComponent == "data", folder.deletingLastPathComponent().lastPathComponent == "okit" {
            return .fixOrRecover(model: url.deletingPathExtension().lastPathComponent)
        }
        if folder.deletingLastPathComponent().lastPathComponent == "data" { return .fixOrRestorePartial }
        return nil
    }

    /// The same error with `remedy` as its way out (unless the thrower gave one).
    public func withRemedy(_ remedy: Remedy) -> StorageError {
        var e = self
        if e.givenRemedy == nil { e.givenRemedy = remedy }
        return e
    }

    /// A model declared as `declared` whose data is in another form (`found`, `DataFolderForms.other`): it is not
    /// started fresh; converting it (to `convertTo`) is the way out.
    public static func otherForm(model: String, declared: StorageKind, found: (path: String, name: String), convertTo: StorageKind,
                                 declaredHasNone: String = "") -> StorageError {
        StorageError(kind: .io, path: found.path,
                     message: "model \"\(model)\" is declared with storage = \"\(declared)\"\(declaredHasNone) but its data is \(found.name) (nothing was changed)",
                     remedy: .convert(model: model, to: convertTo))
    }

    /// A model held in two forms at once (`live`, the one its declaration reads, and `other`; an earlier okit's
    /// interrupted `okit-run convert`, or files copied in): not loaded, so edits never go to one form unseen by the
    /// other; the message says which is live and how to keep one.
    public static func twoForms(model: String, declared: StorageKind, live: (path: String, name: String),
                                other: (path: String, name: String), otherKind: StorageKind) -> StorageError {
        let l = (live.path as NSString).lastPathComponent, o = (other.path as NSString).lastPathComponent
        return StorageError(kind: .io, path: live.path,
                            message: "model \"\(model)\" is stored twice: as \(live.name) (\(l)), which this app reads (storage = \"\(declared)\"), and as \(other.name) (\(o)); nothing was read or changed\n  keep the one that holds your current data: move \(o) aside (to \(o).converted-old) to keep \(l), or move \(l) aside and declare the model with storage = \"\(otherKind)\" to keep \(o)")
    }

    /// The way out of a model stored with another root type: the root type keeps its name (storage.md "Schema
    /// changes"), or another model is meant.
    public static func keepRootName(stored: String) -> String {
        "a model's root type keeps its name (storage.md \"Schema changes\"): declare it as \(stored) again (the types below it may be renamed), or give this model another name"
    }

    /// The same error with the remedy worded by `wording` (nil: left neutral).
    public func worded(_ wording: (@Sendable (Remedy) -> String)?) -> StorageError {
        var e = self
        if let wording, let remedy { e.advice = wording(remedy) }
        return e
    }

    public var description: String { neutralDescription + (advice ?? "") }

    public var neutralDescription: String {
        switch kind {
        case .corrupt, .wrongType:
            var place = path
            if let line, let column { place += ":\(line):\(column)" }
            var text = "\(place): \(message)"
            if let jsonPath { text += " at \(jsonPath)" }
            if let offset { text += " (byte \(offset))" }
            return text + "\n  the file is left as it is"
        case .io, .locked, .invalidName:
            return "\(path): \(message)"
        }
    }
}
