import CLua
import Foundation
import OKitEngine

/// `okit.strings("ru", { books = { few = "книги", many = "книг", other = "книги" } })`: a plural key's forms by
/// CLDR category (lua-api.md "Counts"). Each name is a category, each value text, and `other` is required: it is
/// the key's string (`%books`, `okit.localize`) and the form of any count whose category the table leaves out.
extension LuaApp {
    /// The forms of the table at stack index `index`, the string of `key`; a refusal at the value in the file.
    func pluralForms(at index: Int32, key: String, written: String, site: String?) throws -> [PluralCategory: String] {
        var forms: [PluralCategory: String] = [:]
        let names = PluralCategory.allCases.map(\.rawValue)
        func refuse(_ text: String, at path: [DeclarationKey]) -> LuaRaise {
            let message = "okit.strings(\"\(written)\"): the forms of \"\(key)\" \(text)"
            guard let at = position(ofValue: [path, [.name(key)]], function: "strings", id: written, site: site) else { return LuaRaise(message) }
            return LuaRaise("\(at): \(message)", withPosition: false)
        }
        try forEachEntry(index, what: "okit.strings(\"\(written)\"): the forms of \"\(key)\"") { name, v in
            guard let category = PluralCategory(rawValue: name) else {
                throw refuse("are named by CLDR's categories \(names.joined(separator: ", ")), not \"\(name)\""
                             + LuaApp.suggestion(name, names), at: [.name(key), .name(name)])
            }
            guard lua_type(lua.L, v) == LUA_TSTRING, let text = lua.string(at: v) else {
                throw refuse("have a \(lua.typeName(at: v)) for \(name), not text; write it in quotes, like \(name) = \"…\"",
                             at: [.name(key), .name(name)])
            }
            forms[category] = text
        }
        guard forms[.other] != nil else {
            let given = forms.keys.sorted().map { "\($0.rawValue) = \"\(forms[$0] ?? "")\", " }.joined()
            throw refuse("need other = \"…\": the form of a count no other category takes (1.5), and what %\(key) shows; "
                         + "like \(key) = { \(given)other = \"…\" }", at: [.name(key)])
        }
        return forms
    }

    /// Whether the value at `index` is a table with at least one entry.
    func isNonEmptyTable(_ index: Int32) -> Bool {
        guard lua_type(lua.L, index) == LUA_TTABLE else { return false }
        let top = lua.top
        defer { lua.top = top }
        lua.pushNil()
        return lua_next(lua.L, index) != 0
    }
}
