import Foundation

/// A storage a model can be converted out of and into (`okit-run convert`, storage.md "SQLite models", "Shared
/// models on PostgreSQL"): the file kind's JSON file, a SQLite database, PostgreSQL.
public protocol ConvertibleStorage: ModelStorage {
    /// How messages name a model's data in this form ("a JSON file", "a SQLite database").
    var conversionForm: String { get }
    /// Where model `name` is (or would be) kept in this form, as messages show it: a path, a database URL
    /// without its password.
    func conversionPlace(of name: String) throws -> String
    /// Whether model `name` is stored in this form; nil when only reading it can tell (a database: its
    /// `writeConverted` refuses a model it holds, its `loadForConversion` one it does not).
    func holdsModel(_ name: String) throws -> Bool?
    /// Model `name` as stored (nil: nothing is), read without changing anything.
    func loadForConversion(_ name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel?
    /// Writes `loaded` as model `name` in this form where nothing is yet: written aside, read back and compared
    /// with it (`ModelComparison`), then put in place. Throws `ModelConversion.Failure` and leaves nothing behind
    /// when any of it fails.
    func writeConverted(_ name: String, rootType: EntityType, engine: any ModelHost, from loaded: LoadedModel) throws
    /// The files that keep model `name` in this form, moved aside once it was converted out of it (none: a
    /// database's rows stay, other processes may still use them).
    func convertedFiles(of name: String) throws -> [String]
}

/// `okit-run convert` (storage.md "SQLite models"): moves a model from one form to another. The new form is
/// written beside the old one, read back and compared with the model as read from the old form, then put in
/// place; the old form's files are kept as `<file>.converted-<UTC timestamp>` (never deleted automatically).
/// Anything that goes wrong leaves the data as it was.
public enum ModelConversion {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ text: String) { description = text }
    }

    /// What a conversion did: where the model now is and where the old form was kept.
    public struct Done: Sendable {
        public let path: String
        public let kept: [String]
        public let entities: Int
    }

    /// Converts model `name` (root type `rootType`) from `source` to `target`.
    public static func convert(model name: String, rootType: EntityType, engine: any ModelHost, from source: ConvertibleStorage,
                               to target: ConvertibleStorage, now: Date) throws -> Done {
        if try target.holdsModel(name) == true {
            throw Failure("model \"\(name)\" is already \(target.conversionForm) (\(try target.conversionPlace(of: name))); nothing was changed")
        }
        guard try source.holdsModel(name) != false, let loaded = try source.loadForConversion(name, rootType: rootType, engine: engine) else {
            throw Failure("model \"\(name)\" has no stored data at \(try source.conversionPlace(of: name)); nothing was changed")
        }
        let stamp = ISODate.format(now, fractional: false).replacingOccurrences(of: ":", with: "")
        let aside = try source.convertedFiles(of: name).filter { FileManager.default.fileExists(atPath: $0) }
            .map { ($0, $0 + ".converted-" + stamp) }
        // Between the new form in place and the old moved aside, a marker: a crash there is finished at the next
        // start (`ConversionMarker`), so the data folder never holds both forms live.
        let marker = try target.convertedFiles(of: name).first.map { try ConversionMarker.begin(target: $0, aside: aside) }
        do { try target.writeConverted(name, rootType: rootType, engine: engine, from: loaded) } catch {
            if let marker { try? AtomicFile.remove(marker) }
            throw error
        }
        var kept: [String] = []
        for (path, k) in aside {
            try FileManager.default.moveItem(atPath: path, toPath: k)
            kept.append(k)
        }
        if let marker {
            if let first = aside.first { try AtomicFile.syncFolder((first.0 as NSString).deletingLastPathComponent) }
            try AtomicFile.remove(marker)
        }
        return Done(path: try target.conversionPlace(of: name), kept: kept, entities: loaded.entityCount)
    }
}
