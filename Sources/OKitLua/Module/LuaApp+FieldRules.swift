import CLua
import Foundation
import OKitEngine

/// A field's validation rules in `okit.entity`'s long form (lua-api.md "Validation"):
/// `{ "string", required = true, maxLength = 40, pattern = "^%u", message = "…", label = "…" }`, each rule also as
/// `{ value, message = "…" }`, and `validate = function(value, entity) return ok, message end`. Values of the wrong
/// Lua type are load errors; rules that cannot apply (a `min` above its `max`, a malformed pattern) are check
/// findings (LuaApp+FieldRulesCheck.swift).
extension LuaApp {
    static let ruleKeys: [String] = ["required", "min", "max", "maxLength", "pattern", "validate", "message", "label"]
    /// The names the long form of a field takes, after its type.
    static let fieldTableKeys: [String] = ["default", "didSet"] + ruleKeys
    /// Names other tools give a rule, and the rule's name here.
    static let ruleSynonyms: [String: String] = ["minimum": "min", "maximum": "max", "minValue": "min", "maxValue": "max",
                                                 "regex": "pattern", "validator": "validate", "length": "maxLength"]

    /// The rule a name the field table does not take means: a synonym (`minimum` → `min`), or a misspelled one
    /// (`minimun` → `min`) when no name it takes is close.
    static func ruleMeant(_ name: String) -> String? {
        if let rule = ruleSynonyms[name] { return rule }
        guard NameSuggestion.closest(to: name, in: fieldTableKeys) == nil,
              let synonym = NameSuggestion.closest(to: name, in: ruleSynonyms.keys) else { return nil }
        return ruleSynonyms[synonym]
    }

    /// Refuses what the long-form field table at `v` does not take: a name that is no option or rule (`minimum`,
    /// `requierd`, `rules = { … }`), at the name's line and column, and a list item after the type.
    func refuseUnknownFieldKeys(entity: String, _ key: String, table v: Int32, function: String, site: String?) throws {
        let what = "okit.\(function)(\"\(entity)\"), field \"\(key)\""
        let names = unknownNames(v, known: LuaApp.fieldTableKeys)
        if let unknown = names.first {
            let advice = names.contains("rules") ? "rules are written in the field's table itself, like { \"string\", required = true }" : nil
            throw unknownKeyError(unknown, known: LuaApp.fieldTableKeys, what: what, function: function, id: entity,
                                  in: [.name(key)], site: site, meaning: LuaApp.ruleMeant, advice: advice,
                                  also: Array(names.dropFirst()))
        }
        let t = lua_absindex(lua.L, v)
        lua.pushNil()
        while lua_next(lua.L, t) != 0 {
            lua.pop()
            if lua_type(lua.L, -1) == LUA_TSTRING { continue }
            if lua_type(lua.L, -1) == LUA_TNUMBER, lua_isinteger(lua.L, -1) != 0, lua_tointegerx(lua.L, -1, nil) == 1 { continue }
            lua.pop()
            throw LuaRaise("\(what): the long form is the type, then names: { \"string\", default = …, required = true }; "
                           + "a list item after the type is not one")
        }
        for rule in LuaApp.ruleKeys where rule != "validate" {
            defer { lua.pop() }
            if lua.rawGet(v, rule) == LUA_TTABLE {
                try refuseUnknownRuleKeys(entity: entity, key, rule: rule, table: -1, function: function, site: site)
            }
        }
    }

    /// The names a rule's own table `{ value, message = "…" }` takes.
    static let ruleTableKeys: [String] = ["message"]
    /// Names other tools give a rule's message.
    static let ruleTableSynonyms: [String: String] = ["msg": "message", "text": "message", "error": "message", "messages": "message"]

    /// Refuses what the rule's own table at `t` does not take, at its line and column: a name that is not `message`
    /// (`mesage`), and a list item after the value (`{ 900, "Como mucho 900" }`: a message is named).
    func refuseUnknownRuleKeys(entity: String, _ key: String, rule: String, table t: Int32, function: String, site: String?) throws {
        let what = "okit.\(function)(\"\(entity)\"), field \"\(key)\", rule \(rule)"
        let advice = "a rule's own table is { value, message = \"…\" }"
        let path: [DeclarationKey] = [.name(key), .name(rule)]
        let names = unknownNames(t, known: LuaApp.ruleTableKeys)
        if let unknown = names.first {
            throw unknownKeyError(unknown, known: LuaApp.ruleTableKeys, what: what, function: function, id: entity, in: path,
                                  site: site, meaning: { LuaApp.ruleTableSynonyms[$0] }, advice: advice, also: Array(names.dropFirst()))
        }
        let table = lua_absindex(lua.L, t)
        var extra: Int?
        lua.pushNil()
        while lua_next(lua.L, table) != 0 {
            lua.pop()
            if lua_type(lua.L, -1) == LUA_TSTRING { continue }
            if lua_type(lua.L, -1) == LUA_TNUMBER, lua_isinteger(lua.L, -1) != 0 {
                let i = Int(clamping: lua_tointegerx(lua.L, -1, nil))
                if i == 1 { continue }
                if i >= 2 { extra = min(extra ?? i, i); continue }
            }
            extra = extra ?? 2
        }
        guard let extra else { return }
        lua_rawgeti(lua.L, table, lua_Integer(extra))
        defer { lua.pop() }
        let hint = lua.string(at: -1).map { " (did you mean message = \"\(ShellError.brief($0))\"?)" } ?? ""
        let text = "\(what): a list item after the rule's value\(hint); \(advice)"
        var sources: [String: LuaDeclarationSource?] = [:]
        guard let at = position(ofItem: extra, in: path, function: function, id: entity, site: site, sources: &sources) else {
            throw LuaRaise(text)
        }
        throw LuaRaise("\(at): \(text)", withPosition: false)
    }

    /// The rules of the long-form field table at `v`, or nil when it has none.
    func fieldRules(entity: String, _ key: String, table v: Int32) throws -> FieldRules? {
        var rules = FieldRules()
        var any = false
        func fail(_ rule: String, _ text: String) -> FieldRuleRefusal {
            FieldRuleRefusal(rule: rule, message: "okit.entity(\"\(entity)\"), field \"\(key)\": \(text)")
        }
        /// Pushes the rule's value (the first item of `{ value, message = … }`), noting its message; false when absent.
        func open(_ rule: FieldRule) throws -> Bool {
            if lua.rawGet(v, rule.rawValue) == LUA_TNIL { lua.pop(); return false }
            if lua_type(lua.L, -1) == LUA_TTABLE, rule != .validate {
                let t = lua_absindex(lua.L, -1)
                switch lua.rawGet(t, "message") {
                case LUA_TNIL: break
                case LUA_TSTRING: rules.messages[rule] = lua.string(at: -1)
                default:
                    lua.pop(2)
                    throw fail(rule.rawValue, "\(rule.rawValue)'s message must be a string, like \(rule.rawValue) = { 1, message = \"…\" }")
                }
                lua.pop()
                lua_rawgeti(lua.L, t, 1)
                lua_rotate(lua.L, t, -1)   // (table, value) → (value, table)
                lua.pop()
            }
            any = true
            return true
        }
        if try open(.required) {
            defer { lua.pop() }
            guard lua_type(lua.L, -1) == LUA_TBOOLEAN else { throw fail("required", "required must be true or false") }
            rules.required = lua_toboolean(lua.L, -1) != 0
        }
        for rule in [FieldRule.min, .max] {
            guard try open(rule) else { continue }
            defer { lua.pop() }
            guard lua_type(lua.L, -1) == LUA_TNUMBER else { throw fail(rule.rawValue, "\(rule.rawValue) must be a number, like \(rule.rawValue) = 0") }
            let n = lua_tonumberx(lua.L, -1, nil)
            if rule == .min { rules.min = n } else { rules.max = n }
        }
        if try open(.maxLength) {
            defer { lua.pop() }
            guard lua_type(lua.L, -1) == LUA_TNUMBER, lua_isinteger(lua.L, -1) != 0 else {
                throw fail("maxLength", "maxLength must be a whole number of characters, like maxLength = 40")
            }
            rules.maxLength = Int(clamping: lua_tointegerx(lua.L, -1, nil))
        }
        if try open(.pattern) {
            defer { lua.pop() }
            guard lua_type(lua.L, -1) == LUA_TSTRING, let p = lua.string(at: -1) else {
                throw fail("pattern", "pattern must be a Lua pattern string, like pattern = \"^%u%u%d+$\"")
            }
            rules.pattern = FieldPattern(p) { [unowned self] s in try patternMatches(s, p) }
        }
        if lua.rawGet(v, "validate") == LUA_TFUNCTION {
            let ref = lua.ref()
            rules.validate = { [unowned self] value, e in try callValidate(ref, value, e) }
            any = true
        } else {
            defer { lua.pop() }
            if !lua.isNil(at: -1) { throw fail("validate", "validate must be a function(value, entity) returning ok, message") }
        }
        do {
            defer { lua.pop() }
            switch lua.rawGet(v, "message") {
            case LUA_TNIL: break
            case LUA_TSTRING: rules.messages[.all] = lua.string(at: -1)
            default: throw fail("message", "message must be a string")
            }
        }
        do {
            defer { lua.pop() }
            switch lua.rawGet(v, "label") {
            case LUA_TNIL: break
            case LUA_TSTRING: rules.label = lua.string(at: -1)
            default: throw fail("label", "label must be a string")
            }
        }
        return any ? rules : nil
    }

    /// Whether `string.find(s, pattern)` finds a match, exactly, under a real step budget (`LuaPattern.find`):
    /// out of steps, the rule does not hold (its message is shown) and the developer is warned. A malformed
    /// pattern raises Lua's error, as `string.find` does.
    func patternMatches(_ s: String, _ pattern: String) throws -> Bool {
        switch LuaPattern.find(s, pattern) {
        case .found: return true
        case .notFound: return false
        case .tooCostly(let steps):
            engine.warn("pattern \"\(pattern)\" took more than \(steps) matcher steps on a value of \(s.utf8.count) bytes: "
                        + "the value was refused as not in the expected format; write a pattern that backtracks less")
            return false
        case .malformed: break
        }
        let t = lua.top
        defer { lua.top = t }
        lua_getglobal(lua.L, "string")
        lua_getfield(lua.L, -1, "find")
        lua.push(s)
        lua.push(pattern)
        try lua.pcall(nargs: 2, nresults: 1)
        return !lua.isNil(at: -1)
    }

    /// Calls a `validate` function with the value and the entity: nil when its first result is true, else its
    /// message (a string second result; "" for none).
    func callValidate(_ fn: LuaRef, _ value: Value, _ e: Entity) throws -> String? {
        let t = lua.top
        defer { lua.top = t }
        fn.push()
        push(value)
        push(.entity(e))
        try lua.pcall(nargs: 2, nresults: 2)
        if lua_toboolean(lua.L, -2) != 0 { return nil }
        return lua_type(lua.L, -1) == LUA_TSTRING ? lua.string(at: -1) ?? "" : ""
    }
}

extension LuaApp {
    /// A prompt field's `rules = { entity, "field" }` (the prompt field at `f`, 0-based `index`): the entity and
    /// field whose rules check its value; nil when the field has none.
    func promptFieldRules(_ f: Int32, index: Int) throws -> (entity: Entity, field: String)? {
        let t = lua.top
        defer { lua.top = t }
        let type = lua.rawGet(f, "rules")
        if type == LUA_TNIL { return nil }
        let usage = "okit.prompt, field \(index + 1): rules must be { entity, \"field\" }, like rules = { self, \"name\" }"
        guard type == LUA_TTABLE else { throw LuaRaise(usage) }
        let r = lua_absindex(lua.L, -1)
        lua_rawgeti(lua.L, r, 1)
        guard let e = lua.object(at: -1, metatable: OKitTypes.entity, as: Entity.self) else { throw LuaRaise(usage) }
        lua_rawgeti(lua.L, r, 2)
        guard lua_type(lua.L, -1) == LUA_TSTRING, let name = lua.string(at: -1) else { throw LuaRaise(usage) }
        guard e.type.field(named: name) != nil else {
            throw LuaRaise("okit.prompt, field \(index + 1): \(e.type.name) has no field \"\(name)\" to take rules from")
        }
        return (e, name)
    }
}
