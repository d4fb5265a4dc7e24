import Foundation

/// Two trees of entities compared as stored data: field by field, refs by their targets' ids, dates to the
/// millisecond (a database keeps three fraction digits), unknown fields by name and JSON.
package enum ModelComparison {
    package static func difference(_ a: Entity, _ b: Entity, path: String) -> String? {
        guard a.type === b.type else { return "\(path): a \(a.type.name) against a \(b.type.name)" }
        if a.type.isRef {
            return RelationalColumnValue.refKey(.entity(a)) == RelationalColumnValue.refKey(.entity(b)) ? nil : "\(path): another reference"
        }
        for slot in 0..<a.type.fields.count {
            let name = a.type.fields[slot].name
            if let d = difference(a.values[slot], b.values[slot], path: path + "/" + name) { return d }
        }
        let ua = (a.unknownFields ?? []).map { "\($0.key)=\(String(decoding: $0.json, as: UTF8.self))" }.sorted()
        let ub = (b.unknownFields ?? []).map { "\($0.key)=\(String(decoding: $0.json, as: UTF8.self))" }.sorted()
        return ua == ub ? nil : "\(path): the fields this app does not know differ"
    }

    package static func difference(_ a: Value, _ b: Value, path: String) -> String? {
        switch (a, b) {
        case (.entity(let x), .entity(let y)): return difference(x, y, path: path)
        case (.collection(let x), .collection(let y)):
            guard x.count == y.count, x.keys == y.keys else { return "\(path): \(x.count) items against \(y.count)" }
            for i in 0..<x.count {
                if let d = difference(x.items[i], y.items[i], path: path + "[\(i)]") { return d }
            }
            return nil
        case (.date(let x), .date(let y)):
            return (x.timeIntervalSince1970 * 1000).rounded() == (y.timeIntervalSince1970 * 1000).rounded() ? nil : "\(path): \(x) against \(y)"
        case (.double(let x), .double(let y)) where !x.isFinite && !y.isFinite: return nil
        default:
            return a.isSame(as: b) ? nil : "\(path): \(a) against \(b)"
        }
    }
}
