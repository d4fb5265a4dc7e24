import Foundation
import OKitEngine

/// A misspelled name of okit's module at load (`okit.cell.txt { … }`, `okit.entty(…)`): Lua says only `attempt to
/// call a nil value (field 'txt')`; the app's load error adds what okit has by that name's closest spelling and
/// where the names are listed (lua-api.md), as a misspelled property or field type is told.
extension LuaApp {
    /// `message` with a hint when it is Lua's nil call or index of a field that the message's line reads off
    /// `okit.` or `okit.cell.`, and okit has a name close to it.
    func withOKitNameHint(_ message: String, source: String) -> String {
        guard let field = Self.nilField(in: message), let (_, line) = LuaState.lineOfMessage(message) else { return message }
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return message }
        let text = String(lines[line - 1])
        for (prefix, table) in [("okit.cell.", "okit.cell"), ("okit.", "okit")] where text.contains(prefix + field) {
            let known = moduleNames(table)
            guard !known.isEmpty, !known.contains(field) else { return message }
            let meant = NameSuggestion.closest(to: field, in: known)
            let kind = table == "okit.cell" ? "cell kind" : "function"
            return message + "\n  \(table) has no \(kind) \"\(field)\""
                + (meant.map { ": did you mean \(table).\($0)?" } ?? "")
                + " (\(table == "okit.cell" ? "screens.md \"Cells\"" : "lua-api.md") lists them)"
        }
        return message
    }

    /// The field of Lua's `attempt to call a nil value (field 'x')` (or `to index`).
    static func nilField(in message: String) -> String? {
        guard message.contains("attempt to call a nil value (field '") || message.contains("attempt to index a nil value (field '"),
              let start = message.range(of: "(field '") else { return nil }
        let rest = message[start.upperBound...]
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<end])
    }

    /// The names of the table at `path` (`okit`, `okit.cell`) in the app's Lua state.
    func moduleNames(_ path: String) -> [String] {
        let source = "local t = \(path); local out = {}; if type(t) == 'table' then for k in pairs(t) do "
            + "if type(k) == 'string' then out[#out + 1] = k end end end; return table.concat(out, ' ')"
        guard case .string(let joined)? = try? lua.evaluate(source, chunkName: "=okit names") else { return [] }
        return joined.split(separator: " ").map(String.init)
    }
}
