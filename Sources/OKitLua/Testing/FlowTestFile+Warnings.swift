import CLua
import Foundation
import OKitEngine

/// `--strict`: a test whose apps logged a warning fails, each warning named with the command that logged it and
/// the test file's line (`… (logged by app:tap("Dune") at tests/books_test.lua:7)`), the first such line as the
/// failure's place; a warning logged outside an app command (the test's own `okit.get`) is placed at the test.
extension FlowTestFile {
    /// `native.warningCount(app)` and `native.attribute(app, from, call)`: the app object's commands (`App.__index`
    /// in `FlowTestSupport`) count the app's warnings before a command and, when it logged some, give them its call.
    func pushWarningFunctions() {
        let lua = host.lua
        lua.push(function: "warningCount") { [unowned self] call in
            host.lua.push(Int64(try launchedApp(call, 1).engine.warnings.count))
            return 1
        }
        lua.rawSet(-2, "warningCount")
        lua.push(function: "attribute") { [unowned self] call in
            let app = try launchedApp(call, 1)
            let from = Int(try call.int(2)), count = app.engine.warnings.count
            guard from >= 0, from < count, let entry = launched.first(where: { $0.app.app === app })?.app else { return 0 }
            let place = currentPlace(command: try call.string(3))
            for i in from..<count where entry.places[i] == nil { entry.places[i] = place }
            return 0
        }
        lua.rawSet(-2, "attribute")
    }

    /// `command at file:line`, the line of the test file that is running (the innermost frame of this file on the
    /// Lua stack); the command alone when none is.
    func currentPlace(command: String) -> String {
        let L = host.lua.L
        var ar = lua_Debug()
        var level: Int32 = 0
        while lua_getstack(L, level, &ar) != 0 {
            level += 1
            guard lua_getinfo(L, "Sl", &ar) != 0, ar.currentline > 0, let source = ar.source.map({ String(cString: $0) }),
                  source == "@" + displayPath || source == "=" + displayPath else { continue }
            return "\(command) at \(displayPath):\(ar.currentline)"
        }
        return command
    }

    /// Fails a passing result whose apps logged warnings since the last result (those of loading a newly launched
    /// app included): each warning on a line, with the command that logged it; the result's place is where the
    /// first of them was logged, else the test's declaration.
    func failOnWarnings(_ r: inout FlowTestResult) {
        var lines: [String] = []
        var firstPlace: String?
        for entry in launched {
            guard let warnings = entry.app.app?.engine.warnings, warnings.count > entry.warnings else { continue }
            for i in entry.warnings..<warnings.count {
                guard let place = entry.app.places[i] else { lines.append(warnings[i]); continue }
                lines.append("\(warnings[i]) (logged by \(place))")
                if firstPlace == nil, let at = place.range(of: " at ", options: .backwards) { firstPlace = String(place[at.upperBound...]) }
            }
        }
        guard !lines.isEmpty else { return }
        r.status = .fail
        r.message = "warnings under --strict:\n" + lines.joined(separator: "\n")
        r.location = firstPlace ?? r.declaredAt
    }
}
