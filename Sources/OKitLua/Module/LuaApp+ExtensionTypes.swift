import Foundation
import OKitEngine

/// An `okit.extension` whose type is neither a receiver type nor an entity type declared so far: checked again
/// when the app file has run (an entity type may be declared after its extensions).
struct PendingExtensionType {
    let type: String
    let name: String
    /// `chunk:line` of the call.
    let site: String?
}

extension LuaApp {
    /// The receiver types an extension takes besides entity type names (lua-api.md "Extensions").
    static let extensionTypes = ["string", "number", "bool", "date", "data", "collection", "entity", "any", "section"]

    /// The type meant by a name other languages give it (`int` is a `number` here).
    static func extensionTypeMeaning(_ type: String) -> String? {
        switch type.lowercased() {
        case "int", "integer", "float", "double", "real", "decimal", "num": return "number"
        case "boolean": return "bool"
        case "str", "text": return "string"
        case "list", "array", "table", "set": return "collection"
        case "datetime", "time", "timestamp": return "date"
        case "bytes", "blob", "image": return "data"
        case "object", "value": return "any"
        default: return nil
        }
    }

    /// `okit.extension(type, name, fn)`'s check of `type`: refused at once outside the load; while loading, an
    /// unknown name waits for the end of the app file (`checkExtensionTypes`).
    func checkExtensionType(_ type: String, name: String, site: String?) throws {
        guard !LuaApp.extensionTypes.contains(type), engine.schema.type(named: type) == nil else { return }
        if loading {
            pendingExtensionTypes.append(PendingExtensionType(type: type, name: name, site: site))
        } else {
            throw extensionTypeError(PendingExtensionType(type: type, name: name, site: site))
        }
    }

    /// The extensions of the app file whose type is still unknown once it has run: the first one is the error.
    func checkExtensionTypes() throws {
        defer { pendingExtensionTypes = [] }
        if let unknown = pendingExtensionTypes.first(where: { engine.schema.type(named: $0.type) == nil }) {
            throw extensionTypeError(unknown)
        }
    }

    /// `app.lua:3:16: okit.extension("int", "euro"): "int" is not an extension type (did you mean "number"?); …`
    func extensionTypeError(_ e: PendingExtensionType) -> LuaRaise {
        let declared = engine.schema.order
        let hint = LuaApp.extensionTypeMeaning(e.type).map { " (did you mean \"\($0)\"?)" }
            ?? LuaApp.suggestion(e.type, LuaApp.extensionTypes + declared)
        let types = (LuaApp.extensionTypes + declared).joined(separator: ", ")
        let text = "okit.extension(\"\(e.type)\", \"\(e.name)\"): \"\(e.type)\" is not an extension type\(hint); "
            + "it takes \(types)" + (declared.isEmpty ? " or the name of an entity type (okit.entity)" : "")
        var sources: [String: LuaDeclarationSource?] = [:]
        guard let at = position(ofKey: nil, in: [], function: "extension", id: e.type, site: e.site, sources: &sources) else {
            return LuaRaise(text)
        }
        return LuaRaise("\(at): \(text)", withPosition: false)
    }
}
