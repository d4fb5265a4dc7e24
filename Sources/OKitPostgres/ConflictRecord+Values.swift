import Foundation
import OKitEngine

extension ConflictRecord {
    /// A column's value as JSON text.
    static func json(_ v: RelationalValue?, _ m: RelationalTable.Mapping?) -> String {
        guard let v else { return "null" }
        switch v {
        case .null: return "null"
        case .int64(let i):
            if case .bool? = m { return i != 0 ? "true" : "false" }
            return String(i)
        case .double(let d): return d.isFinite ? "\(d)" : "null"
        case .string(let s):
            switch m {
            case .json?, .binaryMeta?: return s
            default:
                var w = JSONWriter(capacity: s.utf8.count + 2)
                w.string(s)
                return String(decoding: w.out.buffer, as: UTF8.self)
            }
        case .blob(let b): return "\"" + b.base64EncodedString() + "\""
        }
    }
}
