import Foundation

extension BindingEvaluator {
    /// `@count`, `@sum`, … on a collection or list. Keys after the aggregate apply to each element first
    /// (`books.@sum.copies` is `books/copies/@sum`).
    func aggregate(_ agg: Aggregate, _ v: Value, rest: ArraySlice<Key>) throws -> Value {
        var elements: [Value]
        switch v {
        case .collection(let c):
            engine.graph.recordMembers(c)
            elements = Array(c.items)
        case .list(let l): elements = l
        case .null: elements = []
        default: elements = [v]
        }
        if !rest.isEmpty, agg != .count {
            elements = try elements.map { try evaluateKeys($0, rest) }
            elements = elements.flatMap { $0.elements ?? [$0] }
        }
        return Aggregates.reduce(agg, elements)
    }
}

/// Reductions of collection values.
public enum Aggregates {
    public static func reduce(_ agg: Aggregate, _ elements: [Value]) -> Value {
        switch agg {
        case .count:
            return .int(elements.count)
        case .first:
            return elements.first ?? .null
        case .last:
            return elements.last ?? .null
        case .sum:
            return sum(elements) ?? .int(0)
        case .avg:
            let nums = elements.compactMap { $0.numeric }
            guard !nums.isEmpty, let s = sum(nums)?.doubleValue else { return .null }
            return .double(s / Double(nums.count))
        case .min:
            return elements.filter { !$0.isNull }.min { ValueOrder.less($0, $1) } ?? .null
        case .max:
            return elements.filter { !$0.isNull }.max { ValueOrder.less($0, $1) } ?? .null
        case .distinct:
            var out: [Value] = []
            var seenIds: Set<ObjectIdentifier> = []
            for e in elements {
                if case .entity(let x) = e {
                    if seenIds.insert(ObjectIdentifier(x)).inserted { out.append(e) }
                } else if !out.contains(where: { ValueOrder.equal($0, e) }) {
                    out.append(e)
                }
            }
            return .list(out)
        }
    }

    /// Sum of the numeric elements: an int while every element is an int and nothing overflows, else a double.
    static func sum(_ elements: [Value]) -> Value? {
        var isInt = true
        var i = 0
        var d = 0.0
        for e in elements {
            switch e.numeric {
            case .int(let x)?:
                if isInt {
                    let (r, o) = i.addingReportingOverflow(x)
                    if o { isInt = false; d = Double(i) + Double(x) } else { i = r }
                } else { d += Double(x) }
            case .double(let x)?:
                if isInt { isInt = false; d = Double(i) }
                d += x
            default: continue
            }
        }
        return isInt ? .int(i) : .double(d)
    }
}
