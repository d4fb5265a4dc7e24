import Foundation
import OKitEngine

/// A declaration's value refused at load, placed at its line and column in the file (not only the call's line):
/// a binding that does not parse at its character (`t/format("yyyy")`), a rule of the wrong type at its value
/// (`maxLength = "40"`), a string that is not text (`okit.strings("es", { Edit = 5 })`).
struct DeclarationBindingError: Error, CustomStringConvertible {
    /// `okit.list("l"), cell, property detailPath: binding "…": unexpected """ at column 10`.
    let message: String
    let error: BindingError

    var description: String { message }
}

/// A declaration's value refused at load (`add = false`, a cell where a section belongs), placed at the value in
/// the file by the declaring call (`LuaApp.placed`): `path` leads from the call's table to it.
struct DeclarationValueError: Error, CustomStringConvertible {
    let message: String
    let path: [DeclarationKey]
    /// `chunk:line` of the table the value is in when the call's table may not show it (a cell made apart,
    /// `local c = okit.cell.text {…}`): the line of its `okit.cell.*` call.
    var written: String?

    var description: String { message }
}

/// A field rule of the wrong type (`maxLength = "40"`): the rule and the message.
struct FieldRuleRefusal: Error, CustomStringConvertible {
    let rule: String
    let message: String

    var description: String { message }
}

extension LuaApp {
    /// The refusal of a declaration's binding that does not parse, for the declaring call to place in the file.
    func bindingRefusal(_ what: String, _ error: Error) -> Error {
        if var e = error as? BindingError {
            if e.hint.isEmpty { e.hint = Self.plainTextRemedy(what, e.binding) }
            return DeclarationBindingError(message: "\(what): \(e)", error: e)
        }
        return LuaRaise("\(what): \(error)")
    }

    /// The advice for plain words given to a property that shows a text (`header = "In stock"` does not parse as
    /// a binding): `header is a binding: write "%In stock" (localized) or "#In stock" (as it is)`, as a one-word
    /// text that names no field is told by the check (ScreenCheckRun.textRemedy); "" for anything else.
    static func plainTextRemedy(_ what: String, _ text: String) -> String {
        let tail = what.components(separatedBy: "property ").last ?? what
        let name = tail.split(separator: ".").last.map { String($0).trimmingCharacters(in: .whitespaces) } ?? tail
        let words = text.trimmingCharacters(in: .whitespaces)
        guard ScreenCheckRun.textProperties.contains(name), words.contains(" "), let first = words.unicodeScalars.first,
              first.properties.isAlphabetic || ("0"..."9").contains(first),
              words.unicodeScalars.allSatisfy({ $0 == " " || $0.properties.isAlphabetic || ("0"..."9").contains($0) || "'-:!?&.".unicodeScalars.contains($0) })
        else { return "" }
        return "\(name) is a binding: if \"\(words)\" is the text, write " + BindingParser.asText(words)
    }

    /// A load error of the `okit.<function>([id,] { … })` call at `site` (`chunk:line`): a binding that does not
    /// parse placed at its character, as `chunk:line:col: message`; anything else as it is.
    func placed(_ error: Error, function: String, id: String?, site: String?) -> Error {
        let refusal: DeclarationBindingError
        switch error {
        case let e as DeclarationValueError:
            var sources: [String: LuaDeclarationSource?] = [:]
            if let (chunk, call) = declarationCall(function, id: id, site: site, sources: &sources),
               let p = call.table?.position(of: e.path, column: 1) {
                return LuaRaise("\(chunk):\(p.line):\(p.column): \(e.message)", withPosition: false)
            }
            return e.written.map { LuaRaise("\($0): \(e.message)", withPosition: false) } ?? LuaRaise(e.message)
        case let e as DeclarationBindingError: refusal = e
        case let e as BindingError: refusal = DeclarationBindingError(message: "okit.\(function)(\"\(id ?? "")\"): \(e)", error: e)
        default: return error
        }
        var sources: [String: LuaDeclarationSource?] = [:]
        guard let (chunk, call) = declarationCall(function, id: id, site: site, sources: &sources),
              let token = call.table?.firstString(refusal.error.binding) else { return LuaRaise(refusal.message) }
        let p: (line: Int, column: Int) = token.positions.isEmpty ? (token.line, token.column)
            : token.positions[min(max(refusal.error.column, 1) - 1, token.positions.count - 1)]
        return LuaRaise("\(chunk):\(p.line):\(p.column): \(refusal.message)", withPosition: false)
    }

    /// A binding of `okit.app` that does not parse, at its character (else at the call's line).
    func appBindingRefusal(_ what: String, _ error: Error) -> LuaRaise {
        let site = screenSites[AppShell.appCheckName] ?? nil
        if let r = placed(bindingRefusal(what, error), function: "app", id: nil, site: site) as? LuaRaise, !r.withPosition { return r }
        return LuaRaise(appSite + "\(what): \(error)", withPosition: false)
    }

    /// `chunk:line:col` of the value at `path` in the `okit.<function>([id,] { … })` call at `site`, else of the
    /// call's id; nil when the source does not show the call.
    func position(ofValue paths: [[DeclarationKey]], function: String, id: String?, site: String?) -> String? {
        var sources: [String: LuaDeclarationSource?] = [:]
        guard let (chunk, call) = declarationCall(function, id: id, site: site, sources: &sources) else { return nil }
        for path in paths {
            if let p = call.table?.position(of: path, column: 1) { return "\(chunk):\(p.line):\(p.column)" }
        }
        return call.id.map { "\(chunk):\($0.line):\($0.column + 1)" }
    }

    /// The declaring call at `site` (`chunk:line`) in its chunk's source.
    func declarationCall(_ function: String, id: String?, site: String?, sources: inout [String: LuaDeclarationSource?])
        -> (chunk: String, call: (id: LuaSourceTokens.Token?, table: LuaDeclarationTable?))? {
        guard let site, let colon = site.lastIndex(of: ":"), let line = Int(site[site.index(after: colon)...]) else { return nil }
        let chunk = String(site[..<colon])
        if sources[chunk] == nil { sources[chunk] = declarationSource(chunk) }
        guard let call = (sources[chunk] ?? nil)?.call(function, id: id, line: line) else { return nil }
        return (chunk, call)
    }

    /// A field rule of the wrong type, at the rule's value (`maxLength = "40"`, or the value of `{ "40", message = … }`).
    func placed(_ refusal: FieldRuleRefusal, entity: String, field: String, function: String, site: String?) -> LuaRaise {
        let rule: DeclarationKey = .name(refusal.rule)
        guard let at = position(ofValue: [[.name(field), rule, .index(1)], [.name(field), rule]], function: function,
                                id: entity, site: site) else { return LuaRaise(refusal.message) }
        return LuaRaise("\(at): \(refusal.message)", withPosition: false)
    }
}

extension LuaDeclarationTable {
    /// The first string written in the table or its nested tables whose text is `text` (by line, then column).
    func firstString(_ text: String) -> LuaSourceTokens.Token? {
        var best: LuaSourceTokens.Token?
        func visit(_ v: Value) {
            switch v {
            case .string(let s) where s.text == text:
                if best.map({ (s.line, s.column) < ($0.line, $0.column) }) ?? true { best = s }
            case .table(let t):
                for x in t.named.values { visit(x) }
                for x in t.positional { visit(x) }
            default: return
            }
        }
        visit(.table(self))
        return best
    }
}

extension LuaApp {
    /// `okit.strings(language, { Edit = 5 })`: a string that is not text (the page would show nothing, or a number
    /// where a word belongs), at its value.
    func stringsRefusal(_ first: (key: String, type: String), also: [String], written: String, site: String?) -> LuaRaise {
        let key = first.key.contains(where: { !($0.isLetter || $0.isNumber || $0 == "_") }) || first.key.first?.isNumber == true
            ? "[\"\(first.key)\"]" : first.key
        var text = "okit.strings(\"\(written)\"): the string of \"\(first.key)\" is a \(first.type), not text; "
            + "write it in quotes, like \(key) = \"…\""
        if !also.isEmpty { text += "; also not text: " + also.map { "\"\($0)\"" }.joined(separator: ", ") }
        guard let at = position(ofValue: [[.name(first.key)]], function: "strings", id: written, site: site) else { return LuaRaise(text) }
        return LuaRaise("\(at): \(text)", withPosition: false)
    }
}

extension LuaApp {
    /// A load error about one field of `okit.entity` (an unknown type, a default or rule it refuses, a reserved
    /// name): at the field's name in the file, as a misspelled rule key is; at the call's line when the source does
    /// not show the field.
    func fieldError(_ message: String, entity: String, field: String, function: String = "entity", site: String?) -> LuaRaise {
        var sources: [String: LuaDeclarationSource?] = [:]
        guard let at = position(ofKey: field, in: [], function: function, id: entity, site: site, sources: &sources) else {
            return LuaRaise(site.map { "\($0): \(message)" } ?? message, withPosition: site == nil)
        }
        return LuaRaise("\(at): \(message)", withPosition: false)
    }

    /// The schema's refusal of an entity type: one about a field (a reserved name, a default its type refuses) at
    /// the field.
    func schemaRefusal(_ error: Error, entity: String, function: String, site: String?) -> LuaRaise {
        let message = "okit.\(function): \(error)"
        switch error as? SchemaError {
        case .reservedField(_, let field)?, .badDefault(_, let field, _)?, .duplicateField(_, let field)?:
            return fieldError(message, entity: entity, field: field, function: function, site: site)
        default: return LuaRaise(message)
        }
    }
}
