import Foundation
import OKitLua

extension TestCommand {
    /// The files to run and the options that choose and order their tests (the command line's, else the busted
    /// project's), with the line that says what was searched when nothing is found; a wrong one is a usage error
    /// (exit 2).
    func select(_ options: inout FlowTestOptions, root: URL, cwd: URL) throws -> (files: [URL], nothingFound: String) {
        do {
            let searched = try bustedProject(root: root, cwd: cwd)
            let flowTests = try FlowTestRunner.discover(paths, root: root)
            // a busted project where no spec file is found runs as busted runs it: its error is the output
            let project = searched.specFiles.isEmpty && !(flowTests.isEmpty && isBustedProject(searched)) ? nil : searched
            for line in project?.unreadKeys ?? [] { StandardStreams.error("okit-run test: warning: \(line)\n") }
            options.busted = project
            options.filters = filter.isEmpty ? project?.filters ?? [] : filter
            options.filterOut = filterOut.isEmpty ? project?.filterOut ?? [] : filterOut
            options.tags = try tags.isEmpty ? project?.tags ?? [] : Self.tagList(tags, option: "--tags")
            options.excludeTags = try excludeTags.isEmpty ? project?.excludeTags ?? [] : Self.tagList(excludeTags, option: "--exclude-tags")
            try order(&options, project: project)
            let files = Self.runOrder(flowTests: flowTests, specs: project?.specOrder ?? [], sorted: sortsFiles(project))
            return (files, "okit-run test: " + Self.nothingFound(searched, pathsGiven: !paths.isEmpty))
        } catch {
            // 2 for a wrong argument; 1 where busted stops with 1 (a -f file or -r task that is not there)
            let code = (error as? FlowTestUsageError)?.exitCode ?? 2
            throw RunFailure(code: code, message: "okit-run test: \(CommandLineAdvice.message(for: error))")
        }
    }

    /// Whether the folder is a busted project even when no spec file is found in it: it has a `.busted` file (or
    /// `-f` names one) or a `spec` folder, or busted's `-p`/`--exclude-pattern` chose the spec files.
    func isBustedProject(_ project: BustedProject) -> Bool {
        var folder: ObjCBool = false
        let spec = FileManager.default.fileExists(atPath: project.root.appendingPathComponent("spec").path, isDirectory: &folder)
        return project.configRead || !pattern.isEmpty || !excludePattern.isEmpty || (spec && folder.boolValue)
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

extension TestCommand {
    /// The exit code of an `okit-run` command line that does not parse (an unknown option, a missing value): 1 for
    /// `okit-run test` in a busted project (a `.busted` file, a `spec` folder, or `-f`/`-p` given), as busted exits
    /// on a command line it cannot parse; 2 otherwise (okit-run's usage errors).
    static func unparsedExitCode(_ line: [String] = CommandLine.arguments) -> Int32 {
        guard line.count > 1, line[1] == "test" else { return 2 }
        let args = Array(line.dropFirst(2))
        var root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        for (i, a) in args.enumerated() {
            if ["-f", "--config-file", "-p", "--pattern", "--exclude-pattern"].contains(where: { a == $0 || a.hasPrefix($0 + "=") }) {
                return 1
            }
            let folder = (a == "-C" || a == "--directory") && i + 1 < args.count ? args[i + 1]
                : a.hasPrefix("--directory=") ? String(a.dropFirst("--directory=".count)) : nil
            if let folder { root = URL(fileURLWithPath: folder, isDirectory: true, relativeTo: root).standardizedFileURL }
        }
        // A ROOT named on the line (`okit-run test ../proj --bogus`) decides as the current folder does.
        let named = args.filter { !$0.hasPrefix("-") }.map { URL(fileURLWithPath: $0, relativeTo: root).standardizedFileURL }
        if named.contains(where: { $0.lastPathComponent.hasSuffix("_spec.lua") || isBustedProject($0) }) { return 1 }
        return isBustedProject(root) ? 1 : 2
    }

    /// A folder with a `spec` folder or a `.busted` file: busted's exit codes apply (1 for a usage error).
    private static func isBustedProject(_ folder: URL) -> Bool {
        var isFolder: ObjCBool = false
        let spec = FileManager.default.fileExists(atPath: folder.appendingPathComponent("spec").path, isDirectory: &isFolder) && isFolder.boolValue
        return spec || FileManager.default.fileExists(atPath: folder.appendingPathComponent(".busted").path)
    }
}
