import Foundation
import OKitEngine

/// While a session records, a page opened by its URL (a row's link, Back, a tab, the browser's back button) is
/// run as the command a person would give in a test, so the recorder writes it: `tap` of the row whose link it
/// was, `back` for each screen left, `close` for a presented stack closed, `tab` for another tab. A URL no command
/// reaches (typed or bookmarked) becomes a comment in the test; the page then goes there as always.
extension WebApp {
    func recordNavigation(to target: ShellLocation, path: String, _ ws: WebSession, _ app: AppSession) {
        guard let recording = ws.recording else { return }
        let here = Self.comparable(ws.shell.location)
        for (name, args) in navigationCommands(from: here, to: Self.comparable(target), path: path, ws, app) {
            do { try ws.driver.run(name, args) } catch { break }
        }
        if LocationPath.path(ws.shell.location) != LocationPath.path(target) {
            recording.recorder.append(line: "-- opened \(path) by its URL here: a test cannot, so the lines below may need another start")
        }
        ws.moved = true
    }

    /// A location as its URL names it: the home screen's context entity is not part of the URL.
    static func comparable(_ location: ShellLocation) -> ShellLocation {
        var l = location
        if !l.stack.isEmpty { l.stack[0].entity = nil }
        return l
    }

    /// The commands that go back from `here` to `target`, a place below it on the same tab: `back` for each screen
    /// left, `close` for each presented stack closed; nil when `target` is not below `here`.
    static func returnCommands(from here: ShellLocation, to target: ShellLocation) -> [String]? {
        guard target.tab == here.tab else { return nil }
        if target.presented == here.presented, target.stack.count < here.stack.count,
           Array(here.stack.prefix(target.stack.count)) == target.stack {
            return Array(repeating: "back", count: here.stack.count - target.stack.count)
        }
        if target.stack == here.stack, target.presented.count < here.presented.count,
           Array(here.presented.prefix(target.presented.count)) == target.presented {
            return Array(repeating: "close", count: here.presented.count - target.presented.count)
        }
        if target.stack == here.stack, target.presented.count == here.presented.count, let last = here.presented.last,
           let goal = target.presented.last, goal.count < last.count, Array(last.prefix(goal.count)) == goal {
            return Array(repeating: "back", count: last.count - goal.count)
        }
        return nil
    }

    /// The commands that lead from `here` to `target`, or none when no command does.
    func navigationCommands(from here: ShellLocation, to target: ShellLocation, path: String,
                            _ ws: WebSession, _ app: AppSession) -> [(String, [String: Value])] {
        if target.tab != here.tab {
            guard let tab = target.tab, target.stack.count == 1, target.presented.isEmpty else { return [] }
            return [("tab", ["id": .string(tab)])]
        }
        if let back = Self.returnCommands(from: here, to: target) { return back.map { ($0, [:]) } }
        // Forward: the row (or cell) of the page shown whose link is this URL.
        guard let shown = ws.shown else { return [] }
        let context = pageContext(ws, app, shown, path: LocationPath.path(here), query: "", offset: ws.watch.offset)
        let renderer = PageRenderer(shown, context)
        for (s, section) in shown.screen.sections.enumerated() {
            for (r, row) in section.rows.enumerated() where context.rowLink(s, r, row) == path {
                let address = renderer.address(row, section: s, index: r)
                return [("tap", ["row": Int(address).map { .int($0) } ?? .string(address)])]
            }
        }
        return []
    }
}
