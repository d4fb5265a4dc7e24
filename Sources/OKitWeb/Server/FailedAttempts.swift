import Foundation

/// Guesses of a secret from one address, slowed down (web.md "Security"): the login token and the cover's
/// passphrase can be guessed only so fast. After `free` failures in a row from an address, each further attempt
/// must wait — 2 s, then twice as long after each failure, at most `longestWait` — and is not checked until then
/// (the login answers 429 with `Retry-After`, the cover says how long in the app's language). A success from the address forgets its failures; an address
/// that has not failed for `forgetAfter` is forgotten too. At most `maxAddresses` are kept (the oldest go first),
/// so a stranger with many addresses cannot fill the server's memory with them. An IPv6 address is counted by its
/// network, the first 64 bits (`key`): whoever has one address of a network usually has all 2⁶⁴ of them.
struct FailedAttempts {
    struct Record {
        var failures: Int
        var last: Date
        var waitUntil: Date
    }

    static let free = 5
    static let longestWait: TimeInterval = 15 * 60
    static let forgetAfter: TimeInterval = 60 * 60
    static let maxAddresses = 10_000
    private(set) var records: [String: Record] = [:]

    /// The seconds `address` must still wait before its next attempt is checked; nil when it may try now.
    func wait(_ address: String, now: Date = Date()) -> Int? {
        guard let r = records[Self.key(address)], r.waitUntil > now else { return nil }
        return max(1, Int(r.waitUntil.timeIntervalSince(now).rounded(.up)))
    }

    /// A failed attempt from `address`.
    mutating func failed(_ address: String, now: Date = Date()) {
        let address = Self.key(address)
        var r = records[address].flatMap { now.timeIntervalSince($0.last) > Self.forgetAfter ? nil : $0 }
            ?? Record(failures: 0, last: now, waitUntil: now)
        r.failures += 1
        r.last = now
        if r.failures > Self.free {
            let doublings = min(r.failures - Self.free - 1, 20)
            r.waitUntil = now.addingTimeInterval(min(Self.longestWait, 2 * pow(2, Double(doublings))))
        }
        records[address] = r
        if records.count > Self.maxAddresses { forgetOldest(now: now) }
    }

    /// A successful attempt from `address`: its failures are forgotten.
    mutating func succeeded(_ address: String) { records[Self.key(address)] = nil }

    /// What an address is counted under: an IPv6 address by its /64 (`2001:db8:1:2::/64`), an IPv4-mapped one by
    /// its IPv4 address, anything else (an IPv4 address, a name, "local") as it is.
    static func key(_ address: String) -> String {
        guard address.contains(":"), let canonical = HostCheck.canonicalAddress(address) else { return address }
        var v6 = in6_addr()
        guard canonical.contains(":"), inet_pton(AF_INET6, canonical, &v6) == 1 else { return canonical }
        // The interface half (the last 64 bits) is zeroed.
        v6.__in6_u.__u6_addr32.2 = 0
        v6.__in6_u.__u6_addr32.3 = 0
        var out = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        guard inet_ntop(AF_INET6, &v6, &out, socklen_t(INET6_ADDRSTRLEN)) != nil else { return canonical }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/64"
    }

    /// Forgets the addresses not heard from for `forgetAfter`, then the oldest until a tenth is free — those not
    /// waiting first (a stranger with many addresses cannot flush the wait of one of them by failing with the others).
    private mutating func forgetOldest(now: Date) {
        records = records.filter { now.timeIntervalSince($0.value.last) <= Self.forgetAfter }
        guard records.count > Self.maxAddresses else { return }
        let order = records.sorted { a, b in
            let (waitingA, waitingB) = (a.value.waitUntil > now, b.value.waitUntil > now)
            return waitingA != waitingB ? !waitingA : a.value.last < b.value.last
        }
        let oldest = order.prefix(records.count - Self.maxAddresses * 9 / 10)
        for (address, _) in oldest { records[address] = nil }
    }
}
