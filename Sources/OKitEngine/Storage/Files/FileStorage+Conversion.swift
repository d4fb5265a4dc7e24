import Foundation

/// The file kind as a conversion's source and target: `<model>.json` (and its journal).
extension FileStorage: ConvertibleStorage {
    public var conversionForm: String { DataFolderForms.jsonName }
    public func conversionPlace(of name: String) throws -> String { try folder.modelFile(name) }
    public func holdsModel(_ name: String) throws -> Bool? { FileManager.default.fileExists(atPath: try folder.modelFile(name)) }

    public func loadForConversion(_ name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel? {
        try load(name: name, rootType: rootType, engine: engine)
    }

    public func convertedFiles(of name: String) throws -> [String] { [try folder.modelFile(name), try folder.journal(name)] }

    /// Writes the model as a JSON file: to a temporary file, read back and compared, then moved in place.
    public func writeConverted(_ name: String, rootType: EntityType, engine: any ModelHost, from loaded: LoadedModel) throws {
        let path = try folder.modelFile(name)
        var writer = JSONWriter(capacity: 1 << 16)
        writer.document(loaded.root, type: rootType.name, version: loaded.version ?? engine.schemaVersion, generation: 1,
                        headerExtras: loaded.headerExtras)
        let temporary = path + ".converting"
        try AtomicFile.replace(temporary, with: writer.bytes)
        do {
            let back = try withExtendedLifetime(writer.out) {
                var r = JSONReader(bytes: writer.out.buffer, engine: engine)
                return try r.root(rootType)
            }
            if let difference = ModelComparison.difference(loaded.root, back, path: rootType.name) {
                throw ModelConversion.Failure("the converted file of model \"\(name)\" does not read back as the model: \(difference); nothing was changed")
            }
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            if let f = error as? JSONReader.Failure {
                throw ModelConversion.Failure("the converted file of model \"\(name)\" does not read back: \(f.message); nothing was changed")
            }
            throw error
        }
    }
}
