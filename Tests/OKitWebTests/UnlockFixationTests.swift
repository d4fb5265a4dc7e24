import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// Unlocking a locked cover is a login (web.md "Security"): the session gets a new id and CSRF token, so an id
/// planted in a person's browser beforehand — cookies are not isolated by port, nor by sibling subdomain on plain
/// http — is not the session they unlock. (A stranger's round seven: the planter kept reading the unlocked data.)
@Suite struct UnlockFixationTests {
    typealias Browser = WebAppTests.Browser

    @Test func unlockingGivesTheSessionANewIdAndThePlantedOneReadsNothing() async throws {
        let web = try await CoverAtLaunchTests.serve()
        let mallory = Browser(web)
        #expect(CoverAtLaunchTests.covered(await mallory.page("/authors")))
        let planted = try #require(mallory.cookie)
        let oldCSRF = Browser.attribute("data-csrf", await mallory.page("/authors"))

        // The victim's browser carries mallory's id and unlocks with the passphrase.
        let victim = Browser(web)
        victim.cookie = planted
        let unlock = await victim.command(from: "/authors", [("command", "authenticate"), ("passphrase", CoverAtLaunchTests.passphrase)])
        #expect(unlock.status == 303)
        let renewed = try #require(WebAppTests.header(unlock, "Set-Cookie"), "an unlock sets a new cookie")
        #expect(renewed.contains("HttpOnly; SameSite=Strict"))
        #expect(victim.cookie != planted)
        let page = await victim.page("/authors")
        #expect(page.contains("Frank Herbert"), "the person who unlocked reads on")
        #expect(Browser.attribute("data-csrf", page) != oldCSRF, "and their pages carry a new CSRF token")

        // The planted id names no session now: mallory gets a new, covered one.
        let theirs = await mallory.page("/authors")
        #expect(!theirs.contains("Frank Herbert") && CoverAtLaunchTests.covered(theirs), "\(theirs)")
        #expect(mallory.cookie != victim.cookie)
    }

    @Test func aWrongPassphraseKeepsTheId() async throws {
        let web = try await CoverAtLaunchTests.serve()
        let b = Browser(web)
        _ = await b.page("/authors")
        let id = b.cookie
        let wrong = await b.command(from: "/authors", [("command", "authenticate"), ("passphrase", "nope")])
        #expect(WebAppTests.header(wrong, "Set-Cookie") == nil && b.cookie == id)
    }

    @Test func withoutALockTheCoverIsAPrivacyScreenAndTheIdStays() async throws {
        let web = try await CoverAtLaunchTests.serve(passphrase: nil)
        let b = Browser(web)
        _ = await b.page("/authors")
        let id = b.cookie
        _ = await b.command(from: "/authors", [("command", "hidden")])
        let lifted = await b.command(from: "/authors", [("command", "authenticate"), ("passphrase", "")])
        #expect(WebAppTests.header(lifted, "Set-Cookie") == nil && b.cookie == id)
        #expect(await b.page("/authors").contains("Frank Herbert"))
    }
}

/// A covered session answers every address alike (web.md "Security"): it goes nowhere and is sent back to the
/// covered page, so a link to an entry that exists and one to an entry that does not are told apart by nothing.
/// (A stranger's round seven: an existing entry's link answered 200 with the cover, a missing one 303.)
@Suite struct CoveredAddressesTests {
    typealias Browser = WebAppTests.Browser

    @Test func aCoveredSessionCannotTellWhetherAnEntryExists() async throws {
        let web = try await CoverAtLaunchTests.serve(detail: true)
        let alice = Browser(web)
        _ = await alice.page("/authors")
        await CoverAtLaunchTests.unlock(alice, CoverAtLaunchTests.passphrase)
        let list = await alice.page("/authors")
        let link = try #require(list.range(of: "href=\"/authors/author~").map { "/authors/author~" + String(list[$0.upperBound...].prefix { $0 != "\"" }) })
        #expect(await alice.get(link).status == 200, "the unlocked session opens it")

        let mallory = Browser(web)
        #expect(CoverAtLaunchTests.covered(await mallory.page("/authors")))
        let existing = await mallory.get(link)
        let missing = await mallory.get("/authors/author~00000000-0000-0000-0000-000000000000")
        let noScreen = await mallory.get("/nope")
        for r in [existing, missing, noScreen] {
            #expect(r.status == 303 && WebAppTests.header(r, "Location") == "/authors")
        }
        #expect(existing.body == missing.body)
        #expect(!(await mallory.page("/authors")).contains("Frank Herbert"))
    }
}
