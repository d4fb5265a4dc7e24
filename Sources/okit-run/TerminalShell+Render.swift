import Foundation
import OKitEngine

/// What the terminal shell draws: everything the snapshot holds, as text (tabs, title with edit mode and a presented
/// screen's mark, bar buttons, help text, then the screen's content as its kind draws it (`TerminalKinds`: search
/// and scopes, index, sections with headers and a list's `groupHeader` line, rows (TerminalShell+Rows.swift) and
/// footers, a list's footer), then the waiting alert or action sheet).
extension TerminalShell {
    func render(_ snap: Snapshot) -> String {
        if snap.app.covered {
            let text = snap.app.cover.map { $0.isEmpty ? "" : " " + $0 } ?? ""
            return bold("[\(word(.coveredMark))]\(text)") + dim("   (\(word(.coveredHint)))")
        }
        var out: [String] = []
        let s = snap.screen
        if snap.app.tabs.count > 1 {
            out.append(snap.app.tabs.enumerated().map { i, t in
                let title = i < snap.app.tabTitles.count ? snap.app.tabTitles[i] : t
                return t == snap.app.tab ? tint("[\(title)]") : " \(title) "
            }.joined(separator: " "))
        }
        if snap.app.offline == true { out.append(tint("[offline]") + dim(" " + word(.offlineMark))) }
        var title = bold(s.title ?? s.id)
        if let sub = s.subtitle { title += dim(" — \(sub)") }
        if s.editing { title += tint(" (\(session.engine.word(.editing)))") }
        // A presented (modal) screen, not one pushed on the stack: `close` takes it away.
        if snap.app.presented { title += dim("  [\(word(.presentedMark))]") }
        out.append(title)
        if let prompt = s.prompt { out.append(dim(prompt)) }
        if !s.buttons.isEmpty { out.append(buttonsLine(s.buttons)) }
        if let help = s.help {
            out += help.split(separator: "\n", omittingEmptySubsequences: false).map { tint("? ") + $0 }
        }
        out += kinds.lines(for: s.kind).lines(s, self)
        if let a = snap.alert { out += alertLines(a) }
        return out.joined(separator: "\n")
    }

    /// Search and scopes, index, sections with headers (and a list's `groupHeader` line), numbered rows and
    /// footers, the list's footer; `windowed`: "… N more" when the rows shown are a window of the list;
    /// `marksSelection`: in edit mode a selected row (a list's `selectPath`) shows `[x]`.
    func rowsLines(_ s: ScreenSnapshot, windowed: Bool, marksSelection: Bool = false) -> [String] {
        var out: [String] = []
        if let search = s.search, search.visible { out.append(searchLine(search)) }
        if !s.index.isEmpty { out.append(dim(word(.labelled, word(.indexLabel), s.index.joined(separator: " ")))) }
        var n = 0
        for section in s.sections {
            if let h = section.header { out.append(bold(h)) }
            if let sub = section.subheader { out.append(dim(sub)) }
            for r in section.rows {
                n += 1
                out += rowLines(r, number: n, selecting: marksSelection && s.editing)
            }
            if let f = section.footer { out.append(dim("  \(f)")) }
        }
        if s.rowCount > n, windowed { out.append(dim("  " + word(.moreCount, String(s.rowCount - n)))) }
        if let footer = s.footer { out.append(dim(footer)) }
        return out
    }

    /// The bar buttons by title (`[Edit] [+] [?]`); a disabled one dimmed (without colours: in parentheses).
    func buttonsLine(_ buttons: [ButtonSnapshot]) -> String {
        buttons.map { b in
            b.enabled ? tint("[\(b.title)]") : (color ? dim("[\(b.title)]") : "(\(b.title))")
        }.joined(separator: " ")
    }

    /// The search text and, with scopes, each scope with the chosen one in brackets.
    func searchLine(_ search: SearchSnapshot) -> String {
        var line = word(.labelled, word(.searchLabel), word(.quoted, search.text))
        if !search.scopes.isEmpty {
            line += "  " + word(.labelled, word(.scopesLabel), search.scopes.map { $0 == search.scope ? "[\($0)]" : $0 }.joined(separator: " "))
        }
        return dim(line)
    }

    /// The waiting alert, prompt or action sheet: title, message, fields, and the numbered actions.
    func alertLines(_ a: AlertSnapshot) -> [String] {
        var out = [bold("┌ \(a.title ?? session.engine.word(a.kind == "sheet" ? .actions : .alert))")]
        if let m = a.message { out.append("│ \(m)") }
        for f in a.fields { out.append("│ [\(f.secure ? "••••" : f.value.flatMap { $0.isEmpty ? nil : $0 } ?? f.placeholder ?? "")]") }
        let actions = a.actions.enumerated().map { tint("\($0.offset + 1) \($0.element)") }.joined(separator: "  ")
        out.append("└ " + actions + dim("   (respond ACTION [FIELDS])"))
        return out
    }
}
