import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// Guessing the login token or the cover's passphrase is slowed down by address (web.md "Security"): five wrong
/// attempts are free, then each must wait, doubling, and an attempt made while waiting is not checked at all —
/// not even the right secret.
@Suite struct FailedAttemptsTests {
    typealias Browser = WebAppTests.Browser

    @Test func fiveWrongAttemptsAreFreeThenEachWaitsTwiceAsLong() {
        var attempts = FailedAttempts()
        let start = Date(timeIntervalSince1970: 1_000_000)
        for i in 0..<FailedAttempts.free {
            #expect(attempts.wait("10.0.0.1", now: start) == nil, "attempt \(i + 1) is free")
            attempts.failed("10.0.0.1", now: start)
        }
        #expect(attempts.wait("10.0.0.1", now: start) == nil)
        attempts.failed("10.0.0.1", now: start)                        // the sixth
        #expect(attempts.wait("10.0.0.1", now: start) == 2)
        #expect(attempts.wait("10.0.0.2", now: start) == nil, "another address is not slowed")
        let later = start.addingTimeInterval(3)
        #expect(attempts.wait("10.0.0.1", now: later) == nil)
        attempts.failed("10.0.0.1", now: later)                        // the seventh: 4 s
        #expect(attempts.wait("10.0.0.1", now: later) == 4)
        for k in 0..<30 { attempts.failed("10.0.0.1", now: later.addingTimeInterval(Double(k))) }
        #expect(attempts.wait("10.0.0.1", now: later.addingTimeInterval(29)) == Int(FailedAttempts.longestWait), "at most a quarter of an hour")
        attempts.succeeded("10.0.0.1")
        #expect(attempts.wait("10.0.0.1", now: later) == nil, "a success forgets the failures")
        // An hour without a failure: the next is the first again.
        for _ in 0..<6 { attempts.failed("10.0.0.3", now: start) }
        attempts.failed("10.0.0.3", now: start.addingTimeInterval(FailedAttempts.forgetAfter + 1))
        #expect(attempts.wait("10.0.0.3", now: start.addingTimeInterval(FailedAttempts.forgetAfter + 1)) == nil)
    }

    /// A guesser with an IPv6 network has 2⁶⁴ addresses: they are one address to the count.
    @Test func anIPv6NetworkIsCountedAsOneAddress() {
        var attempts = FailedAttempts()
        let now = Date(timeIntervalSince1970: 1_000_000)
        for i in 1...(FailedAttempts.free + 1) { attempts.failed("2001:db8:1:2::\(String(i, radix: 16))", now: now) }
        #expect(attempts.wait("2001:db8:1:2:ffff:ffff:ffff:ffff", now: now) == 2, "another address of the same /64 waits")
        #expect(attempts.wait("2001:DB8:1:2:0:0:0:7", now: now) == 2, "written another way")
        #expect(attempts.wait("2001:db8:1:3::1", now: now) == nil, "the next network does not")
        #expect(FailedAttempts.key("::ffff:10.0.0.9") == "10.0.0.9", "an IPv4-mapped address is its IPv4 address")
        #expect(FailedAttempts.key("10.0.0.9") == "10.0.0.9")
        #expect(FailedAttempts.key("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64")
        attempts.succeeded("2001:db8:1:2::99")
        #expect(attempts.wait("2001:db8:1:2::1", now: now) == nil, "a success from the network forgets its failures")
    }

    @Test func manyAddressesDoNotFillTheMemory() {
        var attempts = FailedAttempts()
        let now = Date()
        for i in 0..<(FailedAttempts.maxAddresses + 50) { attempts.failed("addr-\(i)", now: now.addingTimeInterval(Double(i) / 1000)) }
        #expect(attempts.records.count <= FailedAttempts.maxAddresses)
        #expect(attempts.records["addr-\(FailedAttempts.maxAddresses + 49)"] != nil, "the newest is kept")
        // An address that must wait is not forgotten to make room while others that need not wait are there.
        var locked = FailedAttempts()
        for _ in 0...FailedAttempts.free { locked.failed("guesser", now: now) }
        for i in 0..<(FailedAttempts.maxAddresses + 50) { locked.failed("other-\(i)", now: now.addingTimeInterval(1)) }
        #expect(locked.wait("guesser", now: now.addingTimeInterval(1)) != nil)
    }

    @Test func aLoginGuessedTooOftenWaitsAndTheRightTokenIsNotCheckedMeanwhile() async throws {
        var options = ServeOptions()
        options.token = "s3cret-token"
        let web = try await WebAppTests.serve(options)
        let frozen = Date()
        await web.setAttemptClock { frozen }
        let b = Browser(web)
        b.forwarded = true
        _ = await b.get("/books")
        let csrf = Browser.attribute("name=\"csrf\" value", String(decoding: await b.get("/login").body, as: UTF8.self))
        for _ in 0...FailedAttempts.free { #expect(await b.post("/login", [("csrf", csrf), ("token", "wrong")]).status == 403) }
        let slowed = await b.post("/login", [("csrf", csrf), ("token", "s3cret-token")])
        #expect(slowed.status == 429 && WebAppTests.header(slowed, "Retry-After") == "2")
        #expect(String(decoding: slowed.body, as: UTF8.self).contains("Too many wrong attempts from your address"))
        #expect(await b.get("/books").status == 303, "not logged in")
    }

    @Test func theCoversPassphraseGuessedTooOftenWaits() async throws {
        var options = ServeOptions()
        options.token = "s3cret-token"
        options.newSessionSeconds = 600
        let web = try await WebAppTests.serve(options, protectionMinutes: 1)
        let frozen = Date()
        await web.setAttemptClock { frozen }   // the wait never runs out, however slow the machine
        let alice = Browser(web)
        _ = await alice.page("/books")
        await web.sweepIdle(now: Date().addingTimeInterval(61))
        #expect(await alice.page("/books").contains("type=\"password\""))
        for _ in 0...FailedAttempts.free {
            _ = await alice.command(from: "/books", [("command", "authenticate"), ("passphrase", "guess")])
        }
        _ = await alice.command(from: "/books", [("command", "authenticate"), ("passphrase", "s3cret-token")])
        let page = await alice.page("/books")
        #expect(page.contains("type=\"password\"") && page.contains("Too many wrong attempts from your address"), "\(page)")
    }
}

extension WebApp {
    func setAttemptClock(_ clock: @escaping @Sendable () -> Date) { attemptClock = clock }
}
