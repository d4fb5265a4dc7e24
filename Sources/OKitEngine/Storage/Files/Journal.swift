import CZlib

/// The journal beside a model file: small changes are appended here instead of rewriting the whole model
/// (performance.md: the cost of a change must not be the cost of the whole model).
///
/// Format: a first line `OKJ1 <generation>` naming the generation of the model file it applies to, then one
/// record per line: `<crc32 hex, 8 digits> <byte length> <JSON object of one entity>`. A record replaces the
/// stored content of the entity with that object's id. A torn last record (no closing newline) ends the journal
/// there (it was not acknowledged); a complete record that does not check is damage (`Contents.damageAt`: the
/// app stops); a journal of another generation (the model file was rewritten after it) is ignored.
enum Journal {
    static func header(generation: Int) -> [UInt8] { Array((headerText(generation) + "\n").utf8) }

    /// The records for changed entities (those still in the model: a removed one went with its container's
    /// record), or nil when they would take more than `budget` bytes.
    static func records(for units: [Entity], budget: Int) -> [UInt8]? {
        guard budget > 0 else { return nil }
        var writer = JSONWriter(capacity: min(budget, 1 << 14))
        var ends: [Int] = []
        for unit in units where unit.state == .managed {
            writer.entity(unit)
            ends.append(writer.out.count)
            if writer.out.count > budget { return nil }
            // Extrapolated from the first few: many changed entities are a full write without writing them all.
            if ends.count <= 8, writer.out.count / ends.count * units.count > 2 * budget { return nil }
        }
        // A record nested deeper than a load reads is never appended: the full write refuses it with its message
        // (storage.md "Limits": a store never writes what a load refuses).
        if writer.deepest > JSONReader.maxDepth { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(writer.out.count + ends.count * 24)
        var start = 0
        for end in ends {
            out.append(contentsOf: record(writer.out[start..<end]))
            start = end
        }
        return out
    }

    static func record(_ json: [UInt8]) -> [UInt8] { record(json[...]) }

    static func record(_ json: ArraySlice<UInt8>) -> [UInt8] {
        var out = Array(hex8(CRC32.checksum(json)).utf8)
        out.append(0x20)
        out.append(contentsOf: String(json.count).utf8)
        out.append(0x20)
        out.append(contentsOf: json)
        out.append(0x0A)
        return out
    }

    static func hex8(_ v: UInt32) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 8 - s.count) + s
    }

    /// What a journal holds for a model file of `generation`.
    struct Contents {
        /// The valid records, in order.
        var records: [ArraySlice<UInt8>] = []
        /// Whether the journal belongs to that generation (else it is stale: its changes are in the file).
        var matches = false
        /// Whether bytes follow the last valid record (a torn append, or damage).
        var damaged = false
        /// Where damage starts that is not a torn last record (a newline follows it, so records were appended
        /// after it): nil when only the last record is torn.
        var damageAt: Int?
    }

    /// Reads a journal for the model file of `generation`. Records end at the first torn or damaged one.
    static func parse(_ bytes: [UInt8], generation: Int) -> Contents {
        guard let head = headerLine(bytes), head.line == headerText(generation) else { return Contents() }
        return parseRecords(bytes, from: head.next)
    }

    /// The first line of a journal (without its newline) and where the records start; nil without a newline.
    static func headerLine(_ bytes: [UInt8]) -> (line: String, next: Int)? {
        guard let nl = bytes.firstIndex(of: 0x0A) else { return nil }
        return (String(decoding: bytes[..<nl], as: UTF8.self), nl + 1)
    }

    /// The header line a journal for the model file of `generation` starts with.
    static func headerText(_ generation: Int) -> String { "OKJ1 \(generation)" }

    /// The records from `start` (after a header line), as `parse` reads them, with `matches` set: the caller
    /// checked the header (or checks it later: a load reads the journal before the model file's generation is
    /// known, so that the model's reader can find the entities the records name, `JournalTargets`).
    static func parseRecords(_ bytes: [UInt8], from start: Int) -> Contents {
        var out = Contents()
        out.matches = true
        var i = start
        while i < bytes.count {
            guard i + 9 < bytes.count, bytes[i + 8] == 0x20,
                  let crc = UInt32(String(decoding: bytes[i..<(i + 8)], as: UTF8.self), radix: 16) else { break }
            var j = i + 9
            var len = 0
            while j < bytes.count, bytes[j] >= 0x30, bytes[j] <= 0x39, len < 1 << 40 { len = len * 10 + Int(bytes[j] - 0x30); j += 1 }
            guard j < bytes.count, bytes[j] == 0x20 else { break }
            let start = j + 1
            guard start + len < bytes.count, bytes[start + len] == 0x0A else { break }
            let json = bytes[start..<(start + len)]
            guard CRC32.checksum(json) == crc else { break }
            out.records.append(json)
            i = start + len + 1
        }
        out.damaged = i < bytes.count
        // A torn append leaves the start of a record without its closing newline (a record's JSON holds no
        // raw newline). A complete line that does not check is damage: the records it holds, and any after
        // it, were acknowledged.
        if out.damaged, bytes[i...].contains(0x0A) { out.damageAt = i }
        return out
    }

    /// The records of a journal for `generation` (empty when it belongs to another generation).
    static func records(_ bytes: [UInt8], generation: Int) -> [ArraySlice<UInt8>] {
        parse(bytes, generation: generation).records
    }
}

/// CRC-32 (IEEE), for journal records and exit patch intents.
///
/// Bytes in contiguous memory are summed by zlib's `crc32` (the same polynomial, initial value and final
/// complement; several bytes per step where the table below does one): a journal of 10,000 records is 2.9 MB, and
/// checking it a byte at a time cost a load 8 ms (issue 38, `load_journal`). Other collections use the table.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        if let sum = bytes.withContiguousStorageIfAvailable({ zlibChecksum($0) }) { return sum }
        return tableChecksum(bytes)
    }

    /// The checksum a byte at a time, by the table (what zlib computes, for any collection).
    static func tableChecksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    /// zlib's CRC-32 of a buffer, in steps of at most 1 GiB (its length parameter is 32 bits).
    private static func zlibChecksum(_ buf: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var sum = crc32(0, nil, 0)
        var done = 0
        while done < buf.count {
            let n = min(buf.count - done, 1 << 30)
            sum = crc32(sum, buf.baseAddress! + done, uInt(n))
            done += n
        }
        return UInt32(truncatingIfNeeded: sum)
    }
}
