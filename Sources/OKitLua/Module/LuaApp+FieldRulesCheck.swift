import Foundation
import OKitEngine

/// `okit-run check` of the validation rules in `okit.entity` (lua-api.md "Validation"): a rule on a field type it
/// cannot apply to, a `min` above its `max`, a negative `maxLength`, a malformed pattern. One line each,
/// `FILE:LINE:COL: entity T, field F: message`, at the rule's value in the file.
extension LuaApp {
    /// A rule problem of one field, before it is placed in the file.
    struct FieldRuleProblem {
        let entity: String
        let field: String
        let rule: FieldRule
        let message: String
    }

    /// The problems of every declared type's rules, in declaration order.
    func fieldRuleProblems() -> [FieldRuleProblem] {
        var out: [FieldRuleProblem] = []
        for name in engine.schema.order {
            guard let type = engine.schema.type(named: name) else { continue }
            for spec in type.fields {
                guard let rules = spec.rules else { continue }
                for (rule, message) in LuaApp.problems(of: rules, on: spec) {
                    out.append(FieldRuleProblem(entity: name, field: spec.name, rule: rule, message: message))
                }
            }
        }
        return out
    }

    /// What is wrong with one field's rules, by rule.
    static func problems(of rules: FieldRules, on spec: FieldSpec) -> [(FieldRule, String)] {
        var out: [(FieldRule, String)] = []
        let typeName = spec.type.declaration
        let numeric: Bool
        switch spec.type {
        case .int, .double: numeric = true
        default: numeric = false
        }
        var isString = false
        if case .string = spec.type { isString = true }
        if rules.required, spec.type.isCollection {
            out.append((.required, "required does not apply to \(typeName) fields (it checks a value, not a collection)"))
        }
        for (rule, bound) in [(FieldRule.min, rules.min), (.max, rules.max)] where bound != nil && !numeric {
            out.append((rule, "\(rule.rawValue) applies to int and double fields, not to \(typeName) fields" + (isString ? " (use maxLength for a string's length)" : "")))
        }
        if numeric, let lo = rules.min, let hi = rules.max, lo > hi {
            out.append((.min, "min \(Value.displayDouble(lo)) is greater than max \(Value.displayDouble(hi)): no value is valid"))
        }
        if let n = rules.maxLength {
            if !isString { out.append((.maxLength, "maxLength applies to string fields, not to \(typeName) fields")) }
            else if n < 0 { out.append((.maxLength, "maxLength \(n) is negative: no value is valid")) }
        }
        if let p = rules.pattern {
            if !isString { out.append((.pattern, "pattern applies to string fields, not to \(typeName) fields")) }
            if let problem = LuaPatternSyntax.problem(in: p.source) {
                out.append((.pattern, "pattern \"\(p.source)\" is malformed: \(problem)"))
            }
        }
        return out
    }

    /// The problems as check lines, each at its rule's value in the file (the `okit.entity` call's line when the
    /// source cannot be read).
    func fieldRuleProblemLines(sources: inout [String: LuaDeclarationSource?]) -> [String] {
        let located = fieldRuleProblems().map { p in
            (place: location(of: p, sources: &sources), line: "entity \(p.entity), field \(p.field): \(p.message)")
        }
        // In file order (fields are declared in the order of their names).
        func key(_ place: String) -> (String, Int, Int) {
            let parts = place.split(separator: ":")
            guard parts.count >= 3 else { return (place, 0, 0) }
            return (parts.dropLast(2).joined(separator: ":"), Int(parts[parts.count - 2]) ?? 0, Int(parts[parts.count - 1]) ?? 0)
        }
        return located.enumerated().sorted { a, b in
            let (x, y) = (key(a.element.place), key(b.element.place))
            return x != y ? x < y : a.offset < b.offset
        }.map { "\($0.element.place): \($0.element.line)" }
    }

    func location(of p: FieldRuleProblem, sources: inout [String: LuaDeclarationSource?]) -> String {
        let fallbackFile = appFile?.lastPathComponent ?? "app"
        guard let site = declarationSites[p.entity] ?? nil, let colon = site.lastIndex(of: ":"),
              let line = Int(site[site.index(after: colon)...]) else { return "\(fallbackFile):1:1" }
        let chunk = String(site[..<colon])
        if sources[chunk] == nil { sources[chunk] = declarationSource(chunk) }
        guard let source = sources[chunk] ?? nil, let call = source.call("entity", id: p.entity, line: line) else {
            return "\(chunk):\(line):1"
        }
        let key = p.rule == .all ? "message" : p.rule.rawValue
        if let at = call.table?.position(of: [.name(p.field), .name(key)], column: 1) ?? call.table?.position(of: [.name(p.field)], column: 1) {
            return "\(chunk):\(at.line):\(at.column)"
        }
        if let id = call.id { return "\(chunk):\(id.line):\(id.column + 1)" }
        return "\(chunk):\(line):1"
    }
}
