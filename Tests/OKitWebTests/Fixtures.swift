@testable import OKitEngine
import OKitWeb

/// Snapshots built by hand, and checks every page must pass.
enum Fixtures {
    static let evil = "<script>alert(1)</script>"

    static func context(rowLink: @escaping @Sendable (Int, Int, RowSnapshot) -> String? = { _, _, _ in nil },
                        moreRowsURL: String? = nil, error: String? = nil, notice: String? = nil) -> PageContext {
        PageContext(locationPath: "/books?x=1", commandURL: "/command", csrfToken: "TOKEN", version: "7",
                    notice: notice, error: error, breadcrumb: [(title: "Home", url: "/")], backURL: "/",
                    rowLink: rowLink,
                    imageURL: { s, r, _ in "/image/\(s)/\(r)" }, webCellURL: { s, r, _ in "/web/\(s)/\(r)" },
                    moreRowsURL: moreRowsURL)
    }

    static func app(presented: Bool = false) -> AppSnapshot {
        var app = AppSnapshot()
        app.tab = "books"
        app.tabs = ["books", "authors"]
        app.tabTitles = ["Book Shop", "Directory \(evil)"]
        app.presented = presented
        return app
    }

    /// A list with an evil title and row, a linked row, a row with every action, search with scopes.
    static func list() -> Snapshot {
        var screen = ScreenSnapshot(id: "books", kind: "list")
        screen.title = "Books \(evil)"
        screen.subtitle = "2 Books"
        screen.buttons = [ButtonSnapshot(id: "edit", title: "Edit", enabled: true),
                          ButtonSnapshot(id: "add", title: "+", enabled: true),
                          ButtonSnapshot(id: "Directory", title: "Directory", enabled: true)]
        screen.search = SearchSnapshot(visible: true, text: "\"><b>", scopes: ["Fiction", "Poetry"], scope: "Fiction")
        screen.index = ["D", "E"]
        var dune = RowSnapshot(id: "id-dune", text: "Dune", detail: "not marked")
        dune.accessory = AccessorySnapshot(kind: "button", text: "Mark", enabled: true)
        dune.quick = QuickSnapshot(title: "Star", enabled: true)
        dune.more = true
        dune.delete = true
        let evilRow = RowSnapshot(id: nil, text: evil, detail: "\"onmouseover=\"x")
        screen.sections = [SectionSnapshot(header: "D", footer: "Footer \(evil)", rows: [dune]),
                           SectionSnapshot(header: "E", footer: nil, rows: [evilRow])]
        screen.rowCount = 500
        screen.help = "Help \(evil)"
        return Snapshot(app: app(), screen: screen)
    }

    static func cell(_ kind: String, _ text: String, _ control: ControlSnapshot?) -> RowSnapshot {
        var r = RowSnapshot(id: kind, text: text, detail: nil)
        r.kind = kind
        r.control = control
        return r
    }

    /// A detail in edit mode with one cell of every kind.
    static func detail(editing: Bool = true) -> Snapshot {
        var screen = ScreenSnapshot(id: "book", kind: "detail")
        screen.title = "Dune"
        screen.editing = editing
        screen.buttons = [ButtonSnapshot(id: "edit", title: editing ? "Done" : "Edit", enabled: true)]
        let rows: [RowSnapshot] = [
            cell("table", "Author", nil),
            cell("text", evil, ControlSnapshot(value: .string(evil), enabled: editing, placeholder: "Name")),
            cell("multiline", "Notes", ControlSnapshot(value: .string("</textarea>\(evil)"), enabled: editing)),
            cell("switch", "Marked", ControlSnapshot(value: .bool(true), enabled: editing)),
            cell("date", "Released", ControlSnapshot(value: .string("2019-05-01T10:00:00Z"), enabled: editing,
                                                     min: .string("2000-01-01T00:00:00Z"))),
            cell("segment", "Format", ControlSnapshot(value: .int(1), enabled: editing, segments: ["Paper", evil], index: 1)),
            cell("picker", "Genre", ControlSnapshot(value: .string("g2"), enabled: editing, options: ["Fiction", evil], selected: 2)),
            cell("slider", "Rating", ControlSnapshot(value: .double(0.5), enabled: editing, min: .int(0), max: .int(1))),
            cell("stepper", "Copies", ControlSnapshot(value: .int(3), enabled: editing, min: .int(0), max: .int(3), step: .int(1))),
            cell("progress", "Read", ControlSnapshot(value: .double(0.25), enabled: false)),
            cell("image", "Cover", ControlSnapshot(value: .string("cover.png"), enabled: false)),
            cell("web", "Blurb", ControlSnapshot(value: .string("<p>x</p>"), enabled: false)),
            cell("text", "Secret", ControlSnapshot(value: .null, enabled: editing, placeholder: "Secret", secure: true)),
        ]
        screen.sections = [SectionSnapshot(header: "Book \(evil)", footer: "The end", rows: rows)]
        screen.rowCount = rows.count
        return Snapshot(app: app(), screen: screen)
    }

    static func prompt() -> Snapshot {
        var s = list()
        s.alert = AlertSnapshot(kind: "prompt", title: "New \(evil)", message: "Enter \(evil)", actions: ["OK", "Cancel"],
                                fields: [AlertFieldSnapshot(placeholder: "Name \(evil)", value: evil),
                                         AlertFieldSnapshot(placeholder: "Password", value: "hunter2", secure: true)])
        return s
    }

    static func selection() -> Snapshot {
        var screen = ScreenSnapshot(id: "authors", kind: "selection")
        screen.title = "Authors"
        screen.buttons = [ButtonSnapshot(id: "close", title: "Close", enabled: true),
                          ButtonSnapshot(id: "clear", title: "Clear", enabled: true)]
        var a = RowSnapshot(id: "a1", text: "Herbert", detail: nil)
        a.checked = true
        var b = RowSnapshot(id: "a2", text: "Le Guin", detail: nil)
        b.checked = false
        screen.sections = [SectionSnapshot(header: nil, footer: nil, rows: [a, b])]
        screen.rowCount = 2
        return Snapshot(app: app(presented: true), screen: screen)
    }

    static func menu() -> Snapshot {
        var screen = ScreenSnapshot(id: "menu", kind: "menu")
        screen.title = "Menu"
        screen.buttons = [ButtonSnapshot(id: "Settings", title: "Settings", enabled: true)]
        screen.sections = [SectionSnapshot(header: nil, footer: nil, rows: [RowSnapshot(id: "m1", text: "Books", detail: nil)])]
        var app = app()
        app.menuOpen = true
        return Snapshot(app: app, screen: screen)
    }

    static func backups() -> Snapshot {
        var screen = ScreenSnapshot(id: "backups", kind: "backups")
        screen.title = "Backups"
        var r = RowSnapshot(id: "Monday \(evil)", text: "Monday \(evil)", detail: "today")
        r.delete = true
        screen.sections = [SectionSnapshot(header: nil, footer: nil, rows: [r])]
        screen.rowCount = 1
        return Snapshot(app: app(), screen: screen)
    }

    static func cover() -> Snapshot {
        var screen = ScreenSnapshot(id: "cover", kind: "cover")
        var row = RowSnapshot(id: "cover", text: "Locked \(evil)", detail: nil)
        row.image = "lock.png"
        screen.sections = [SectionSnapshot(header: nil, footer: nil, rows: [row])]
        var app = app()
        app.covered = true
        return Snapshot(app: app, screen: screen)
    }

    static var all: [Snapshot] {
        [list(), detail(), detail(editing: false), prompt(), selection(), menu(), backups(), cover()]
    }

    /// How often `needle` occurs in `haystack`.
    static func count(_ needle: String, in haystack: String) -> Int {
        haystack.components(separatedBy: needle).count - 1
    }
}
