/// `<model>.patch`: what an exit patch (`FileStorage.patchAtExit`) is about to write into a model file, made
/// durable before the first byte of the model file changes, and removed once the patched file is synced.
///
/// Format: a first line `OKP1 <crc32 hex, 8 digits> <byte length>` covering the body; the body's first line
/// `<file size> <device> <inode> <prefix length> <prefix crc32 hex>` names the file it belongs to (the file's
/// first bytes, which no patch touches, by their CRC-32); then one line per patch, `<offset> <length> <bytes>`.
/// An intent that does not check was never complete, so no patch was written after it: it is dropped.
struct ExitPatchIntent: Equatable {
    /// Bytes to write at an offset of the model file.
    struct Patch: Equatable {
        var offset: Int
        var bytes: [UInt8]
    }

    /// The model file the patches are for: its size, device and inode, and its first `prefixLength` bytes' CRC.
    var size: Int
    var device: UInt64
    var inode: UInt64
    var prefixLength: Int
    var prefixCRC: UInt32
    var patches: [Patch]

    func encoded() -> [UInt8] {
        var body = Array("\(size) \(device) \(inode) \(prefixLength) \(Journal.hex8(prefixCRC))\n".utf8)
        for p in patches {
            body.append(contentsOf: "\(p.offset) \(p.bytes.count) ".utf8)
            body.append(contentsOf: p.bytes)
            body.append(0x0A)
        }
        return Array("OKP1 \(Journal.hex8(CRC32.checksum(body))) \(body.count)\n".utf8) + body
    }

    /// The intent these bytes hold; nil when they are torn or damaged.
    static func parse(_ bytes: [UInt8]) -> ExitPatchIntent? {
        guard let nl = bytes.firstIndex(of: 0x0A) else { return nil }
        let head = String(decoding: bytes[..<nl], as: UTF8.self).split(separator: " ")
        guard head.count == 3, head[0] == "OKP1", let crc = UInt32(head[1], radix: 16), let length = Int(head[2]),
              bytes.count - nl - 1 == length else { return nil }
        let body = bytes[(nl + 1)...]
        guard CRC32.checksum(body) == crc, let bodyLine = body.firstIndex(of: 0x0A) else { return nil }
        let file = String(decoding: body[..<bodyLine], as: UTF8.self).split(separator: " ")
        guard file.count == 5, let size = Int(file[0]), let device = UInt64(file[1]), let inode = UInt64(file[2]),
              let prefixLength = Int(file[3]), let prefixCRC = UInt32(file[4], radix: 16) else { return nil }
        var intent = ExitPatchIntent(size: size, device: device, inode: inode, prefixLength: prefixLength,
                                     prefixCRC: prefixCRC, patches: [])
        var i = bodyLine + 1
        while i < body.endIndex {
            guard let offset = number(body, &i), let count = number(body, &i), count <= body.endIndex - i - 1,
                  body[i + count] == 0x0A else { return nil }
            intent.patches.append(Patch(offset: offset, bytes: Array(body[i..<(i + count)])))
            i += count + 1
        }
        return intent
    }

    /// A decimal number followed by a space, at `i` (moved past the space).
    private static func number(_ bytes: ArraySlice<UInt8>, _ i: inout Int) -> Int? {
        var n = 0, digits = 0
        while i < bytes.endIndex, bytes[i] >= 0x30, bytes[i] <= 0x39, digits < 18 {
            n = n * 10 + Int(bytes[i] - 0x30)
            i += 1
            digits += 1
        }
        guard digits > 0, i < bytes.endIndex, bytes[i] == 0x20 else { return nil }
        i += 1
        return n
    }
}
