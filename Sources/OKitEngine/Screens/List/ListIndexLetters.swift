/// The letters of a list's index (`index`): the first letter of each section title, A–Z or `#`, in the order of
/// the sections — kept with their row counts so that a row moving in or out changes them without a pass over
/// every row (the unfiltered list only; a search computes them over its matches).
struct ListIndexLetters {
    private(set) var letters: [String] = []
    private var counts: [String: Int] = [:]
    /// Each letter's rows are together: a row can join its letter without changing the letters' order.
    private var contiguous = true

    /// The index letter of a section title.
    static func letter(_ title: String?) -> String {
        guard let b = title?.utf8.first else { return "#" }
        if b >= 0x41 && b <= 0x5A { return String(UnicodeScalar(b)) }
        if b >= 0x61 && b <= 0x7A { return String(UnicodeScalar(b - 32)) }
        if b < 0x80 { return "#" }
        let first = title?.first.map { String($0).uppercased() } ?? "#"
        return first.count == 1 && ("A"..."Z").contains(first) ? first : "#"
    }

    /// The letters of rows with these section titles, in order.
    init<S: Sequence>(titles: S) where S.Element == String? {
        var last: String?? = .none
        var current = ""
        for t in titles {
            if case .some(let p) = last, p == t { counts[current, default: 0] += 1; continue }
            last = .some(t)
            let l = ListIndexLetters.letter(t)
            if l != current, counts[l] != nil { contiguous = false }
            if counts[l] == nil { letters.append(l) }
            counts[l, default: 0] += 1
            current = l
        }
    }

    /// A row of title `title` came in at position `p` (`title(i)` gives the titles after it came in); false when
    /// the letters must be computed again.
    mutating func inserted(_ title: String?, at p: Int, count: Int, title at: (Int) -> String?) -> Bool {
        guard contiguous else { return false }
        let l = ListIndexLetters.letter(title)
        let before = p > 0 ? ListIndexLetters.letter(at(p - 1)) : nil
        let after = p + 1 < count ? ListIndexLetters.letter(at(p + 1)) : nil
        if let n = counts[l], n > 0 {
            guard before == l || after == l else { return false }
            counts[l] = n + 1
            return true
        }
        if let before, let after, before == after { return false }   // inside another letter's rows
        let i = before.flatMap { b in letters.firstIndex(of: b).map { $0 + 1 } } ?? 0
        letters.insert(l, at: i)
        counts[l] = 1
        return true
    }

    /// A row of title `title` went out.
    mutating func removed(_ title: String?) {
        let l = ListIndexLetters.letter(title)
        guard let n = counts[l] else { return }
        if n <= 1 {
            counts[l] = nil
            letters.removeAll { $0 == l }
        } else {
            counts[l] = n - 1
        }
    }
}
