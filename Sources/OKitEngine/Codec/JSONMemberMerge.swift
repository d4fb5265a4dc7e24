/// An entity's object in a file, with only its changed members rewritten (the exit patch,
/// `FileStorage.patchAtExit`): the members whose okit form is the same before and after keep their bytes in the
/// file as they are — a date written as a number by another program stays a number, an unknown field keeps its
/// spacing — so a rename does not grow the object by rewriting every value in okit's form.
enum JSONMemberMerge {
    /// The object `file` (its bytes in the file) with the members that differ between `before` (the okit form of
    /// the entity as the file holds it) and `after` (its okit form now) replaced, added or removed; nil when a form
    /// is not an object, or the file's keys are escaped (a key could then be missed, and added twice).
    static func merged(file: UnsafeBufferPointer<UInt8>, before: [UInt8], after: [UInt8]) -> [UInt8]? {
        guard let fileMembers = members(file), let beforeMembers = before.withUnsafeBufferPointer({ members($0) }),
              let afterMembers = after.withUnsafeBufferPointer({ members($0) }),
              !fileMembers.isEmpty, fileMembers.allSatisfy({ !file[$0.key].contains(0x5C) }) else { return nil }
        func key(_ bytes: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> [UInt8] { Array(bytes[r]) }
        var inFile: [[UInt8]: Int] = [:]
        for (n, m) in fileMembers.enumerated() { inFile[key(file, m.key)] = n }
        var was: [[UInt8]: [UInt8]] = [:]
        for m in beforeMembers { was[Array(before[m.key])] = Array(before[m.value]) }
        var now: Set<[UInt8]> = []
        // Edits of the file's bytes: a range and what replaces it.
        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        var added: [UInt8] = []
        for m in afterMembers {
            let k = Array(after[m.key]), v = Array(after[m.value])
            now.insert(k)
            if was[k] == v { continue }
            if let n = inFile[k] {
                edits.append((fileMembers[n].value, v))
            } else {
                added += [0x2C] + k + [0x3A] + v
            }
        }
        for (k, _) in was where !now.contains(k) {
            guard let n = inFile[k] else { continue }
            // A member gone (a nil optional): removed with the comma before it (after it, for the first).
            let m = fileMembers[n]
            let range = n > 0 ? fileMembers[n - 1].value.upperBound..<m.value.upperBound
                : n + 1 < fileMembers.count ? m.key.lowerBound..<fileMembers[n + 1].key.lowerBound : m.key.lowerBound..<m.value.upperBound
            edits.append((range, []))
        }
        if !added.isEmpty, let last = fileMembers.last { edits.append((last.value.upperBound..<last.value.upperBound, added)) }
        edits.sort { $0.range.lowerBound < $1.range.lowerBound }
        var out: [UInt8] = []
        out.reserveCapacity(file.count + added.count)
        var at = 0
        for e in edits {
            guard e.range.lowerBound >= at else { return nil }   // overlapping edits: not expected, not guessed at
            out += file[at..<e.range.lowerBound]
            out += e.bytes
            at = e.range.upperBound
        }
        out += file[at...]
        return out
    }

    private static func members(_ bytes: UnsafeBufferPointer<UInt8>) -> [(key: Range<Int>, value: Range<Int>)]? {
        var scan = StructuralScan(doc: bytes, i: 0)
        guard let m = scan.members(), scan.i == bytes.count else { return nil }
        return m
    }
}
