import Foundation
import OKitEngine

/// How `okit-run test` takes the keys of a `.busted` task (testing.md, "`.busted`"): a value of the wrong type stops
/// the run with a line naming it; busted's own keys that okit-run takes on the command line only are named with
/// that option; those the command line refuses (`lua`, `lang` other than `en`, …) are refused here too.
extension BustedProject {
    /// Keys read as a text or a list of texts, and keys read as true or false.
    static let textKeys = ["ROOT", "pattern", "exclude-pattern", "lpath", "cpath", "Xhelper", "Xoutput", "e", "tags",
                           "exclude-tags", "filter", "filter-out"]
    static let singleTextKeys = ["helper", "output"]
    static let boolKeys = ["verbose", "coverage", "shuffle", "ignore-lua", "enable-sound"] + flagKeys

    /// busted's keys that okit-run test takes on the command line only, with their option.
    static let commandLineKeys = ["list": "-l/--list", "run": "-r/--run TASK", "config-file": "-f/--config-file FILE",
                                  "directory": "-C DIR"]

    /// busted's keys that okit-run test checks: refused unless they ask for what okit does.
    static let checkedKeys = ["lua", "lang", "loaders", "enable-sound", "coverage-config-file", "ignore-lua"]

    /// The line for a key okit-run test does not read (printed as a warning).
    static func unreadLine(_ key: String, task: String) -> String {
        let prefix = ".busted, task \"\(task)\": \"\(key)\""
        if let option = commandLineKeys[key] {
            return prefix + " is busted's \(option), which okit-run test takes on the command line only; it is ignored"
        }
        return prefix + " is not read by okit-run test" + NameSuggestion.hint(for: key, in: readKeys) + "; it is ignored"
    }

    /// A value of the wrong type (`pattern = 5`): the run stops, naming it (busted stops or crashes there).
    static func checkTypes(_ task: [String: LuaValue], task name: String) throws {
        for (key, value) in task.sorted(by: { $0.key < $1.key }) {
            let wanted: String?
            if textKeys.contains(key) {
                wanted = isTextOrTexts(value) ? nil : "a text or a list of texts"
            } else if singleTextKeys.contains(key) {
                if case .string = value { wanted = nil } else { wanted = "a text" }
            } else if boolKeys.contains(key) {
                if case .bool = value { wanted = nil } else { wanted = "true or false" }
            } else {
                wanted = nil
            }
            if let wanted {
                throw FlowTestUsageError(".busted, task \"\(name)\": \(key) must be \(wanted), got \(describe(value))")
            }
        }
    }

    /// The options the command line refuses, refused in `.busted` too, in the same words.
    mutating func checkRefused(_ task: [String: LuaValue], task name: String) throws {
        let prefix = ".busted, task \"\(name)\": "
        if case .string(let v)? = task["lua"] { luaInterpreter = (v, name) }
        if case .bool(let v)? = task["ignore-lua"] { ignoreLua = v }
        if let v = task["lang"] {
            guard case .string(let lang) = v else { throw FlowTestUsageError(prefix + "lang must be a text, got \(Self.describe(v))") }
            if lang.lowercased() != "en" {
                throw FlowTestUsageError(prefix + "lang = \"\(lang)\" is not supported: okit-run test writes its messages in "
                    + "English only (as --lang); remove it")
            }
        }
        if let v = task["loaders"] {
            guard Self.isTextOrTexts(v), let loaders = Self.texts(v) else {
                throw FlowTestUsageError(prefix + "loaders must be a text or a list of texts, got \(Self.describe(v))")
            }
            for loader in Self.splitTags(loaders) where loader != "lua" {
                throw FlowTestUsageError(prefix + "loaders = \"\(loader)\" is not supported: okit-run test loads Lua spec files "
                    + "only (as --loaders); remove it")
            }
        }
        if case .bool(true)? = task["enable-sound"] {
            throw FlowTestUsageError(prefix + "enable-sound = true is not supported: okit-run test plays no sound; remove it")
        }
        if task["coverage-config-file"] != nil {
            throw FlowTestUsageError(prefix + "coverage-config-file is not supported: okit-run test measures no coverage "
                + "(busted's LuaCov); remove it")
        }
    }

    /// `seed` and `repeat`, as busted reads them (a number, or a text of one: `tonumber`): a seed is a
    /// non-negative integer and a repeat 1 or more, as on okit-run's command line; anything else stops the run.
    mutating func applyRunKeys(_ task: [String: LuaValue], task name: String) throws {
        func whole(_ value: LuaValue) -> Int64? {
            switch value {
            case .int(let n): return n
            case .double(let d) where d == d.rounded() && abs(d) < 1e15: return Int64(d)
            case .string(let s): return Int64(s.trimmingCharacters(in: .whitespaces))
            default: return nil
            }
        }
        if let v = task["seed"] {
            guard let n = whole(v), n >= 0 else {
                throw FlowTestUsageError(".busted, task \"\(name)\": seed must be a non-negative integer such as seed = 42, "
                    + "got \(Self.describe(v))")
            }
            seed = UInt64(n)
        }
        if let v = task["repeat"] {
            guard let n = whole(v), n >= 1, n <= Int64(Int32.max) else {
                throw FlowTestUsageError(".busted, task \"\(name)\": repeat must be 1 or more, such as [\"repeat\"] = 3, "
                    + "got \(Self.describe(v))")
            }
            repeatCount = Int(n)
        }
    }

    /// `lua = "…"` of the tasks read, refused as `--lua` is, unless they say `ignore-lua = true` (busted's own key
    /// for that).
    func checkInterpreter() throws {
        guard let (lua, task) = luaInterpreter, !ignoreLua else { return }
        throw FlowTestUsageError(".busted, task \"\(task)\": lua = \"\(lua)\" is not supported: specs run in okit-run's own "
            + "Lua 5.4 (as --lua); remove it, or add ignore-lua = true")
    }

    static func isTextOrTexts(_ value: LuaValue) -> Bool {
        switch value {
        case .string: return true
        case .table(let array, let hash): return hash.isEmpty && array.allSatisfy { if case .string = $0 { true } else { false } }
        default: return false
        }
    }

    static func describe(_ value: LuaValue) -> String {
        switch value {
        case .string(let s): return "\"\(s)\""
        case .int(let n): return "number \(n)"
        case .double(let n): return "number \(n)"
        case .bool(let b): return "\(b)"
        case .table: return "a table"
        case .nil: return "nil"
        default: return "\(value)"
        }
    }
}
