import Foundation
import OKitEngine

/// The result of `okit-run check`: one line per problem and the summary line.
public struct AppCheckResult: Sendable {
    /// `FILE:LINE:COL: screen S, property P: message`, LINE:COL where the binding's problem is in the file (and
    /// `FILE:LINE:COL: entity T, field F: message` for a field's validation rules), by file, line, then column.
    public let problems: [String]
    /// `app.lua: 0 problems in 14 screens, 212 bindings`.
    public let summary: String
    /// What the check at load warns about (`FILE:LINE:COL: screen S, property P: message`) and the app runs with: a
    /// flag constant that is always on. `okit-run check` has them among its problems.
    public var warnings: [String] = []
}

extension LuaApp {
    /// `okit-run check`: one line per problem, `FILE:LINE:COL: screen S, property P: message`, at the character of
    /// the binding string the problem is at (the declaration's line when the value is not a string in the file).
    public func checkScreens() -> [String] { checkApp().problems }

    /// The check with its summary line. Names okit does not know in screen declarations (warnings when the app
    /// loads), `%key`s a language's strings lack (the page shows the key) and alert texts that are paths (warnings
    /// when the alert shows: LuaApp+CheckAlertTexts.swift) are problems too, unless
    /// `ignoredNames` is false (the check an app runs when it loads: the names were warned about then, and a
    /// missing string does not stop an app).
    public func checkApp(ignoredNames: Bool = true) -> AppCheckResult {
        let report = shell.checkReport(entryPoints: appEntryPoints, thorough: ignoredNames)
        var sources: [String: LuaDeclarationSource?] = [:]
        var lines = fieldRuleProblemLines(sources: &sources) + unreachableMigrationLines()
        if ignoredNames {
            lines += declarationTypoLines(sources: &sources) + builtInWordLines(sources: &sources)
                + alertTextLines(sources: &sources) + fieldLabelLines(sources: &sources)
                + pluralNoteLines(counted: report.countedKeys, sources: &sources) + unusedFormLines(sources: &sources)
        }
        func line(_ i: ScreenIssue) -> String { "\(location(of: i, sources: &sources)): screen \(i.screen), property \(i.property): \(i.message)" }
        lines += report.issues.map(line)
        lines = Self.inFileOrder(lines)
        let file = appFile?.lastPathComponent ?? "app"
        func count(_ n: Int, _ what: String) -> String { "\(n) \(what)\(n == 1 ? "" : "s")" }
        let summary = "\(file): \(count(lines.count, "problem")) in \(count(report.screens, "screen")), \(count(report.bindings, "binding"))"
            + Self.unopenedNote(report.unopened)
        return AppCheckResult(problems: lines, summary: summary, warnings: Self.inFileOrder(report.warnings.map(line)))
    }

    /// The summary's note on screens nothing in the declarations opens: `; opened only from Lua, so checked on the
    /// type each fits: pets (Owner), visit (Visit, with problems); give a screen `type = "…"` to check it on its own`.
    static func unopenedNote(_ screens: [UnopenedScreen]) -> String {
        guard !screens.isEmpty else { return "" }
        let named = screens.map { u in "\(u.screen) (\(u.type ?? "no type")\(u.fits ? "" : ", best fit"))" }
        return "; opened only from Lua, so checked on the type each fits: " + named.joined(separator: ", ")
            + "; give a screen type = \"…\" to check it on its own"
    }

    /// Problem lines sorted by line, then column, within each file (files in the order they first appear); a line
    /// without a position keeps its place after those of its file.
    static func inFileOrder(_ lines: [String]) -> [String] {
        var files: [Substring: Int] = [:]
        func key(_ line: String) -> (file: Int, line: Int, column: Int) {
            let parts = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            let file = files[parts[0]] ?? files.count
            files[parts[0]] = file
            guard parts.count == 4, let l = Int(parts[1]), let c = Int(parts[2]) else { return (file, Int.max, Int.max) }
            return (file, l, c)
        }
        let keyed = lines.enumerated().map { (key($0.element), $0.offset, $0.element) }
        return keyed.sorted { a, b in a.0 != b.0 ? a.0 < b.0 : a.1 < b.1 }.map(\.2)
    }

    /// `okit.app { home = "id" or { ids }, menu = "id" }`.
    var appEntryPoints: AppEntryPoints {
        guard case .table(_, let hash)? = appDeclaration else { return AppEntryPoints() }
        var points = AppEntryPoints()
        switch hash[.string("home")] {
        case .string(let s)?: points.home = [s]
        case .table(let array, _)?: points.home = array.compactMap { if case .string(let s) = $0 { return s }; return nil }
        default: break
        }
        if case .string(let m)? = hash[.string("menu")] { points.menu = m }
        return points
    }

    /// `FILE:LINE:COL` of an issue: its binding's string in the declaration call, else the call's line.
    func location(of issue: ScreenIssue, sources: inout [String: LuaDeclarationSource?]) -> String {
        let fallbackFile = appFile?.lastPathComponent ?? "app"
        guard let site = screenSites[issue.screen] ?? nil, let colon = site.lastIndex(of: ":"),
              let line = Int(site[site.index(after: colon)...]) else {
            return "\(fallbackFile):1:\(issue.column)"
        }
        let chunk = String(site[..<colon])
        if sources[chunk] == nil { sources[chunk] = declarationSource(chunk) }
        let isApp = issue.screen == AppShell.appCheckName
        let function = isApp ? "app" : shell.declaration(issue.screen)?.kind ?? "list"
        guard let source = sources[chunk] ?? nil,
              let call = source.call(function, id: isApp ? nil : issue.screen, line: line) else {
            return "\(chunk):\(line):1"
        }
        for keys in issue.sites {
            if keys.isEmpty, let id = call.id { return "\(chunk):\(id.line):\(id.column + 1)" }
            if let p = call.table?.position(of: keys, column: issue.column) { return "\(chunk):\(p.line):\(p.column)" }
        }
        // A cell a helper function made: where that call is written.
        for keys in issue.sites where !isApp {
            if let at = tracedPosition(screen: issue.screen, path: keys, column: issue.column, declaring: chunk, sources: &sources) { return at }
        }
        if let id = call.id { return "\(chunk):\(id.line):\(id.column + 1)" }
        return "\(chunk):\(line):1"
    }

    /// The source of a chunk (the app file, or a file `require`d from its folder).
    func declarationSource(_ chunk: String) -> LuaDeclarationSource? {
        guard let appFile else { return nil }
        if chunk == appFile.lastPathComponent {
            guard let data = FileManager.default.contents(atPath: appFile.path) else { return nil }
            return LuaDeclarationSource(String(decoding: data, as: UTF8.self))
        }
        guard case .file(let data)? = try? AppFolderPolicy.read(chunk, in: appFile.deletingLastPathComponent()) else { return nil }
        return LuaDeclarationSource(String(decoding: data, as: UTF8.self))
    }
}
