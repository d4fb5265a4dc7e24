import Foundation

/// Evaluates `=…` expressions (bindings.md, "Expressions").
struct ExpressionEvaluator {
    let base: BindingEvaluator

    func evaluate(_ e: Expression) throws -> Value {
        switch e {
        case .literal(let v): return v
        case .localized(let key): return .string(base.engine.localize(key))
        case .path(let p): return try base.evaluate(p)
        case .negate(let x): return Arithmetic.negate(try evaluate(x))
        case .not(let x): return .bool(!(try evaluate(x)).truthy)
        case .and(let l, let r):
            let a = try evaluate(l)
            return a.truthy ? try evaluate(r) : a
        case .or(let l, let r):
            let a = try evaluate(l)
            return a.truthy ? a : try evaluate(r)
        case .ternary(let c, let a, let b):
            return try evaluate(c).truthy ? try evaluate(a) : try evaluate(b)
        case .binary(let op, let l, let r):
            return binary(op, try evaluate(l), try evaluate(r))
        case .between(let x, let lo, let hi):
            let v = try evaluate(x)
            guard let a = ValueOrder.compare(try evaluate(lo), v), let b = ValueOrder.compare(v, try evaluate(hi)) else {
                return .bool(false)
            }
            return .bool(a <= 0 && b <= 0)
        case .inList(let x, let list):
            let v = try evaluate(x)
            for item in list where ValueOrder.equal(v, try evaluate(item)) { return .bool(true) }
            return .bool(false)
        case .call(let name, let args, _):
            return try call(name, args)
        }
    }

    func binary(_ op: BinaryOperator, _ a: Value, _ b: Value) -> Value {
        switch op {
        case .add, .subtract, .multiply, .divide, .modulo:
            return Arithmetic.apply(op, a, b)
        case .concat:
            return .string((a.displayString ?? "") + (b.displayString ?? ""))
        case .equal: return .bool(ValueOrder.equal(a, b))
        case .notEqual: return .bool(!ValueOrder.equal(a, b))
        case .less: return .bool(ValueOrder.compare(a, b).map { $0 < 0 } ?? false)
        case .lessEqual: return .bool(ValueOrder.compare(a, b).map { $0 <= 0 } ?? false)
        case .greater: return .bool(ValueOrder.compare(a, b).map { $0 > 0 } ?? false)
        case .greaterEqual: return .bool(ValueOrder.compare(a, b).map { $0 >= 0 } ?? false)
        }
    }

    func call(_ name: String, _ args: [Expression]) throws -> Value {
        switch name {
        case "if":
            guard args.count >= 2 else { return .null }
            if try evaluate(args[0]).truthy { return try evaluate(args[1]) }
            return args.count > 2 ? try evaluate(args[2]) : .null
        case "coalesce":
            for a in args {
                let v = try evaluate(a)
                if !v.isNull, !(v.displayString == nil && isString(v)) { return v }
            }
            return .null
        case "min", "max":
            let values = try flatten(args.map { try evaluate($0) }).filter { !$0.isNull }
            let best = name == "min" ? values.min(by: ValueOrder.less) : values.max(by: ValueOrder.less)
            return best ?? .null
        case "abs":
            guard let first = args.first else { return .null }
            switch try evaluate(first).numeric {
            case .int(let i)?: return i == Int.min ? .double(-Double(i)) : .int(abs(i))
            case .double(let d)?: return .double(abs(d))
            default: return .null
            }
        case "len":
            guard let first = args.first else { return .null }
            let v = try evaluate(first)
            switch v {
            case .string(let s): return .int(s.count)
            case .collection(let c):
                base.engine.graph.recordMembers(c)
                return .int(c.count)
            case .list(let l): return .int(l.count)
            case .null: return .int(0)
            default: return .int(v.displayString?.count ?? 0)
            }
        default:
            guard let first = args.first else {
                return try base.call(name, on: base.start.map { .entity($0) } ?? .null, args: [])
            }
            let receiver = try evaluate(first)
            let rest = try args.dropFirst().map { try evaluate($0) }
            return try base.call(name, on: receiver, args: rest)
        }
    }

    private func isString(_ v: Value) -> Bool { if case .string = v { return true }; return false }

    private func flatten(_ values: [Value]) -> [Value] {
        values.flatMap { v -> [Value] in
            if case .entity = v { return [v] }
            return v.elements ?? [v]
        }
    }
}

/// Arithmetic of expressions: ints stay ints until they overflow (then doubles); `/` is float division,
/// `%` floored; division or modulo by zero gives nil; non-numbers give nil.
public enum Arithmetic {
    public static func apply(_ op: BinaryOperator, _ a: Value, _ b: Value) -> Value {
        guard let x = a.numeric, let y = b.numeric else { return .null }
        if case .int(let i) = x, case .int(let j) = y {
            switch op {
            case .add:
                let (r, o) = i.addingReportingOverflow(j)
                return o ? .double(Double(i) + Double(j)) : .int(r)
            case .subtract:
                let (r, o) = i.subtractingReportingOverflow(j)
                return o ? .double(Double(i) - Double(j)) : .int(r)
            case .multiply:
                let (r, o) = i.multipliedReportingOverflow(by: j)
                return o ? .double(Double(i) * Double(j)) : .int(r)
            case .divide:
                return j == 0 ? .null : .double(Double(i) / Double(j))
            case .modulo:
                if j == 0 { return .null }
                if j == -1 { return .int(0) }
                let m = i % j
                return .int(m != 0 && (m < 0) != (j < 0) ? m + j : m)
            default: return .null
            }
        }
        guard let p = x.doubleValue, let q = y.doubleValue else { return .null }
        switch op {
        case .add: return .double(p + q)
        case .subtract: return .double(p - q)
        case .multiply: return .double(p * q)
        case .divide: return q == 0 ? .null : .double(p / q)
        case .modulo:
            if q == 0 { return .null }
            let m = p.truncatingRemainder(dividingBy: q)
            return .double(m != 0 && (m < 0) != (q < 0) ? m + q : m)
        default: return .null
        }
    }

    public static func negate(_ v: Value) -> Value {
        switch v.numeric {
        case .int(let i)?: return i == Int.min ? .double(-Double(i)) : .int(-i)
        case .double(let d)?: return .double(-d)
        default: return .null
        }
    }
}
