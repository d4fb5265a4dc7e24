import OKitEngine

/// `okit-run check`: the texts written in the app's `okit.alert { … }` and `okit.prompt { … }` calls (lua-api.md
/// "Alerts"), which run only when the app shows them — so the check reads them from the files. Each is a binding
/// on no entity: a plain path (`title = "Book"`, `actions = { "Archive" }`) shows nothing (a title, a message, a
/// placeholder) or itself as written in every language (a button), and a text that is no binding fails the call.
/// Each is one line `FILE:LINE:COL: okit.alert, actions[1]: binding "Archive": …`, at the text's character, with
/// the words the app warns with when it shows the alert.
extension LuaApp {
    func alertTextLines(sources: inout [String: LuaDeclarationSource?]) -> [String] {
        var lines: [String] = []
        for chunk in sourceChunks() {
            if sources[chunk] == nil { sources[chunk] = declarationSource(chunk) }
            guard let source = sources[chunk] ?? nil else { continue }
            for call in source.calls(of: ["alert", "prompt"]) {
                for (what, token) in LuaApp.alertTexts(call.table) {
                    guard let (column, message) = alertTextProblem(token.text, action: what.hasPrefix("actions")) else { continue }
                    let p = token.positions.isEmpty ? (line: token.line, column: token.column)
                        : token.positions[min(max(column, 1) - 1, token.positions.count - 1)]
                    lines.append("\(chunk):\(p.line):\(p.column): okit.\(call.function), \(what): \(message)")
                }
            }
        }
        return lines
    }

    /// The files the app's declarations came from: the app file first, then those it `require`d, by name.
    func sourceChunks() -> [String] {
        let app = appFile?.lastPathComponent
        let sites = Array(screenSites.values) + Array(declarationSites.values) + stringsSites.values.map(\.site)
        let others = Set(sites.compactMap { site -> String? in
            guard let site, let colon = site.lastIndex(of: ":") else { return nil }
            return String(site[..<colon])
        })
        return (app.map { [$0] } ?? []) + others.subtracting(app.map { [$0] } ?? []).sorted()
    }

    /// The texts written as strings in an alert's table, named as the app's warnings name them: `title`,
    /// `message`, `actions[N]`, `fields[N].placeholder`.
    static func alertTexts(_ table: LuaDeclarationTable) -> [(String, LuaSourceTokens.Token)] {
        var out: [(String, LuaSourceTokens.Token)] = []
        for key in ["title", "message"] { if case .string(let s)? = table.named[key] { out.append((key, s)) } }
        if case .table(let actions)? = table.named["actions"] {
            for (i, v) in actions.positional.enumerated() { if case .string(let s) = v { out.append(("actions[\(i + 1)]", s)) } }
        }
        if case .table(let fields)? = table.named["fields"] {
            for (i, v) in fields.positional.enumerated() {
                if case .table(let f) = v, case .string(let s)? = f.named["placeholder"] { out.append(("fields[\(i + 1)].placeholder", s)) }
            }
        }
        return out
    }

    /// What is wrong with an alert's text, and the column (1-based, in the text) it is at: a binding that does not
    /// parse, or a path the alert cannot read; nil for a text that shows as meant.
    func alertTextProblem(_ text: String, action: Bool) -> (column: Int, message: String)? {
        let binding: Binding
        do { binding = try engine.compile(text) } catch {
            let column = (error as? BindingError)?.column ?? 1
            return (column, "\(error); an alert's texts are bindings: write \(LuaApp.asText(text)) for the text")
        }
        guard let name = unreadNames(binding).first else { return nil }
        return (1, "binding \"\(text)\": " + LuaApp.unreadPath(name, in: text, action: action))
    }
}
