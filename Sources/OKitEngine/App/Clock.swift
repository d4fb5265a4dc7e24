import Foundation

/// The app clock: what "now" is for defaults, relative dates and timers.
public protocol AppClock: AnyObject {
    var now: Date { get }
}

/// The system clock.
public final class SystemClock: AppClock {
    public init() {}
    public var now: Date { Date() }
}

/// A clock that moves only when told to (flow tests, `--clock virtual`).
public final class VirtualClock: AppClock {
    public private(set) var now: Date

    /// Starts at `start` (default 2019-05-01T10:00:00Z, as flow tests expect).
    public init(start: Date = Date(timeIntervalSince1970: 1_556_704_800)) { now = start }

    /// The clock's range (0001-01-01 to 9999-12-31T23:59:59Z): every date the app can read from it can be formatted.
    public static let earliest = Date(timeIntervalSince1970: -62_135_596_800)
    public static let latest = Date(timeIntervalSince1970: 253_402_300_799)

    /// Moves the clock, clamped to its range (a NaN leaves it where it is).
    public func advance(by seconds: Double) {
        guard !seconds.isNaN else { return }
        set(now.addingTimeInterval(seconds))
    }

    public func set(_ date: Date) {
        guard !date.timeIntervalSince1970.isNaN else { return }
        now = Swift.min(Swift.max(date, VirtualClock.earliest), VirtualClock.latest)
    }
}

/// Where new entity ids come from.
public protocol IdGenerator: AnyObject {
    func next() -> String
}

/// Random UUIDs, upper-case (as OKit).
public final class RandomIds: IdGenerator {
    public init() {}
    public func next() -> String { UUID().uuidString }
}

/// A small, fast, seeded pseudo-random generator (SplitMix64): reproducible ids, benchmark data, fuzz tests.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<n.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
}

/// Reproducible UUID-shaped ids from a seed (virtual clock runs repeat exactly).
public final class SeededIds: IdGenerator {
    private var random: SplitMix64

    public init(seed: UInt64) { random = SplitMix64(seed: seed &+ 0x9E37_79B9_7F4A_7C15) }

    public func next() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        let a = random.next(), b = random.next()
        for i in 0..<8 { bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * i)); bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * i)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let u = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return u.uuidString
    }
}
