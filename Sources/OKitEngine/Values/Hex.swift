/// Bytes as lower-case hex digits, two per byte (`0a1b…`): the one spelling okit writes for key ids, signatures,
/// cookies and fingerprints. `String(format: "%02x")` per byte went through Foundation's formatter for each
/// byte (4 % of a shared-model store's CPU was one signature's 32 bytes, issue 39).
public enum Hex {
    /// The digits of `bytes`.
    public static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let digits: StaticString = "0123456789abcdef"
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        digits.withUTF8Buffer { d in
            for b in bytes {
                out.append(d[Int(b >> 4)])
                out.append(d[Int(b & 0x0f)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
