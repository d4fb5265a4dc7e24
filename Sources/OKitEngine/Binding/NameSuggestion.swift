/// "Did you mean" for a misspelt name: the closest known name by edit distance (case-insensitive), when it is
/// close enough (at most 2 edits, or a third of the name's length for long names).
public enum NameSuggestion {
    /// The closest known name, or nil.
    public static func closest(to name: String, in known: some Sequence<String>) -> String? {
        let lower = Array(name.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in known where candidate != name {
            let d = distance(lower, Array(candidate.lowercased()))
            if let b = best, d > b.distance || (d == b.distance && candidate >= b.name) { continue }
            best = (candidate, d)
        }
        guard let best, best.distance <= max(2, name.count / 3) else { return nil }
        return best.name
    }

    /// ` (did you mean "x"?)`, or "" when no known name is close.
    public static func hint(for name: String, in known: some Sequence<String>) -> String {
        closest(to: name, in: known).map { " (did you mean \"\($0)\"?)" } ?? ""
    }

    /// Levenshtein distance.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
