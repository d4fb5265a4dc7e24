import Foundation
import OKitEngine

/// Lists, menus and selection screens: search, the A–Z index, sections of rows (with their `groupHeader` and
/// `groupFooter` lines), the list's footer (`footerPath`), the "More rows" link.
extension PageRenderer {
    /// How a list's rows act: their main part runs `tap` (or `select`, on selection screens), and in edit mode
    /// they may offer Select and Move buttons (lists).
    public struct ListRows: Sendable {
        /// The command a row's main part runs when it opens no screen: `tap`, or `select` (a toggle, checked or not).
        public enum Main: Sendable { case tap, select }
        public var main: Main
        public var editActions: Bool
        public init(main: Main = .tap, editActions: Bool = false) {
            self.main = main
            self.editActions = editActions
        }
    }

    /// The search, index, sections of rows, footer and "More rows" of a list-like screen.
    public func listBody(_ rows: ListRows = ListRows()) -> [HTMLNode] {
        var out: [HTMLNode] = []
        if let search = screen.search, search.visible { out.append(searchForm(search)) }
        if !screen.index.isEmpty { out.append(indexLinks()) }
        out += screen.sections.enumerated().map { s, section in
            sectionNode(section, index: s, ordered: false, groupTitle: true) { r, row in listRow(row, section: s, index: r, rows) }
        }
        if let footer = screen.footer { out.append(.el("p", [.classes("okit-footer", "okit-list-footer")], text: footer)) }
        out.append(moreRows())
        return out
    }

    /// A section of a grouped table: `<section id=section-N>` with an `<h2>` header, a subheader `<p>`, the rows, a
    /// footer `<p>`. A list's section titles (`groupTitle`) are shown as written, not upper-cased as other
    /// headers are: "Ё" and "ё" are two sections, and must not both read "Ё".
    public func sectionNode(_ section: SectionSnapshot, index s: Int, ordered: Bool, groupTitle: Bool = false,
                     row: (Int, RowSnapshot) -> HTMLNode) -> HTMLNode {
        var nodes: [HTMLNode] = []
        let headerID = "section-\(s + 1)-header"
        if let h = section.header {
            nodes.append(.el("h2", [.attr("id", headerID), .classes(groupTitle ? "okit-group-title" : nil)], text: h))
        }
        if let sub = section.subheader { nodes.append(.el("p", [.classes("okit-subheader")], text: sub)) }
        nodes.append(.el(ordered ? "ol" : "ul", [.classes("okit-rows")], section.rows.enumerated().map { row($0, $1) }))
        if let f = section.footer { nodes.append(.el("p", [.classes("okit-footer")], text: f)) }
        return .el("section", [.attr("id", "section-\(s + 1)"), .classes("okit-section"),
                               .attr("aria-labelledby", section.header == nil ? nil : headerID)], nodes)
    }

    /// The search field in a GET form (to this page), with the scopes as a radio group.
    func searchForm(_ search: SearchSnapshot) -> HTMLNode {
        var nodes: [HTMLNode] = [
            .el("label", [.attr("for", "okit-search"), .classes("okit-visually-hidden")], text: words(.search)),
            .el("input", [.attr("type", "search"), .attr("id", "okit-search"), .attr("name", "text"),
                          .attr("value", search.text), .attr("placeholder", words(.search))]),
        ]
        if !search.scopes.isEmpty {
            // A shell's snapshot has "All" first; a snapshot made by hand may leave it out.
            let all = words(.all)
            let titles = search.scopes.first == all ? search.scopes : [all] + search.scopes
            let scopes = titles.enumerated().map { i, scope -> HTMLNode in
                let id = "okit-scope-\(i + 1)"
                return .el("span", [.classes("okit-segment")], [
                    .el("input", [.attr("type", "radio"), .attr("id", id), .attr("name", "scope"), .attr("value", scope),
                                  .bool("checked", scope == search.scope)]),
                    .el("label", [.attr("for", id)], text: scope),
                ])
            }
            nodes.append(.el("fieldset", [.classes("okit-segments", "okit-scopes")],
                             [.el("legend", [.classes("okit-visually-hidden")], text: words(.scope))] + scopes))
        }
        nodes += keptQuery(context.locationPath).map { hidden($0.name, $0.value) }
        nodes.append(.el("button", [.attr("type", "submit"), .classes("okit-button", "okit-nojs")], text: words(.search)))
        return .el("form", [.attr("method", "get"), .attr("action", pathOnly(context.locationPath)),
                            .attr("role", "search"), .classes("okit-search", "okit-auto")], nodes)
    }

    /// A location without its query (the search form's GET replaces the query).
    func pathOnly(_ location: String) -> String {
        location.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? location
    }

    /// The query parameters of a location other than `text`, `scope` and `offset` (decoded), which the search
    /// form carries along as hidden fields so that a search keeps the place the URL names.
    func keptQuery(_ location: String) -> [(name: String, value: String)] {
        let parts = location.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return [] }
        func decoded(_ s: Substring) -> String {
            let plus = s.replacingOccurrences(of: "+", with: " ")
            return plus.removingPercentEncoding ?? plus
        }
        return parts[1].split(separator: "&").compactMap { pair in
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decoded(kv[0])
            guard !name.isEmpty, !["text", "scope", "offset"].contains(name) else { return nil }
            return (name, kv.count == 2 ? decoded(kv[1]) : "")
        }
    }

    /// The A–Z index: a link per letter to the first section whose header starts with it.
    func indexLinks() -> HTMLNode {
        // OKit's index is the whole alphabet: a letter without a section leads to the next section after it.
        let letters = screen.index.map { letter -> HTMLNode in
            guard let target = screen.indexSection(letter) else { return .el("li", [], text: letter) }
            return .el("li", [], [.el("a", [.attr("href", "#section-\(target + 1)")], text: letter)])
        }
        return .el("nav", [.classes("okit-index"), .attr("aria-label", words(.index))], [.el("ol", [], letters)])
    }

    /// "More rows" when the list has more rows than the window shows.
    func moreRows() -> HTMLNode {
        let shown = screen.sections.reduce(0) { $0 + $1.rows.count }
        guard screen.rowCount > context.rowOffset + shown, let url = context.moreRowsURL else { return .empty }
        return .el("p", [.classes("okit-more-rows")], [
            .el("a", [.attr("href", url)], text: words(.moreRows)),
            .el("span", [.classes("okit-count")], text: " (" + words(.rowsShown, String(context.rowOffset + shown), String(screen.rowCount)) + ")"),
        ])
    }

    /// The row's main part: its image, text and detail.
    func rowLabel(_ row: RowSnapshot, section s: Int, index r: Int) -> [HTMLNode] {
        var nodes: [HTMLNode] = []
        if row.image != nil, let src = context.imageURL(s, r, row) {
            nodes.append(.el("img", [.attr("src", src), .attr("alt", ""), .classes("okit-row-image")]))
        }
        nodes.append(.el("span", [.classes("okit-text")], text: row.text ?? ""))
        if let d = row.detail { nodes.append(.el("span", [.classes("okit-detail")], text: d)) }
        return nodes
    }

    /// A list row: a link when it opens a screen, else a `tap` (or, on selection screens, `select`) button; then
    /// its actions (``rowActions(_:address:section:index:_:)``: the accessory, the edit-mode buttons, the row menu).
    func listRow(_ row: RowSnapshot, section s: Int, index r: Int, _ rows: ListRows) -> HTMLNode {
        let address = address(row, section: s, index: r)
        let label = rowLabel(row, section: s, index: r)
        var main: HTMLNode
        if rows.main == .select {
            main = postForm("select", [("row", address)], class: "okit-row-form", [
                .el("button", [.attr("type", "submit"), .classes("okit-row-main", "okit-check"),
                               .attr("aria-pressed", row.checked == true ? "true" : "false")], label),
            ])
        } else if let url = context.rowLink(s, r, row) {
            main = .el("a", [.attr("href", url), .classes("okit-row-main", "okit-disclosure")], label)
        } else {
            main = postForm("tap", [("row", address)], class: "okit-row-form", [
                .el("button", [.attr("type", "submit"), .classes("okit-row-main")], label),
            ])
        }
        return .el("li", [.attr("id", domID("row", section: s, index: r)),
                          .classes("okit-row", row.checked == true || row.selected ? "okit-checked" : nil,
                                   row.ribbon == nil ? nil : "okit-ribbon")],
                   [main] + rowActions(row, address: address, section: s, index: r, rows))
    }
}
