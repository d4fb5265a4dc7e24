import CLua

/// Lua patterns outside a Lua call: a field's `pattern` rule asks here (lua-api.md "Validation: field rules").
public enum LuaPattern {
    /// The matcher steps one rule check may take (10^8).
    public static let ruleSteps: Int64 = 100_000_000

    public enum Outcome: Equatable {
        case found, notFound
        /// The pattern is malformed (Lua's words: `malformed pattern (missing ']')`).
        case malformed(String)
        /// The matcher took `steps` steps without an answer.
        case tooCostly(steps: Int64)
    }

    /// Whether `string.find(subject, pattern)` finds a match, exactly: Lua's matcher run under a real step budget
    /// (Sources/CLua/pattern_match.c), not the sandbox's bound computed beforehand, and with no subject size limit.
    public static func find(_ subject: String, _ pattern: String, steps: Int64 = ruleSteps) -> Outcome {
        var s = subject, p = pattern
        return s.withUTF8 { sb in
            p.withUTF8 { pb in
                var left = steps
                var problem: UnsafePointer<CChar>?
                let r = sb.withMemoryRebound(to: CChar.self) { sc in
                    pb.withMemoryRebound(to: CChar.self) { pc in
                        okit_pattern_find_bounded(sc.baseAddress, sc.count, pc.baseAddress, pc.count, &left, &problem)
                    }
                }
                switch r {
                case 1: return .found
                case 0: return .notFound
                case OKIT_MATCH_BUDGET: return .tooCostly(steps: steps)
                default: return .malformed(problem.map { String(cString: $0) } ?? "malformed pattern")
                }
            }
        }
    }
}

extension LuaSandbox {
    /// Puts Lua's own `string.find`, `match`, `gmatch` and `gsub` back in a state the sandbox guarded: a test
    /// file's (testing.md: test and spec files run plain Lua 5.4, as under busted; the apps they launch keep
    /// their limits).
    public static func unguardPatterns(in state: LuaState) throws(LuaError) {
        guard okit_unguard_patterns(state.L) == LUA_OK else {
            throw LuaError(kind: .memory, message: "cannot restore the string library (out of memory)")
        }
    }
}
