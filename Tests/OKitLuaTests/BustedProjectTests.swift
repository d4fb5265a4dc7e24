import Foundation
import Testing
@testable import OKitLua

/// busted specs of a plain Lua project, run as `okit-run test` runs them from the project's root (testing.md,
/// "Busted projects"): module lookup, the `.busted` file, the helper, busted's modules, lazy describe blocks, tags.
@Suite final class BustedProjectTests {
    var created: [URL] = []
    deinit { for dir in created { try? FileManager.default.removeItem(at: dir) } }

    /// A project folder holding `files` (path → text).
    func project(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-busted-\(UUID().uuidString)")
        created.append(dir)
        for (path, text) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return dir
    }

    /// Runs the project's specs; `name → status` (`fail!` for an error) and the messages of failures.
    func run(_ root: URL, tags: [String] = []) throws -> (statuses: [String: String], messages: [String: String]) {
        var project = try BustedProject.load(root: root, task: nil)
        project.specFiles = Set(try BustedDiscovery.specFiles(of: project).map(\.path))
        project.randomSeed = 7
        var options = FlowTestOptions()
        options.busted = project
        options.tags = tags
        options.print = { _ in }
        let runner = FlowTestRunner(options: options)
        runner.run(project.specFiles.sorted().map { URL(fileURLWithPath: $0) }, root: root) { _ in }
        var statuses: [String: String] = [:], messages: [String: String] = [:]
        for r in runner.results {
            statuses[r.name] = r.status.rawValue + (r.isError ? "!" : "")
            messages[r.name] = r.message
        }
        return (statuses, messages)
    }

    @Test func requireFindsSrcTheRootLpathAndSlashNamesAndRefusesCModules() throws {
        let root = try project([
            ".busted": "return { default = { lpath = './lib/?.lua' } }",
            "src/greet/init.lua": "return { hello = function(n) return 'hello ' .. n end }",
            "lib/shout.lua": "return string.upper",
            "top.lua": "return 42",
            "native.so": "not really a library",
            "vendor/extra.lua": "return 'extra'",
            "spec/helpers.lua": "return { two = 2 }",
            "spec/lookup_spec.lua": """
            describe("require", function()
              it("finds the lpath module", function() assert.are.equal("HI", require("shout")("hi")) end)
              it("finds the root module", function() assert.are.equal(42, require("top")) end)
              it("finds a slash name", function() assert.are.equal(2, require("spec/helpers").two) end)
              it("honours package.path edits", function()
                package.path = "./vendor/?.lua;" .. package.path
                assert.are.equal("extra", require("extra"))
              end)
              it("refuses files outside the project", function()
                package.path = "/etc/?;" .. package.path
                assert.has_error(function() require("passwd") end)
              end)
              it("refuses a C module, saying so", function()
                assert.error_matches(function() require("native") end, "module 'native' is a C module")
              end)
            end)
            """,
        ])
        let (statuses, _) = try run(root)
        #expect(statuses.values.allSatisfy { $0 == "ok" }, "\(statuses)")
        #expect(statuses.count == 6)
    }

    @Test func anErrorInADescribeBodyFailsThatBlockAndTheOthersRun() throws {
        let root = try project([
            "spec/blocks_spec.lua": """
            describe("first", function() it("runs", function() end) end)
            describe("broken", function()
              it("is not run", function() end)
              error("boom")
            end)
            describe("third #fast", function() it("runs too #fastish", function() end) end)
            """,
        ])
        let (statuses, messages) = try run(root)
        #expect(statuses == ["first runs": "ok", "broken": "fail!", "third #fast runs too #fastish": "ok"])
        #expect(messages["broken"]?.contains("boom") == true)
        let tagged = try run(root, tags: ["fastish"]).statuses
        #expect(tagged["third #fast runs too #fastish"] == "ok" && tagged["first runs"] == nil, "busted's tags match a prefix: \(tagged)")
    }

    @Test func helperRegistersAnAssertionAndBustedModulesLoad() throws {
        let root = try project([
            ".busted": "return { _all = { helper = 'spec/helper.lua' } }",
            "spec/helper.lua": """
            local assert, say = require "luassert", require "say"
            say:set("assertion.even.positive", "Expected %s to be even")
            say:set("assertion.even.negative", "Expected %s not to be even")
            assert:register("assertion", "even", function(_, args) return args[1] % 2 == 0 end,
              "assertion.even.positive", "assertion.even.negative")
            """,
            "spec/custom_spec.lua": """
            local busted = require "busted"
            busted.describe("custom", function()
              busted.it("passes", function() assert.is.even(2); assert.is_not.even(3) end)
              it("fails with say's message", function() assert.even(3) end)
              it("takes callable tables", function()
                local c = setmetatable({}, { __call = function() error("called", 0) end })
                assert.has_error(c, "called")
                assert.message("context").is_true(true)
              end)
              it("compares the whole message", function() assert.has_error(function() error("abc def") end, "abc") end)
            end)
            """,
        ])
        let (statuses, messages) = try run(root)
        #expect(statuses["custom passes"] == "ok")
        #expect(statuses["custom takes callable tables"] == "ok")
        #expect(messages["custom fails with say's message"] == "Expected (number) 3 to be even", "luassert formats the arguments")
        #expect(statuses["custom compares the whole message"] == "fail", "luassert compares the message whole")
    }
}
