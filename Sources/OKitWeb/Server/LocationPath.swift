import OKitEngine

/// A shell's location as a URL path (web.md "URLs name where the person is"):
/// `/<tab>/<screen>~<entity id>/…` for the tab's stack after its home screen, then `/!/<screen>~<id>/…` for
/// each presented stack. The home screen is the tab's; a screen without a context entity has no `~`.
/// Each part is one percent-encoded path segment.
public enum LocationPath {
    public static func path(_ location: ShellLocation) -> String {
        var parts: [String] = [location.tab ?? location.stack.first?.screen ?? "home"]
        func step(_ s: ShellLocation.Step) -> String {
            PageContext.pathSegment(s.screen) + (s.entity.map { "~" + PageContext.pathSegment($0) } ?? "")
        }
        parts[0] = PageContext.pathSegment(parts[0])
        parts += location.stack.dropFirst().map(step)
        for stack in location.presented { parts.append("!"); parts += stack.map(step) }
        return "/" + parts.joined(separator: "/")
    }

    /// Where the shell is as a URL: its location's path, and the top screen's search as `text` and `scope`
    /// (`/books?text=ann&scope=Marked`), as the search form's GET names it.
    public static func url(_ shell: AppShell) -> String {
        let path = path(shell.location)
        return searchQuery(shell.top).map { path + "?" + $0 } ?? path
    }

    /// `text=…` and `&scope=…` of a screen's search, escaped; nil when it searches nothing.
    public static func searchQuery(_ screen: (any ShellScreen)?) -> String? {
        guard let search = screen?.searchQuery else { return nil }
        return "text=" + PageContext.pathSegment(search.text) + (search.scope.map { "&scope=" + PageContext.pathSegment($0) } ?? "")
    }

    /// The most screens a URL names after its tab's first (presented ones counted): a deeper path lands on its
    /// first `maxScreens`, with the notice of a place that does not exist (web.md "Limits of the server").
    public static let maxScreens = 32

    /// The location a path names, given the shell's home screens (nil for a path that names no tab). Only its first
    /// `maxScreens` screens are read: `truncated` says when it names more.
    public static func location(_ path: String, home: [String], homeStack: (String) -> ShellLocation.Step?)
        -> (location: ShellLocation, truncated: Bool)? {
        var segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard let first = segments.first.map({ decode(String($0)) }), home.contains(first) || home.isEmpty else { return nil }
        guard let root = homeStack(first) else { return nil }
        var stack = [root]
        var presented: [[ShellLocation.Step]] = []
        var steps = 0
        segments.removeFirst()
        var rest = segments[...]
        while let segment = rest.popFirst() {
            if segment == "!" { presented.append([]); continue }
            if steps == maxScreens { rest.append(segment); break }
            steps += 1
            let parts = segment.split(separator: "~", maxSplits: 1, omittingEmptySubsequences: false).map { decode(String($0)) }
            let step = ShellLocation.Step(screen: parts[0], entity: parts.count > 1 ? parts[1] : nil)
            if presented.isEmpty { stack.append(step) } else { presented[presented.count - 1].append(step) }
        }
        let location = ShellLocation(tab: home.isEmpty ? nil : first, stack: stack, presented: presented.filter { !$0.isEmpty })
        return (location, !rest.isEmpty)
    }

    /// Percent-decoding of one path segment (`+` stays `+`).
    public static func decode(_ segment: String) -> String {
        FormBody.unescape(Substring(segment.replacingOccurrences(of: "+", with: "%2B")))
    }
}
