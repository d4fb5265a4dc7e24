import CLua
import OKitEngine

/// Selection screens from Lua: `okit.selection(id, properties)` — a list's properties plus `selectionPath`,
/// `selectionContextPath`, `unique`, `unselect`, `selectAppend`, `clear`, `close`, `autoClose` (bindings) and
/// `refType` (a literal type name).
extension LuaApp {
    /// The selection properties that take bindings.
    static var selectionProperties: [String: WritableKeyPath<SelectionDeclaration, String>] { [
        "selectionPath": \.selectionPath, "selectionContextPath": \.selectionContextPath, "unique": \.unique,
        "unselect": \.unselect, "selectAppend": \.selectAppend, "clear": \.clear, "close": \.close, "autoClose": \.autoClose,
    ] }

    /// The keys `listDeclaration` takes (for the unknown-property warning with suggestions).
    static var listKeys: Set<String> {
        Set(listProperties.keys).union(rowActionKeys.keys).union(hookKeys)
            .union(["type", "segue", "present", "addName", "typeName", "help", "buttons", "titleTap", "cell"]).union(inertProperties)
    }

    /// `okit.selection(id, properties)`.
    func readSelection(_ call: LuaCall, id: String) throws -> SelectionDeclaration {
        try call.requireTable(2)
        let what = "okit.selection(\"\(id)\")"
        var bindings: [(WritableKeyPath<SelectionDeclaration, String>, String)] = []
        var refType: String?
        let listKeys = LuaApp.listKeys
        let list = try listDeclaration(id, at: 2, function: "okit.selection") { key, v in
            if key == "refType" {
                guard lua_type(lua.L, v) == LUA_TSTRING, let t = lua.string(at: v) else {
                    throw LuaRaise("\(what), property refType: expected an entity type name, got \(lua.typeName(at: v))")
                }
                refType = t.isEmpty ? nil : t
                return true
            }
            if let path = LuaApp.selectionProperties[key] {
                guard let text = bindingText(at: v) else { throw notABinding(what, key, at: v, path: [.name(key)]) }
                do { _ = try engine.compile(text) } catch { throw bindingRefusal("\(what), property \(key)", error) }
                bindings.append((path, text))
                return true
            }
            if !listKeys.contains(key) {
                let known = Array(listKeys) + Array(LuaApp.selectionProperties.keys) + ["refType"]
                unknownProperty(key, known: known, what: what, screen: id)
                return true
            }
            return false
        }
        var d = SelectionDeclaration(list: list)
        for (path, text) in bindings { d[keyPath: path] = text }
        d.refType = refType
        return d
    }
}
