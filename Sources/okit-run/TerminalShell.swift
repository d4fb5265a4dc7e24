import CLineEdit
import Foundation
import OKitEngine
import OKitLua

/// The terminal shell: draws the current snapshot as text, reads a command line (libedit: editing, history),
/// applies it, redraws. Errors are one line and the session goes on; `quit` or end of input stores the state.
final class TerminalShell {
    let app: LuaApp
    let color: Bool
    /// The ANSI colour of buttons and accents: the theme's `tintColor` (24-bit), else blue.
    var tintCode = "\u{1B}[34m"

    init(app: LuaApp, color: Bool) {
        self.app = app
        self.color = color
    }

    func bold(_ s: String) -> String { color ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    func tint(_ s: String) -> String { color ? "\(tintCode)\(s)\u{1B}[0m" : s }

    /// Takes the tint from the snapshot's theme (`#RRGGBB`).
    func useTheme(_ app: AppSnapshot) {
        guard let hex = app.themeValues.first(where: { $0.key == "tintColor" })?.value, hex.count == 7, hex.hasPrefix("#"),
              let rgb = Int(hex.dropFirst(), radix: 16) else { tintCode = "\u{1B}[34m"; return }
        tintCode = "\u{1B}[38;2;\((rgb >> 16) & 0xFF);\((rgb >> 8) & 0xFF);\(rgb & 0xFF)m"
    }
    func dim(_ s: String) -> String { color ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
    func red(_ s: String) -> String { color ? "\u{1B}[31m\(s)\u{1B}[0m" : s }

    func run() {
        draw()
        while let raw = okit_readline("> ") {
            let line = String(cString: raw)
            free(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { draw(); continue }
            okit_add_history(trimmed)
            guard let cmd = CommandSyntax.command(trimmed), let name = cmd["cmd"] as? String else { continue }
            if name == "commands" {
                print(help)
                continue
            }
            if name == "authenticate", cmd["ok"] as? Bool != false {
                // The shell's answer to the cover: the app's authenticate function, or the passphrase, asked with
                // echo off.
                let passphrase = app.authenticatesByPassphrase ? SecretInput.ask("Passphrase: ") : nil
                do { try app.authenticate(passphrase: passphrase); draw() } catch { print(red("\(error)")) }
                continue
            }
            do {
                if try DriverCommands.run(app.driver, name, cmd) { break }
                draw()
            } catch {
                print(red("\(error)"))
            }
        }
    }

    var help: String {
        """
        Rows:       tap ROW · select ROW · accessory ROW · quick ROW · more ROW · delete ROW · move FROM TO
        Screen:     add [TEXT] · search TEXT [@SCOPE] · edit on|off · set CELL VALUE · button ID · titleTap · help
        Navigation: open ID [CONTEXT] · present ID [CONTEXT] · back · close · tab ID · menu · menuItem TITLE
        Alerts:     respond ACTION [FIELD…]
        App:        screen [OFFSET LIMIT] · advance SECONDS · background · foreground · authenticate [fail]
                    store · relaunch · quit
        ROW is a position, an id or a row's text; quote words with spaces ("Release Date").
        """
    }

    func draw() {
        guard let snap = try? app.shell.snapshot() else { print(red("(no screen)")); return }
        useTheme(snap.app)
        print(render(snap))
    }

    func render(_ snap: Snapshot) -> String {
        if snap.app.covered {
            let text = snap.app.cover.map { $0.isEmpty ? "" : " " + $0 } ?? ""
            return bold("[covered]\(text)") + dim("   (authenticate to continue; foreground comes back)")
        }
        var out: [String] = []
        let s = snap.screen
        if snap.app.tabs.count > 1 {
            out.append(snap.app.tabs.enumerated().map { i, t in
                let title = i < snap.app.tabTitles.count ? snap.app.tabTitles[i] : t
                return t == snap.app.tab ? tint("[\(title)]") : " \(title) "
            }.joined(separator: " "))
        }
        var title = bold(s.title ?? s.id)
        if let sub = s.subtitle { title += dim(" — \(sub)") }
        if s.editing { title += tint(" (editing)") }
        out.append(title)
        if let search = s.search, search.visible { out.append(dim("search: \"\(search.text)\"")) }
        if !s.index.isEmpty { out.append(dim("index: " + s.index.joined(separator: " "))) }
        var n = 0
        for section in s.sections {
            if let h = section.header { out.append(bold(h)) }
            for r in section.rows {
                n += 1
                var line = "  \(n). \(r.text ?? "")"
                if let d = r.detail { line += dim(" — \(d)") }
                if let c = r.control {
                    switch c.value {
                    case .bool(let b): line += " [\(b ? "on" : "off")]"
                    case .int(let i): line += " [\(i)]"
                    case .double(let d): line += " [\(Value.displayDouble(d))]"
                    case .string(let t): line += " [\(t)]"
                    case .null: line += " [ ]"
                    }
                }
                if let a = r.accessory { line += " " + tint("(\(a.text ?? "•"))") }
                if let q = r.quick, q.enabled { line += dim(" quick: \(q.title)") }
                if r.more { line += dim(" …") }
                out.append(line)
            }
        }
        if s.rowCount > n, s.kind == "list" { out.append(dim("  … \(s.rowCount - n) more")) }
        if let a = snap.alert {
            out.append(bold("┌ \(a.title ?? (a.kind == "sheet" ? "Actions" : "Alert"))"))
            if let m = a.message { out.append("│ \(m)") }
            for f in a.fields { out.append("│ [\(f.placeholder ?? "")]") }
            out.append("└ " + a.actions.enumerated().map { tint("\($0.offset + 1) \($0.element)") }.joined(separator: "  ") + dim("   (respond ACTION [FIELDS])"))
        }
        return out.joined(separator: "\n")
    }
}
