import OKitEngine
import OKitLua
import OKitWeb

// The kind as data: its commands bound to the screen's methods, its renderers for the web and the terminal, and
// its reader for Lua (`okit.counter(id, { … })`). One registration (`options.screenKinds.register(.counter)`)
// makes it work in every front end.

extension CommandDescription {
    static let bump = CommandDescription("bump", [CommandArgument("by", .optionalText)])
    static let reset = CommandDescription("reset")
}

extension ScreenKind {
    static let counter = ScreenKind(name: "counter", commands: [
        .on(.bump) { (s: CounterScreen, a) in try s.bump(by: a.optionalText("by").flatMap { Int($0) } ?? 1) },
        .on(.reset) { (s: CounterScreen, _) in try s.reset() },
    ], renderers: ["web": CounterPage(), "terminal": CounterLines()], readers: ["lua": LuaScreenReader(readCounter)])

    /// `okit.counter(id, { titlePath = …, valuePath = … })`.
    @Sendable static func readCounter(_ app: LuaApp, _ call: LuaCall, _ id: String) throws -> any ScreenDeclaration {
        let properties = try app.textProperties(call, kind: "counter", id: id, known: ["titlePath", "valuePath"])
        var d = CounterDeclaration(id: id)
        d.titlePath = properties["titlePath"] ?? d.titlePath
        d.valuePath = properties["valuePath"] ?? d.valuePath
        return d
    }
}

/// The web page of a counter: the number and a form per command.
struct CounterPage: WebScreenKind {
    func body(_ page: PageRenderer) -> [HTMLNode] {
        let counter = page.screen.section as? CounterSection
        return [
            .el("p", [.classes("okit-counter")], text: "\(counter?.value ?? 0)"),
            page.commandButton("bump", [("by", "1")], title: "+1"),
            page.commandButton("reset", title: "Reset"),
        ]
    }
}
