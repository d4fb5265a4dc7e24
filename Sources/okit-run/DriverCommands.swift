import Foundation
import OKitEngine

/// Turns JSON-lines and shell commands into driver calls: a command object's fields become named arguments.
enum DriverCommands {
    /// Runs a command object (`{"cmd": NAME, …}`); true when the session ends (`quit`).
    static func run(_ driver: Driver, _ cmd: String, _ o: [String: Any]) throws -> Bool {
        var args: [String: Value] = [:]
        for (k, v) in o where k != "cmd" { args[k] = value(v) }
        return try driver.run(cmd, args)
    }

    /// A JSON value as an engine value (arrays become lists: row pairs, prompt fields).
    static func value(_ v: Any?) -> Value {
        switch v {
        case let n as NSNumber:
            // JSON true/false arrive as boolean NSNumbers (objCType "c"); 0 and 1 are numbers.
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            let d = n.doubleValue
            return d == d.rounded() && abs(d) < 9e15 ? .int(Int(d)) : .double(d)
        case let s as String: return .string(s)
        case let a as [Any]: return .list(a.map { value($0) })
        case let o as [String: Any] where (o["secret"] as? Bool) == true:
            return .string(Driver.secretPlaceholder)   // a secret the session log left out (Driver+Secrets)
        default: return .null
        }
    }
}
