import Foundation
import Testing
import OKitTestSupport

/// What `.busted` may say (testing.md, "`.busted`"): a value of the wrong type or a `ROOT` not there stops the run
/// naming it; busted's own keys are named as busted's options (taken on the command line only, or refused in the
/// words `--lua`/`--lang` are refused with); `require` in `.busted` loads the project's and the installed pure-Lua
/// modules, and refuses a C module as a spec's `require` does.
@Suite struct BustedConfigKeysTests {
    func run(_ busted: String, _ extra: [String: String] = [:]) throws -> ChildResult {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let folder = try TempFolder()
        try folder.put("spec/a_spec.lua", "it(\"a\", function() end)\n")
        try folder.put(".busted", busted)
        for (name, text) in extra { try folder.put(name, text) }
        return try OKitRun.run(["test", "-C", folder.path] + BustedTAP.arguments([], root: folder.url))
    }

    @Test func aValueOfTheWrongTypeStopsTheRunNamingIt() throws {
        let p = try run("return { default = { pattern = 5 } }\n")
        #expect(p.code == 1 && p.err.contains(".busted, task \"default\": pattern must be a text or a list of texts, got number 5"), "\(p.err)")
        let l = try run("return { _all = { lpath = { \"./lib/?.lua\", 5 } } }\n")
        #expect(l.code == 1 && l.err.contains(".busted, task \"_all\": lpath must be a text or a list of texts, got a table"), "\(l.err)")
        let v = try run("return { default = { verbose = \"yes\" } }\n")
        #expect(v.code == 1 && v.err.contains("verbose must be true or false, got \"yes\""), "\(v.err)")
    }

    @Test func aRootThatIsNotThereIsNamed() throws {
        let r = try run("return { default = { ROOT = { \"nope\" } } }\n")
        #expect(r.code == 1 && r.err.contains("no test file or folder at nope (.busted, task \"default\": ROOT)"), "\(r.err)")
    }

    @Test func bustedsOwnKeysAreNamedAsItsOptionsOrRefusedAsOnTheCommandLine() throws {
        let s = try run("return { default = { list = true, directory = \"x\", lang = \"en\", loaders = \"lua\" } }\n")
        #expect(s.code == 0, "\(s.err)")
        #expect(s.err.contains("\"list\" is busted's -l/--list, which okit-run test takes on the command line only; it is ignored"), "\(s.err)")
        #expect(s.err.contains("\"directory\" is busted's -C DIR, which okit-run test takes on the command line only"), "\(s.err)")
        #expect(!s.err.contains("did you mean"), "\(s.err)")
        let lang = try run("return { default = { lang = \"de\" } }\n")
        #expect(lang.code == 1 && lang.err.contains("lang = \"de\" is not supported: okit-run test writes its messages in English only"), "\(lang.err)")
        let lua = try run("return { default = { lua = \"luajit\" } }\n")
        #expect(lua.code == 1 && lua.err.contains("lua = \"luajit\" is not supported: specs run in okit-run's own Lua 5.4"), "\(lua.err)")
        let ignored = try run("return { _all = { lua = \"luajit\" }, default = { [\"ignore-lua\"] = true } }\n")
        #expect(ignored.code == 0, "\(ignored.err)")
    }

    @Test func requireInBustedLoadsTheProjectsAndInstalledLuaModulesAndRefusesACModule() throws {
        let own = try run("local dirs = require(\"conf.dirs\")\nreturn { default = { ROOT = dirs } }\n",
                          ["conf/dirs.lua": "return { \"spec\" }\n"])
        #expect(own.code == 0, "\(own.err)")
        let fake = "/usr/lib/x86_64-linux-gnu/lua/5.4/lfs.so"
        if FileManager.default.fileExists(atPath: fake) {
            let c = try run("local lfs = require(\"lfs\")\nreturn {}\n")
            #expect(c.code == 1 && c.err.contains("module 'lfs' is a C module (\(fake)): okit-run test loads Lua files only"), "\(c.err)")
            #expect(!c.err.contains("app's folder"), "\(c.err)")
        }
        if FileManager.default.fileExists(atPath: "/usr/share/lua/5.4/dkjson.lua") {
            let d = try run("local json = require(\"dkjson\")\nreturn { default = { ROOT = json.decode('[\"spec\"]') } }\n")
            #expect(d.code == 0, "\(d.err)")
        }
    }
}
