import Foundation

/// A tab is addressed as the person sees it (screens.md "Commands and addressing"): its id, its shown title (the
/// exact title first, else the one title that matches case and accents aside), or its 1-based position.
extension AppShell {
    /// The index of the tab `address` names; a refusal lists the tabs as the tab bar shows them.
    func tabIndex(of address: String) throws -> Int {
        if let i = home.firstIndex(of: address) { return i }
        let titles = try stacks.enumerated().map { i, stack in
            let title = try stack.first?.tabTitle() ?? ""
            return title.isEmpty ? home[i] : title
        }
        let exact = titles.indices.filter { titles[$0] == address }
        if exact.count == 1 { return exact[0] }
        if let n = Int(address), n >= 1, n <= home.count { return n - 1 }
        let typed = MatchedText.fold(address.trimmingCharacters(in: .whitespaces))
        let loose = titles.indices.filter { MatchedText.fold(titles[$0]) == typed || MatchedText.fold(home[$0]) == typed }
        if loose.count == 1 { return loose[0] }
        throw ShellError.unknownTab(address, tabs: titles.enumerated().map { "\($0 + 1) \($1)" })
    }
}
