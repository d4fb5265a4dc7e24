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

/// A function of the whole Lua standard library that okit's sandbox leaves out (`os.getenv`, `io.open`, `dofile`):
/// Lua says only `attempt to call a nil value (field 'getenv')`; the load error adds that it is outside the sandbox
/// and that `--unsafe` gives it (lua-api.md "Sandbox and limits").
extension LuaApp {
    /// What the sandbox removes of the standard library, by table (`""`: globals).
    static let sandboxedNames: [String: Set<String>] = [
        "os": ["execute", "exit", "getenv", "remove", "rename", "setlocale", "tmpname"],
        "io": ["open", "close", "read", "write", "lines", "input", "output", "popen", "tmpfile", "type", "stdin", "stdout", "stderr"],
        "debug": ["debug", "gethook", "getinfo", "getlocal", "getmetatable", "getregistry", "getupvalue", "getuservalue",
                  "sethook", "setlocal", "setmetatable", "setupvalue", "setuservalue", "upvalueid", "upvaluejoin"],
        "string": ["dump"], "package": ["loadlib", "searchpath", "cpath"], "": ["io", "dofile", "loadfile"],
    ]

    /// `message` with the sandbox's advice when it is Lua's nil call or index of a name the sandbox removed, as
    /// the message's line writes it (`os.getenv(…)`); as it is otherwise, and under `--unsafe`.
    func withSandboxHint(_ message: String) -> String {
        guard !options.unsafe, let (_, line) = LuaState.lineOfMessage(message),
              let colon = message.firstIndex(of: ":") else { return message }
        let name: String
        if let field = Self.nilField(in: message) {
            guard let tokens = declarationSource(String(message[..<colon]))?.tokens else { return message }
            // `os . getenv` as the line writes it.
            let written = tokens.indices.dropLast(2).first { k in
                tokens[k].line == line && tokens[k].kind == .name && tokens[k + 1].text == "." && tokens[k + 2].text == field
                    && Self.sandboxedNames[tokens[k].text]?.contains(field) == true
            }
            guard let k = written else { return message }
            name = "\(tokens[k].text).\(field)"
        } else if let global = Self.nilGlobal(in: message), Self.sandboxedNames[""]?.contains(global) == true {
            name = global
        } else {
            return message
        }
        return message + "\n  \(name) is outside okit's sandbox (lua-api.md \"Sandbox and limits\"): okit-run --unsafe "
            + "gives app code the whole Lua standard library (okit-run check --unsafe too)"
    }

    /// The global of Lua's `attempt to call a nil value (global 'x')` (or `to index`).
    static func nilGlobal(in message: String) -> String? {
        guard message.contains("attempt to call a nil value (global '") || message.contains("attempt to index a nil value (global '"),
              let start = message.range(of: "(global '") else { return nil }
        let rest = message[start.upperBound...]
        return rest.firstIndex(of: "'").map { String(rest[..<$0]) }
    }
}
