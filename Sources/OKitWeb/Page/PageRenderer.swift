import OKitEngine

/// Renders a snapshot as a whole HTML page (docs/web.md, "Pages and forms"): the app shell (tabs, back link, breadcrumb, bar
/// buttons, alert dialog, help) around the screen, which renders per its kind.
///
/// Pages carry no inline styles, scripts or event handlers (`Content-Security-Policy: default-src 'self'`); all
/// model text goes through ``HTMLNode/text(_:)`` and attribute values, so it is always escaped.
public struct PageRenderer: Sendable {
    /// The snapshot the page shows.
    public let snapshot: Snapshot
    /// The request's URLs, token and messages.
    public let context: PageContext
    /// Rows before each section (for row positions).
    let sectionStarts: [Int]
    /// The hidden `csrf`, `v` and `at` fields, made once per page.
    let baseFields: [HTMLNode]

    /// A renderer for one page.
    public init(_ snapshot: Snapshot, _ context: PageContext) {
        self.snapshot = snapshot
        self.context = context
        var starts: [Int] = []
        var n = 0
        for s in snapshot.screen.sections {
            starts.append(n)
            n += s.rows.count
        }
        sectionStarts = starts
        func hidden(_ name: String, _ value: String) -> HTMLNode {
            .el("input", [.attr("type", "hidden"), .attr("name", name), .attr("value", value)])
        }
        baseFields = [hidden("csrf", context.csrfToken), hidden("v", context.version), hidden("at", context.locationPath)]
    }

    /// The page of a snapshot.
    public static func render(_ snapshot: Snapshot, _ context: PageContext) -> HTMLDocument {
        PageRenderer(snapshot, context).document()
    }

    /// The page of a snapshot as text.
    public static func renderString(_ snapshot: Snapshot, _ context: PageContext) -> String {
        render(snapshot, context).render()
    }

    public var screen: ScreenSnapshot { snapshot.screen }

    /// The words the page shows on its own, in the page's language (`PageContext.words`).
    public var words: BuiltInWords { context.words }

    /// The title shown as the `<h1>`.
    var title: String {
        if snapshot.app.covered { return words(.locked) }
        return screen.title ?? context.appTitle
    }

    func document() -> HTMLDocument {
        var head: [HTMLNode] = [
            .el("meta", [.attr("charset", "utf-8")]),
            .el("meta", [.attr("name", "viewport"), .attr("content", "width=device-width, initial-scale=1")]),
            .el("title", text: title),
        ]
        head += context.stylesheetURLs.map { .el("link", [.attr("rel", "stylesheet"), .attr("href", $0)]) }
        head.append(.el("script", [.attr("src", context.scriptURL), .bool("defer")]))
        if context.recordBar != nil {
            head.append(.el("link", [.attr("rel", "stylesheet"), .attr("href", RecordBar.stylesheetURL)]))
            head.append(.el("script", [.attr("src", RecordBar.scriptURL), .bool("defer")]))
        }
        let body: [HTMLAttribute] = [
            .classes("okit", snapshot.app.presented ? "okit-presented" : nil, snapshot.app.covered ? "okit-covered" : nil),
            .attr("data-events", context.eventsURL), .attr("data-command", context.commandURL),
            .attr("data-csrf", context.csrfToken), .attr("data-location", context.locationPath),
            .attr("data-version", context.version), .attr("data-live-off", words(.liveUpdatesOff)),
        ]
        var nodes: [HTMLNode] = [.el("main", [.attr("id", "okit-main")], mainContent())]
        if !snapshot.app.covered { nodes.append(tabBar()) }
        return HTMLDocument(lang: context.lang, head: head, bodyAttributes: body, body: nodes)
    }

    /// What the script swaps on a `stale` event: the screen with its bar, messages and alert.
    func mainContent() -> [HTMLNode] {
        if snapshot.app.covered { return messages() + cover() }
        var content: [HTMLNode] = [navigationBar()]
        if snapshot.app.offline == true {
            content.append(.el("p", [.attr("role", "status"), .classes("okit-offline")],
                               text: words(.offline)))
        }
        content.append(.el("h1", [.attr("id", "okit-title")], text: title))
        if let subtitle = screen.subtitle { content.append(.el("p", [.classes("okit-subtitle")], text: subtitle)) }
        if let prompt = screen.prompt { content.append(.el("p", [.classes("okit-prompt")], text: prompt)) }
        content += messages()
        if let help = screen.help { content.append(helpDisclosure(help)) }
        content += screenBody()
        var nodes: [HTMLNode]
        if snapshot.app.presented {
            nodes = [.el("div", [.attr("role", "dialog"), .attr("aria-modal", "true"),
                                 .attr("aria-labelledby", "okit-title"), .classes("okit-modal")], content)]
        } else {
            nodes = content
        }
        if let alert = snapshot.alert { nodes.append(alertDialog(alert)) }
        if let bar = context.recordBar { nodes.append(recordBar(bar)) }
        return nodes
    }

    /// How the screen's kind is shown (`PageContext.kinds`: the kinds' own renderers, then the built-in ones).
    public var kind: any WebScreenKind { context.kinds.page(for: screen.kind) }

    /// The screen's own content, per kind.
    func screenBody() -> [HTMLNode] { kind.body(self) }

    /// The notice (`role=status`) and the error (`role=alert`).
    func messages() -> [HTMLNode] {
        var out: [HTMLNode] = []
        if let notice = context.notice {
            out.append(.el("p", [.attr("role", "status"), .classes("okit-notice")], text: VisibleControls.shown(notice)))
        }
        if let error = context.error {
            out.append(.el("p", [.attr("role", "alert"), .classes("okit-error")], text: VisibleControls.shown(error)))
        }
        return out
    }

    /// Help as a disclosure.
    func helpDisclosure(_ help: String) -> HTMLNode {
        .el("details", [.classes("okit-help"), .bool("open")], [.el("summary", text: words(.help)), .el("p", text: help)])
    }

    /// The bar: back link, breadcrumb, the menu button (`menu`, or `close` while the menu is open) and the
    /// screen's buttons.
    func navigationBar() -> HTMLNode {
        var left: [HTMLNode] = []
        if let back = context.backURL {
            left.append(.el("a", [.attr("href", back), .attr("rel", "prev"), .classes("okit-back")], text: words(.back)))
        }
        if snapshot.app.menuOpen {
            left.append(commandButton("close", title: words(.close), ariaLabel: words(.closeMenu), class: "okit-menu-button okit-escape"))
        } else if snapshot.app.presented && context.backURL == nil && !screen.buttons.contains(where: { $0.id == "close" }) {
            // A presented screen with no Close of its own (a settings screen opened from the menu): without this a
            // person had no way back but the menu.
            left.append(commandButton("close", title: words(.close), class: "okit-close okit-escape"))
        } else if context.hasMenu && kind.showsMenuButton {
            left.append(commandButton("menu", title: words(.menu), class: "okit-menu-button"))
        }
        var nodes: [HTMLNode] = [.el("div", [.classes("okit-bar-left")], left)]
        if !context.breadcrumb.isEmpty {
            let items = context.breadcrumb.map {
                $0.url.isEmpty ? HTMLNode.el("li", [], text: $0.title) : .el("li", [], [.el("a", [.attr("href", $0.url)], text: $0.title)])
            }
            + [.el("li", [.attr("aria-current", "page")], text: title)]
            nodes.append(.el("nav", [.attr("aria-label", words(.breadcrumb)), .classes("okit-breadcrumb")], [.el("ol", [], items)]))
        }
        nodes.append(.el("div", [.classes("okit-bar-buttons")], screen.buttons.map(barButton)))
        return .el("header", [.classes("okit-bar")], nodes)
    }

    /// A bar button: `edit` toggles edit mode, `add` adds (shown as "+"), `help` asks for help, the shell's
    /// buttons run `button` with their id, and the screen's own ones are its kind's (`WebScreenKind.barButton`:
    /// `button` with their id; a menu's items run `menuItem`).
    func barButton(_ b: ButtonSnapshot) -> HTMLNode {
        switch b.id {
        case "edit":
            return commandButton("edit", [("on", screen.editing ? "false" : "true")], title: b.title,
                                 enabled: b.enabled, pressed: screen.editing, class: "okit-edit")
        case "add":
            return commandButton("add", title: "+", ariaLabel: words(.add), enabled: b.enabled, class: "okit-add")
        case "help":
            return commandButton("help", title: b.title, ariaLabel: words(.help), enabled: b.enabled)
        case "close":
            // Escape closes a presented screen (the script presses the `okit-escape` button).
            return commandButton("button", [("id", b.id)], title: b.title, enabled: b.enabled,
                                 class: snapshot.app.presented ? "okit-escape" : nil)
        case "search", "clear", "refresh":
            return commandButton("button", [("id", b.id)], title: b.title, enabled: b.enabled)
        default:
            return kind.barButton(b, self)
        }
    }

    /// The tab bar: each tab's title as a link; the current one marked.
    func tabBar() -> HTMLNode {
        let app = snapshot.app
        guard app.tabs.count > 1 else { return .empty }
        let items = app.tabs.enumerated().map { i, tab -> HTMLNode in
            let title = i < app.tabTitles.count ? app.tabTitles[i] : tab
            return .el("li", [], [.el("a", [.attr("href", context.tabURL(tab)),
                                            .attr("aria-current", tab == app.tab ? "page" : nil)], text: title)])
        }
        return .el("nav", [.classes("okit-tabs"), .attr("aria-label", words(.tabs))], [.el("ul", [], items)])
    }

    /// An alert, sheet or prompt: a dialog with a POST form running `respond`; its fields (`fields`, in order) and
    /// one button per action (`action`: the 1-based position).
    func alertDialog(_ alert: AlertSnapshot) -> HTMLNode {
        var content: [HTMLNode] = []
        if let t = alert.title { content.append(.el("h2", [.attr("id", "okit-alert-title")], text: VisibleControls.shown(t))) }
        if let m = alert.message { content.append(.el("p", [.classes("okit-alert-message")], text: VisibleControls.shown(m))) }
        var form: [HTMLNode] = []
        for (i, f) in alert.fields.enumerated() {
            let id = "okit-field-\(i + 1)"
            let label = f.placeholder ?? words(.field, String(i + 1))
            form.append(.el("p", [.classes("okit-field")], [
                .el("label", [.attr("for", id)], text: label),
                .el("input", [.attr("type", f.secure ? "password" : "text"), .attr("id", id), .attr("name", "fields"),
                              .attr("placeholder", f.placeholder),
                              .attr("value", f.secure ? nil : (i < context.dialogFields.count ? context.dialogFields[i] : nil) ?? f.value),
                              .attr("autocomplete", f.secure ? "new-password" : "off"), .bool("autofocus", i == 0)]),
            ]))
        }
        let cancel = cancelAction(alert)
        let buttons = alert.actions.enumerated().map { i, title -> HTMLNode in
            .el("button", [.attr("type", "submit"), .attr("name", "action"), .attr("value", String(i + 1)),
                           .classes("okit-button", i == 0 ? "okit-default" : nil, i == cancel ? "okit-escape" : nil)], text: title)
        }
        form.append(.el("p", [.classes("okit-actions")], buttons))
        content.append(postForm("respond", [(DialogAnswers.field, DialogAnswers.mark(alert))], form))
        return .el("dialog", [.bool("open"), .classes("okit-alert", "okit-\(alert.kind == "sheet" ? "sheet" : "alert")"),
                              .attr("aria-labelledby", alert.title == nil ? nil : "okit-alert-title"),
                              .attr("aria-modal", "true")], content)
    }

    /// The action Escape answers an alert with (the script presses it): its Cancel or No (in the page's language
    /// or English), else its only action;
    /// nil when it has neither (Escape then leaves it open).
    func cancelAction(_ alert: AlertSnapshot) -> Int? {
        let names: Set<String> = [words(.cancel), words(.no), BuiltInWord.cancel.rawValue, BuiltInWord.no.rawValue]
        if let i = alert.actions.firstIndex(where: names.contains) { return i }
        return alert.actions.count == 1 ? 0 : nil
    }

    /// The protection cover: its text and image, and a passphrase form running `authenticate`.
    func cover() -> [HTMLNode] {
        var nodes: [HTMLNode] = [.el("h1", [.attr("id", "okit-title")], text: title)]
        for (s, section) in screen.sections.enumerated() {
            for (r, row) in section.rows.enumerated() {
                if let src = context.imageURL(s, r, row) {
                    nodes.append(.el("img", [.attr("src", src), .attr("alt", ""), .classes("okit-cover-image")]))
                }
                if let text = row.text { nodes.append(.el("p", [.classes("okit-cover-text")], text: text)) }
            }
        }
        nodes.append(postForm("authenticate", [], class: "okit-cover-form", [
            .el("p", [.classes("okit-field")], [
                .el("label", [.attr("for", "okit-passphrase")], text: words(.passphrase)),
                .el("input", [.attr("type", "password"), .attr("id", "okit-passphrase"), .attr("name", "passphrase"),
                              .attr("autocomplete", "current-password"), .bool("required"), .bool("autofocus")]),
            ]),
            .el("p", [.classes("okit-actions")], [
                .el("button", [.attr("type", "submit"), .classes("okit-button", "okit-default")], text: words(.unlock)),
            ]),
        ]))
        if let alert = snapshot.alert { nodes.append(alertDialog(alert)) }
        return [.el("section", [.classes("okit-cover")], nodes)]
    }
}
