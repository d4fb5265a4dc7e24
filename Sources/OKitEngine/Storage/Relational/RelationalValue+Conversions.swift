import Foundation

// The column values of the field values and keys the relational kinds write, named as the code that makes them
// reads best (`key.relationalValue`, `String.fromRelationalValue(v)`).

extension String {
    package var relationalValue: RelationalValue { .string(self) }
    /// `v` as a text (`RelationalValue.text`).
    package static func fromRelationalValue(_ v: RelationalValue) -> String? { v.text }
}

extension Int64 {
    package var relationalValue: RelationalValue { .int64(self) }
    /// `v` as an integer (`RelationalValue.integer`).
    package static func fromRelationalValue(_ v: RelationalValue) -> Int64? { v.integer }
}

extension Double {
    package var relationalValue: RelationalValue { .double(self) }
}

extension Data {
    package var relationalValue: RelationalValue { .blob(self) }
}
