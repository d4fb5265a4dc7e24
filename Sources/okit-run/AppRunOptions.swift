import ArgumentParser
import Foundation
import OKitBackends
import OKitEngine
import OKitLua

/// The options of running an app, shared by `okit-run APP.lua` and `okit-run serve APP.lua`: the Lua limits, the
/// clock, the language, the check, and models to recover.
struct AppRunOptions: ParsableArguments {
    @Flag(name: .long, help: "Give app code the whole Lua standard library.")
    var unsafe = false

    @Option(name: .long, help: "Lua instructions allowed per call into Lua.")
    var luaBudget: Int64 = 100_000_000

    @Option(name: .long, help: "Memory limit of the Lua state in MiB.")
    var luaMemory: Int = 256

    @Option(name: .long, help: "virtual (starts at --now, moves only by command) or system.")
    var clock: String = "system"

    @Option(name: .long, help: "Start of the virtual clock (ISO 8601; default 2019-05-01T10:00:00Z); needs --clock virtual.")
    var now: String?

    @Option(name: .long, help: "Seed of ids and math.random under the virtual clock (default 0); needs --clock virtual.")
    var seed: UInt64?

    @Option(name: .long, help: "Language (overrides okit.locale).")
    var lang: String?

    @Option(name: .long, help: "Move the named model's unreadable file aside and start it fresh.")
    var recover: [String] = []

    @Flag(name: .long, help: "Skip the schema check of bindings when the app loads.")
    var noCheck = false

    func validate() throws {
        guard clock == "virtual" || clock == "system" else { throw ValidationError("--clock must be virtual or system") }
        guard luaBudget > 0 else { throw ValidationError("--lua-budget must be positive") }
        guard luaMemory >= 8 else { throw ValidationError("--lua-memory must be at least 8 (MiB)") }
        if let now, ISODate.parse(now) == nil { throw ValidationError("--now must be an ISO 8601 date such as 2019-05-01T10:00:00Z") }
        // Under the system clock they would be read by nothing: said, not ignored.
        for (option, given) in [("--now", now != nil), ("--seed", seed != nil)] where given && clock != "virtual" {
            throw ValidationError("\(option) is read by the virtual clock only (the system clock is the real time): add --clock virtual")
        }
        if let lang, AppLocale.languageTag(lang) == nil { throw ValidationError("--lang: " + AppLocale.languageAdvice(lang)) }
        if let refusal = lang.flatMap(LuaApp.tagRegionRefusal) { throw ValidationError("--lang: " + refusal) }
    }

    /// The settings these options give a loaded app (plain values, to hand to another thread).
    var settings: RunSettings {
        RunSettings(unsafe: unsafe, luaBudget: luaBudget, luaMemory: luaMemory << 20, language: lang.flatMap(AppLocale.languageTag),
                    seed: seed ?? 0, checkBindings: !noCheck,
                    virtualNow: clock == "virtual" ? ISODate.parse(now ?? AppRunOptions.defaultNow) : nil)
    }

    /// Where the virtual clock starts without --now.
    static let defaultNow = "2019-05-01T10:00:00Z"
}

/// What `AppRunOptions` sets on an app's options.
struct RunSettings: Sendable {
    let unsafe: Bool
    let luaBudget: Int64
    let luaMemory: Int
    let language: String?
    let seed: UInt64
    let checkBindings: Bool
    let virtualNow: Date?

    func apply(to options: inout LuaAppOptions) {
        options.unsafe = unsafe
        options.luaBudget = luaBudget
        options.luaMemory = luaMemory
        options.language = language
        options.seed = seed
        options.checkBindings = checkBindings
        if let virtualNow { options.virtualNow = virtualNow }
    }
}
