import CLua
import OKitEngine

/// A value Lua code wrote that its field refused as a text — `okit.new("Mitglied", { beitrag = "12,50" })`,
/// `m.eintritt = "03.12.2026"`, `aktiv = "ja"`: the refusal with how Lua writes the value (`LuaWrittenValue`: `12.5`,
/// `"2026-12-03"`, `true`), at the value's line and column when the source shows it (lua-api.md "Entity objects").
extension LuaApp {
    /// `error` with the advice when it is a coercion's refusal of a text `values` gave the field; else `error`.
    func luaWriteRefusal(_ error: Error, type: EntityType?, engine: Engine, values: (String) -> Value?,
                         L: OpaquePointer) -> Error {
        guard case .coercion(let c)? = error as? EngineError, let field = type?.field(named: c.field),
              let value = values(c.field) else { return error }
        let advice = LuaWrittenValue.advice(for: value, type: field.type, name: c.field, locale: engine.locale,
                                       formatters: engine.formatters)
        guard !advice.isEmpty else { return error }
        let message = c.description + advice
        if case .string(let text) = value, let site = LuaApp.callerPosition(L),
           let at = valuePosition(site: site, key: c.field, text: text) {
            return LuaRaise("\(at): \(message)", withPosition: false)
        }
        return LuaRaise(message)
    }

    /// `chunk:line:col` of the string `text` written as `key = "text"` at or after the line of `site`
    /// (`chunk:line`, where Lua reports the call or the assignment); nil when the source does not show it.
    func valuePosition(site: String, key: String, text: String) -> String? {
        guard let colon = site.lastIndex(of: ":"), let line = Int(site[site.index(after: colon)...]) else { return nil }
        let chunk = String(site[..<colon])
        guard let tokens = declarationSource(chunk)?.tokens, tokens.count >= 3 else { return nil }
        for k in 0..<(tokens.count - 2) where tokens[k].line >= line && tokens[k].kind == .name && tokens[k].text == key {
            let (eq, v) = (tokens[k + 1], tokens[k + 2])
            if eq.kind == .symbol, eq.text == "=", v.kind == .string, v.text == text { return "\(chunk):\(v.line):\(v.column)" }
        }
        return nil
    }
}
