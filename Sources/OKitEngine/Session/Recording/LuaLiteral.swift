import Foundation

/// Lua source text for the values a recorded flow test passes to `app:` commands (`FlowTestRecorder`): strings in
/// double quotes with quotes, backslashes and control characters escaped (other characters, non-ASCII included,
/// kept as UTF-8), numbers, booleans, lists as table constructors.
public enum LuaLiteral {
    /// A Lua string literal: `"Dune \"Messiah\""`. A control character is written as a decimal escape of three
    /// digits (`\010`), so a digit after it is never read as part of it.
    public static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let digits = String(scalar.value)
                out += "\\" + String(repeating: "0", count: 3 - digits.count) + digits
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A command argument as Lua: strings, numbers, booleans, dates as ISO 8601 text, lists as `{ … }`, an
    /// entity by its id; nothing (`nil`) for null and what has no text.
    public static func value(_ v: Value) -> String {
        switch v {
        case .null: return "nil"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d):
            if d.isNaN { return "0/0" }
            if d.isInfinite { return d < 0 ? "-math.huge" : "math.huge" }
            let text = Value.displayDouble(d)
            return text.contains(".") || text.contains("e") ? text : text + ".0"
        case .string(let s): return string(s)
        case .date(let d): return string(ISODate.format(d))
        case .list(let items): return items.isEmpty ? "{}" : "{ " + items.map(value).joined(separator: ", ") + " }"
        case .entity(let e): return e.id.map(string) ?? "nil"
        default: return v.displayString.map(string) ?? "nil"
        }
    }
}
