import Foundation
import Testing
import OKitTestSupport

/// The command plumbing and the front ends dispatch on data, never on a screen kind's name: no file of the
/// driver, the shell, the web page and command handling or the terminal renderer compares a kind with a
/// built-in kind's name or switches on a screen's kind (each kind's commands are its `ScreenKind`'s, its pages
/// and lines are registered by name in the front ends' kind folders).
@Suite struct KindDispatchTests {
    static let kindNames = ["list", "detail", "settings", "selection", "menu", "backups"]

    /// The files that dispatch, relative to the repository.
    static let dispatchers = [
        "Sources/OKitEngine/Session/Driver.swift", "Sources/OKitEngine/Session/Driver+Commands.swift",
        "Sources/OKitEngine/Screens/Shell/AppShell.swift", "Sources/OKitEngine/Screens/Shell/AppShell+Commands.swift",
        "Sources/OKitEngine/Screens/Shell/AppShell+Menu.swift",
        "Sources/OKitWeb/Page/PageRenderer.swift", "Sources/OKitWeb/Page/PageRenderer+List.swift",
        "Sources/OKitWeb/Page/PageRenderer+Detail.swift", "Sources/OKitWeb/Page/PageRenderer+Backups.swift",
        "Sources/OKitWeb/Page/PageRenderer+Forms.swift",
        "Sources/OKitWeb/Server/WebApp+Command.swift", "Sources/OKitWeb/Server/WebApp+Page.swift",
        "Sources/okit-run/TerminalShell.swift", "Sources/okit-run/TerminalShell+Render.swift",
        "Sources/okit-run/DriverCommands.swift", "Sources/okit-run/JSONLinesDriver.swift",
    ]

    /// `file:line: code` for each line (its code, not its comment) that compares something with a kind's name
    /// (`kind == "list"`, `!= "menu"`), switches on a screen's kind, or has a `case` starting with a kind's name.
    static func kindDispatch(in files: [String], root: URL) -> [String] {
        let names = kindNames.joined(separator: "|")
        let patterns = [
            #"[!=]=\s*"(\#(names))""#, #""(\#(names))"\s*[!=]="#,
            #"switch\s+[\w?.]*screen[\w?.]*\.kind\b"#, #"switch\s+kind\b"#,
            #"case\s+"(\#(names))"\s*[:,]"#,
        ].map { try! NSRegularExpression(pattern: $0) }
        var found: [String] = []
        for file in files {
            guard let text = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) else {
                found.append("\(file): missing")
                continue
            }
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line.range(of: "//").map { line[..<$0.lowerBound] } ?? line)
                let range = NSRange(code.startIndex..., in: code)
                if patterns.contains(where: { $0.firstMatch(in: code, range: range) != nil }) {
                    found.append("\(file):\(n + 1): \(code.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return found
    }

    @Test func noDispatcherNamesAScreenKind() {
        let found = Self.kindDispatch(in: Self.dispatchers, root: OKitRun.root)
        #expect(found.isEmpty, "dispatch on a screen kind's name (give the kind a command, a page or lines instead):\n\(found.joined(separator: "\n"))")
    }

    @Test func aDispatchOnAKindsNameIsFound() throws {
        let folder = try TempFolder()
        try folder.put("A.swift", """
            if screen.kind == "list" { }   // a comparison
            switch snapshot.screen.kind {
            case "detail", "settings": break
            case "button", "detail": break
            }
            let x = 1 // s.kind == "menu" in a comment
            if "backups" != kind { }
            """)
        #expect(Self.kindDispatch(in: ["A.swift"], root: folder.url) == [
            #"A.swift:1: if screen.kind == "list" { }"#, "A.swift:2: switch snapshot.screen.kind {",
            #"A.swift:3: case "detail", "settings": break"#, #"A.swift:7: if "backups" != kind { }"#,
        ])
    }
}
