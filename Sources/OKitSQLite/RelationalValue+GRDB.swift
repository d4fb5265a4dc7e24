import Foundation
import GRDB
import OKitEngine

/// The relational layer's values as GRDB's (`StatementArguments` binds them) and back.
extension RelationalValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .int64(let i): return i.databaseValue
        case .double(let x): return x.databaseValue
        case .string(let s): return s.databaseValue
        case .blob(let d): return d.databaseValue
        }
    }

    public static func fromDatabaseValue(_ d: DatabaseValue) -> RelationalValue? { RelationalValue(d) }

    init(_ d: DatabaseValue) {
        switch d.storage {
        case .null: self = .null
        case .int64(let i): self = .int64(i)
        case .double(let x): self = .double(x)
        case .string(let s): self = .string(s)
        case .blob(let b): self = .blob(b)
        }
    }
}
