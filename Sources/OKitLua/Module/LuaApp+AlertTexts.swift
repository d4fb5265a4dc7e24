import OKitEngine

/// The texts of `okit.alert` and `okit.prompt` (lua-api.md "Alerts"): bindings, evaluated on no entity — an alert
/// belongs to no row. `%Delete it?` shows the app's string (or the key), `#Delete it?` the text as it is. A path
/// (`Book`) has no entity to start from: it is nil, and says so once per binding as an unknown name does
/// (bindings.md); a text that is no binding fails the call saying what to write. An action (a button) that is such a
/// path shows as written (`Archive`), in every language, and says so once too.
extension LuaApp {
    /// The text an alert's `title`, `message` or a prompt field's `placeholder` shows (`what`: `okit.alert, title`).
    func alertText(_ text: String, _ what: String) throws -> String? {
        let binding = try alertBinding(text, what)
        for name in unreadNames(binding) {
            engine.warn("binding \"\(text)\" (\(what)): " + LuaApp.unreadPath(name, in: text, action: false))
        }
        return try engine.text(nil, text)
    }

    /// The text an alert's action shows (`what`: `okit.alert, actions[1]`): the binding's text, or the action as
    /// written when that is nil (a plain `Archive`), which warns once per binding that the button shows it in every
    /// language and says what to write.
    func alertActionText(_ text: String, _ what: String) throws -> String {
        let binding = try alertBinding(text, what)
        if let shown = try engine.text(nil, text) { return shown }
        for name in unreadNames(binding) {
            engine.warn("binding \"\(text)\" (\(what)): " + LuaApp.unreadPath(name, in: text, action: true))
        }
        return text
    }

    /// The names a binding's paths start from that an alert cannot read: a relative path's first name that is no
    /// extension of nothing (`Book`, `Archive`; not `now`, a model or an absolute path).
    func unreadNames(_ binding: Binding) -> [String] {
        var names: [String] = []
        for case .path(let path) in binding.parts where !path.absolute && path.model == nil {
            guard case .property(let keys, _, _)? = path.segments.first, case .name(let name, _)? = keys.first,
                  engine.extensions.resolve(for: .null, name: name) == nil else { continue }
            names.append(name)
        }
        return names
    }

    /// The binding of an alert's text (an action's too), or a Lua error that says what to write instead.
    func alertBinding(_ text: String, _ what: String) throws -> Binding {
        do {
            return try engine.compile(text)
        } catch {
            throw LuaRaise("\(what): \(error); an alert's texts are bindings: write \(LuaApp.asText(text)) for the text")
        }
    }

    /// What a path an alert cannot read (`name`, in the text `text`) does and what to write instead: a title, message
    /// or placeholder is nil; an action (`action`) shows as written.
    static func unreadPath(_ name: String, in text: String, action: Bool) -> String {
        "an alert has no entity to read \"\(name)\" from, so "
            + (action ? "the button shows \"\(text)\" as written, in every language" : "it is nil")
            + "; write \(asText(text)) for the text"
    }

    /// How a text is written as an alert's text: `"%Delete it?" (localized) or "#Delete it?" (as it is)`, a comma
    /// as `\,` (a comma splits a binding into parts).
    static func asText(_ text: String) -> String { BindingParser.asText(text) }
}
