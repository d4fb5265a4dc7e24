/// "Did you mean" for a misspelt name: the closest known name by edit distance (case-insensitive), when it is
/// close enough (at most 2 edits, or a third of the name's length for long names).
/// Names longer than `maxLength` are not compared (no suggestion): an edit distance costs the product of the two
/// lengths, and a name that long (a pasted paragraph, a hostile command line) is no typo of a short one.
public enum NameSuggestion {
    /// Longest name compared, in characters.
    public static let maxLength = 64

    /// Whether `name` is short enough to compare (`maxLength` characters; its bytes are looked at first, so a
    /// huge text costs nothing).
    public static func comparable(_ name: String) -> Bool {
        name.utf8.count <= maxLength || (name.utf8.count <= 4 * maxLength && name.count <= maxLength)
    }

    /// The closest known name, or nil.
    public static func closest(to name: String, in known: some Sequence<String>) -> String? {
        guard comparable(name) else { return nil }
        let lower = Array(name.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in known where candidate != name && comparable(candidate) {
            let other = Array(candidate.lowercased())
            let d = distance(lower, other)
            if let b = best, d > b.distance || (d == b.distance && candidate >= b.name) { continue }
            // A short name is "close" to any other short name (`nm` is 2 edits from `eq`): a candidate as many
            // edits away as the shorter name is long must at least keep the name's letters in order (`nm` → `name`).
            guard d < min(lower.count, other.count) || isSubsequence(lower, of: other) || isSubsequence(other, of: lower) else { continue }
            best = (candidate, d)
        }
        guard let best, best.distance <= max(2, name.count / 3) else { return nil }
        return best.name
    }

    /// The closest of `preferred` (what the position reads first: an entity's fields), else the closest of
    /// `fallback` (extensions) that is nearer still — at most a third of the name's length away, one edit for a
    /// short name — so `dat` on an entity with no field near it suggests no `not`, while `isnill` still finds `isNil`.
    public static func closest(to name: String, preferring preferred: some Sequence<String>,
                               else fallback: some Sequence<String>) -> String? {
        if let near = closest(to: name, in: preferred) { return near }
        guard let other = closest(to: name, in: fallback),
              distance(Array(name.lowercased()), Array(other.lowercased())) <= max(1, name.count / 3) else { return nil }
        return other
    }

    /// Whether `a`'s characters appear in `b` in order.
    static func isSubsequence(_ a: [Character], of b: [Character]) -> Bool {
        var i = 0
        for c in b where i < a.count && c == a[i] { i += 1 }
        return i == a.count
    }

    /// ` (did you mean "x"?)`, or "" when no known name is close.
    public static func hint(for name: String, in known: some Sequence<String>) -> String {
        closest(to: name, in: known).map { " (did you mean \"\($0)\"?)" } ?? ""
    }

    /// ` (did you mean "x"?)` for `closest(to:preferring:else:)`, or "".
    public static func hint(for name: String, preferring preferred: some Sequence<String>,
                            else fallback: some Sequence<String>) -> String {
        closest(to: name, preferring: preferred, else: fallback).map { " (did you mean \"\($0)\"?)" } ?? ""
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
