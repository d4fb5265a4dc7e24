import CLua
import Foundation
import OKitEngine

/// A name in a screen's declaration that okit does not know (`groupFootr`, a date cell's `dataPath`): a warning
/// when the app loads, and a problem of `okit-run check` at the name's line and column.
struct DeclarationTypo {
    /// The screen whose declaration holds the name.
    let screen: String
    /// What the check line names as the property: `groupFootr`, `cell Date.dataPath`, `buttons[1].tapPth`.
    let property: String
    /// The keys from the declaration's table to the table the name is written in.
    let table: [DeclarationKey]
    let key: String
    /// `unknown property "groupFootr" (did you mean "groupFooter"?)`.
    let message: String
}

extension LuaApp {
    /// Warns that `key` is no property okit knows in `what` (with the closest known name), and keeps it for
    /// `okit-run check`: the screen `screen`, in the table at `table` of its declaration.
    func unknownProperty(_ key: String, known: some Sequence<String>, what: String, screen: String,
                         in table: [DeclarationKey] = [], property: String? = nil) {
        guard !key.hasPrefix("__okit_") else { return }   // okit's own mark on a table it made (okit.cell.text{…})
        let message = "unknown property \"\(key)\"\(LuaApp.suggestion(key, Array(known)))"
        let typo = DeclarationTypo(screen: screen, property: property ?? key, table: table, key: key, message: message)
        // Said as `okit-run check` says it, at the name in the file, when the declaring call shows it.
        if let at = position(of: typo, site: LuaApp.callerPosition(lua.L)) {
            engine.warn("\(at): screen \(screen), property \(typo.property): \(message) (ignored)")
        } else {
            engine.warn("\(what): \(message) (ignored)")
        }
        declarationTypos.append(typo)
    }

    /// `chunk:line:col` of an unknown name in the screen declaration being read at `site` (`chunk:line`, the
    /// declaring call), of whichever screen kind's call is written there; nil when the source does not show it.
    func position(of typo: DeclarationTypo, site: String?) -> String? {
        var sources: [String: LuaDeclarationSource?] = [:]
        let kinds = LuaApp.screenKinds.map(\.name) + shell.kinds.kinds.map(\.name)
        for function in kinds where declarationCall(function, id: typo.screen, site: site, sources: &sources) != nil {
            return position(ofKey: typo.key, in: typo.table, function: function, id: typo.screen, site: site, sources: &sources)
        }
        return nil
    }

    /// The check lines of the unknown names, each at the name in the file.
    func declarationTypoLines(sources: inout [String: LuaDeclarationSource?]) -> [String] {
        declarationTypos.map { t in
            let site = screenSites[t.screen] ?? nil
            let function = shell.declaration(t.screen)?.kind ?? "list"
            let at = position(ofKey: t.key, in: t.table, function: function, id: t.screen, site: site, sources: &sources)
            return "\(at ?? (appFile?.lastPathComponent ?? "app") + ":1:1"): screen \(t.screen), property \(t.property): \(t.message)"
        }
    }

    /// `chunk:line:col` of `key` in the table at `path` of the `okit.<function>([id,] { … })` call at `site`
    /// (`chunk:line`), else of that table, else of the call's id, else `chunk:line:1`; nil without a site.
    func position(ofKey key: String?, in path: [DeclarationKey], function: String, id: String?, site: String?,
                  sources: inout [String: LuaDeclarationSource?]) -> String? {
        guard let site, let colon = site.lastIndex(of: ":"), let line = Int(site[site.index(after: colon)...]) else { return nil }
        let chunk = String(site[..<colon])
        if sources[chunk] == nil { sources[chunk] = declarationSource(chunk) }
        guard let source = sources[chunk] ?? nil, let call = source.call(function, id: id, line: line) else {
            return "\(chunk):\(line):1"
        }
        if let table = call.table?.table(at: path) {
            if let key, let p = table.keyPositions[key] { return "\(chunk):\(p.line):\(p.column)" }
            return "\(chunk):\(table.line):\(table.column)"
        }
        // A cell a helper function made (a screen's only): where that call is written.
        if let id, let key, !["entity", "partial", "model", "app", "strings"].contains(function),
           let at = tracedPosition(screen: id, path: path + [.name(key)], column: 1, declaring: chunk, sources: &sources) {
            return at
        }
        if let id = call.id { return "\(chunk):\(id.line):\(id.column + 1)" }
        return "\(chunk):\(line):1"
    }

    /// `chunk:line:col` of the `item`-th list item (1-based) of the table at `path` of the `okit.<function>` call
    /// at `site`, else of that table (as `position(ofKey:…)`); nil without a site.
    func position(ofItem item: Int, in path: [DeclarationKey], function: String, id: String?, site: String?,
                  sources: inout [String: LuaDeclarationSource?]) -> String? {
        guard let at = position(ofKey: nil, in: path, function: function, id: id, site: site, sources: &sources) else { return nil }
        guard let site, let colon = site.lastIndex(of: ":"), let line = Int(site[site.index(after: colon)...]) else { return at }
        let chunk = String(site[..<colon])
        guard let table = (sources[chunk] ?? nil)?.call(function, id: id, line: line)?.table?.table(at: path),
              item >= 1, item <= table.positional.count else { return at }
        switch table.positional[item - 1] {
        case .string(let s): return "\(chunk):\(s.line):\(s.column)"
        case .table(let t): return "\(chunk):\(t.line):\(t.column)"
        case .other(let l, let c): return "\(chunk):\(l):\(c)"
        }
    }

    /// A load error for an unknown name of a declaration whose names all matter (a field's table, `okit.model`,
    /// `okit.app`): at the name's line and column when the source shows it, with the closest known name and the
    /// names `what` takes. `meaning`: the name meant when it is known better than by spelling (`minimum` for `min`).
    func unknownKeyError(_ key: String, known: [String], what: String, noun: String = "key", function: String, id: String?,
                         in path: [DeclarationKey] = [], site: String?, meaning: (String) -> String? = { _ in nil },
                         advice: String? = nil, also: [String] = []) -> LuaRaise {
        var sources: [String: LuaDeclarationSource?] = [:]
        let hint = meaning(key).map { " (did you mean \"\($0)\"?)" } ?? LuaApp.suggestion(key, known)
        let others: [String] = also.map { name in
            let meant: String? = meaning(name)
            let hint: String = meant.map { " (did you mean \"\($0)\"?)" } ?? LuaApp.suggestion(name, known)
            return "\"\(name)\"" + hint
        }
        var text = "\(what): unknown \(noun) \"\(key)\"\(hint)"
        if !others.isEmpty { text += "; also unknown: " + others.joined(separator: ", ") }
        if let advice { text += "; \(advice)" }
        text += "; it takes " + known.joined(separator: ", ")
        guard let at = position(ofKey: key, in: path, function: function, id: id, site: site, sources: &sources) else {
            return LuaRaise(text)
        }
        return LuaRaise("\(at): \(text)", withPosition: false)
    }

    /// The names of the table at `index` that `known` does not hold, sorted; keys that are not names are left to
    /// the caller.
    func unknownNames(_ index: Int32, known: some Sequence<String>) -> [String] {
        let L = lua.L
        let t = lua_absindex(L, index)
        var unknown: [String] = []
        lua.pushNil()
        while lua_next(L, t) != 0 {
            lua.pop()
            // okit's own marks on a table it made (`__okit_cell` of okit.cell.text{…}) are no names of the author's.
            if lua_type(L, -1) == LUA_TSTRING, let k = lua.string(at: -1), !known.contains(k), !k.hasPrefix("__okit_") { unknown.append(k) }
        }
        return unknown.sorted()
    }
}
