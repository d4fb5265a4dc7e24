import Foundation
import OKitLua

extension TestCommand {
    /// The files to run and the options that choose and order their tests (the command line's, else the busted
    /// project's), with the line that says what was searched when nothing is found; a wrong one is a usage error
    /// (exit 2).
    func select(_ options: inout FlowTestOptions, root: URL, cwd: URL) throws -> (files: [URL], nothingFound: String) {
        do {
            let searched = try bustedProject(root: root, cwd: cwd)
            let project = searched.specFiles.isEmpty ? nil : searched
            for line in project?.unreadKeys ?? [] { StandardStreams.error("okit-run test: warning: \(line)\n") }
            let flowTests = try FlowTestRunner.discover(paths, root: root)
            options.busted = project
            options.filters = filter.isEmpty ? project?.filters ?? [] : filter
            options.filterOut = filterOut.isEmpty ? project?.filterOut ?? [] : filterOut
            options.tags = try tags.isEmpty ? project?.tags ?? [] : Self.tagList(tags, option: "--tags")
            options.excludeTags = try excludeTags.isEmpty ? project?.excludeTags ?? [] : Self.tagList(excludeTags, option: "--exclude-tags")
            try order(&options, project: project)
            let files = Self.runOrder(flowTests: flowTests, specs: project?.specOrder ?? [], sorted: sortsFiles(project))
            return (files, "okit-run test: " + Self.nothingFound(searched, pathsGiven: !paths.isEmpty))
        } catch {
            throw RunFailure(code: 2, message: "okit-run test: \(CommandLineAdvice.message(for: error))")
        }
    }

    /// The files in running order. Only specs: busted's order, each `ROOT` (path given) in turn, a file found twice
    /// run twice (`sorted`: `--sort-files`, all of them sorted by path). With flow tests: all sorted by path, each once.
    static func runOrder(flowTests: [URL], specs: [String], sorted: Bool) -> [URL] {
        let specSet = Set(specs)
        guard !specs.isEmpty, flowTests.allSatisfy({ specSet.contains($0.standardizedFileURL.path) }) else {
            return (flowTests + specs.map { URL(fileURLWithPath: $0) }).sortedUnique()
        }
        let ordered = sorted ? specs.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }.map(\.element) : specs
        return ordered.map { URL(fileURLWithPath: $0) }
    }

    /// What was searched, for the line that says nothing was found: busted's defaults briefly, else the folders
    /// and the Lua patterns given (`-p`, `--exclude-pattern`, a path, `.busted`'s `ROOT` and `pattern`).
    static func nothingFound(_ project: BustedProject, pathsGiven: Bool) -> String {
        let defaults = BustedProject(root: project.root)
        if !pathsGiven, project.roots == defaults.roots, project.patterns == defaults.patterns, project.excludePatterns.isEmpty {
            return "no *_test.lua or spec files (spec/**/*_spec.lua) found"
        }
        func quoted(_ list: [String]) -> String { list.map { "\"\($0)\"" }.joined(separator: " or ") }
        var names = "whose name matches the Lua pattern \(quoted(project.patterns))"
        let excluded = project.excludePatterns.filter { !$0.isEmpty }
        if !excluded.isEmpty { names += " and not \(quoted(excluded))" }
        return "no *_test.lua or spec files found in \(project.roots.joined(separator: ", ")) (spec files: .lua files \(names); "
            + "-p/--pattern and --exclude-pattern choose them)"
    }
}

extension Array where Element == URL {
    /// Sorted by path, each path once.
    func sortedUnique() -> [URL] {
        Set(map { $0.standardizedFileURL.path }).sorted().map { URL(fileURLWithPath: $0) }
    }
}
