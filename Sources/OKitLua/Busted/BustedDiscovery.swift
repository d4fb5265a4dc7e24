import Foundation

/// Finds a busted project's spec files as busted does: under each `ROOT` folder (recursively unless
/// `--no-recursive`, hidden folders skipped), the `.lua` files whose name (`x_spec.lua`, as busted matches it) matches one of the Lua patterns and
/// none of the excluded ones (an empty one excludes nothing); a `ROOT` that is a file is taken as it is (but an okit flow test, `*_test.lua`, only when the
/// patterns name it). In busted's order: each `ROOT` in turn, its files sorted; a file two `ROOT`s name comes twice.
public enum BustedDiscovery {
    public static func specFiles(of project: BustedProject) throws -> [URL] {
        let fm = FileManager.default
        // busted stops at once on a helper it cannot open: one line, not one error per spec file
        if let helper = project.helper,
           !FileManager.default.isReadableFile(atPath: BustedModuleSearch.absolute(helper, root: project.root).path) {
            throw FlowTestUsageError("cannot read the helper \(helper) (.busted or --helper): no such file")
        }
        let names = try LuaPatternMatcher(include: project.patterns, exclude: project.excludePatterns)
        var files: [String] = []
        for r in project.roots {
            let url = URL(fileURLWithPath: r, relativeTo: project.root).standardizedFileURL
            var isFolder: ObjCBool = false
            guard fm.fileExists(atPath: url.path, isDirectory: &isFolder) else {
                // busted stops there ("Cannot find file or directory"); the default `spec` may be missing
                if project.rootsGiven { throw FlowTestUsageError("no test file or folder at \(r)" + (project.rootsFrom.map { " (\($0))" } ?? "")) }
                continue
            }
            if !isFolder.boolValue {
                // A file given by name is a spec, as busted takes it, unless it is okit's flow test (`*_test.lua`)
                // that the patterns do not name: that one keeps the flow tests' virtual clock and TAP.
                if !url.lastPathComponent.hasSuffix("_test.lua") || names.matches(url.lastPathComponent) { files.append(url.path) }
                continue
            }
            var found: Set<String> = []
            let walker = fm.enumerator(at: url, includingPropertiesForKeys: [.isDirectoryKey])
            while let f = walker?.nextObject() as? URL {
                let name = f.lastPathComponent
                let isFolder = (try? f.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true
                if name.hasPrefix(".") || (isFolder && !project.recursive) { walker?.skipDescendants(); continue }
                guard name.hasSuffix(".lua") else { continue }
                if names.matches(name) { found.insert(f.standardizedFileURL.path) }
            }
            files += found.sorted()
        }
        return files.map { URL(fileURLWithPath: $0) }
    }
}

/// File names matched against Lua patterns (`string.find`), in a small Lua state of its own.
final class LuaPatternMatcher {
    private let lua: LuaState
    private let include: [String]
    private let exclude: [String]

    init(include: [String], exclude: [String]) throws {
        lua = try LuaState(memoryLimit: 16 << 20)
        try LuaSandbox().apply(to: lua)
        self.include = include
        self.exclude = exclude
    }

    deinit { lua.close() }

    /// Whether `name` matches one included pattern and no excluded one (a wrong pattern matches nothing).
    func matches(_ name: String) -> Bool {
        include.contains { find(name, $0) } && !exclude.contains { !$0.isEmpty && find(name, $0) }
    }

    private func find(_ name: String, _ pattern: String) -> Bool {
        let script = "local s, p = ...; local ok, r = pcall(string.find, s, p); return ok and r ~= nil"
        do {
            try lua.load(source: script, chunkName: "=pattern")
            lua.push(name)
            lua.push(pattern)
            try lua.pcall(nargs: 2, nresults: 1)
            defer { lua.pop() }
            return lua.value(at: -1) == .bool(true)
        } catch {
            return false
        }
    }
}
