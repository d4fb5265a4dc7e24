import ArgumentParser
import Foundation
import OKitEngine
import OKitLua
import OKitPostgres

/// `okit-run check APP.lua`: loads the declarations on a scratch data folder and checks every binding of every
/// screen against the schema on the contexts it runs on; one line per problem and a summary line, all on stdout;
/// exit 3 when there is any problem.
struct CheckApp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check every binding of an app's screens against its schema."
    )

    @Argument(help: "The app's Lua file.")
    var app: String

    @Flag(name: .long, help: "Give app code the whole Lua standard library (as okit-run APP.lua --unsafe).")
    var unsafe = false

    @Option(name: .long, help: "Language (overrides okit.locale), as okit-run APP.lua --lang.")
    var lang: String?

    /// Anything else given: refused with what check takes (a run's option or a misspelt one).
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var other: [String] = []

    func validate() throws {
        if let lang, AppLocale.languageTag(lang) == nil { throw ValidationError("--lang: " + AppLocale.languageAdvice(lang)) }
        if let refusal = lang.flatMap(LuaApp.tagRegionRefusal) { throw ValidationError("--lang: " + refusal) }
        if let first = other.first { throw ValidationError(CheckApp.refusal(of: first)) }
    }

    /// The options check takes.
    static let options = ["--unsafe", "--lang"]

    /// The words for an argument check does not take: a run's option that changes nothing check reads, or the
    /// nearest of check's own.
    static func refusal(of argument: String) -> String {
        let name = String(argument.prefix { $0 != "=" })
        let takes = "check takes " + options.joined(separator: " and ") + " (okit-run check APP.lua [--unsafe] [--lang CODE])"
        if !name.hasPrefix("-") { return "check takes one app file; \"\(argument)\" is one too many (\(takes))" }
        let runOnly = ["--data", "--script", "--clock", "--now", "--seed", "--lua-budget", "--lua-memory", "--recover",
                       "--no-check", "--json", "--record", "--no-color"]
        if runOnly.contains(name) {
            return "check does not take \(name): it loads the app on a scratch data folder and prints its findings; \(takes)"
        }
        let near = NameSuggestion.closest(to: name, in: options + runOnly).map { " (did you mean \($0)?)" } ?? ""
        return "check: unknown option \(name)\(near); \(takes)"
    }

    func run() throws {
        let loader = AppLoader.check
        let url = try loader.appFile(app)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("okit-check-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let luaApp: LuaApp
        do {
            luaApp = try loader.load(url, dataFolder: scratch) { options in
                options.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
                options.unsafe = unsafe
                options.language = lang.flatMap(AppLocale.languageTag)
                options.checkBindings = false
                options.checkOnly = true
                // Shared models are checked without their database: declarations and bindings need no rows.
                options.storageKinds.register(.postgres) { _ in TransientStorage() }
            }
        } catch let f as RunFailure where f.code == 3 {
            // An app that does not load is a finding like the others: on stdout, with the summary (cli.md).
            print(f.message)
            print("\(url.lastPathComponent): 1 problem: the app does not load, so no screen was checked")
            throw RunFailure(code: 3, message: "")
        }
        let check = luaApp.checkApp()
        for p in check.problems { print(p) }
        print(check.summary)
        if !check.problems.isEmpty { throw RunFailure(code: 3, message: "") }
    }
}
