import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// The login form's token is tied to the browser it was shown to (its `okit_login` cookie, SameSite=Strict), and a
/// POST from a page of another site is refused before the token is looked at — neither counts as a wrong attempt
/// (web.md "Security"). (A stranger's round seven: any site could post wrong logins from a person's browser and
/// lock their address out; a form's token was good for an hour from anywhere.)
@Suite struct LoginFormBindingTests {
    typealias Browser = WebAppTests.Browser

    static func serve() async throws -> WebApp {
        var options = ServeOptions.unhurried
        options.token = "s3cret-token"
        return try await WebAppTests.serve(options)
    }

    static func csrf(_ b: Browser) async -> String {
        Browser.attribute("name=\"csrf\" value", String(decoding: await b.get("/login").body, as: UTF8.self))
    }

    @Test func theLoginPageSetsAStrictCookieAndKeepsItForEveryFormOfTheBrowser() async throws {
        let web = try await LoginFormBindingTests.serve()
        let b = Browser(web)
        let page = await b.get("/login")
        let cookie = try #require(WebAppTests.header(page, "Set-Cookie"))
        #expect(cookie.hasPrefix("okit_login=") && cookie.contains("HttpOnly; SameSite=Strict") && cookie.contains("Max-Age=3600"))
        #expect(b.cookie == nil, "no session")
        let second = await b.get("/login")
        #expect(WebAppTests.header(second, "Set-Cookie") == nil, "a second form keeps the cookie: both forms work")
        let first = Browser.attribute("name=\"csrf\" value", String(decoding: page.body, as: UTF8.self))
        #expect(await b.post("/login", [("csrf", first), ("token", "s3cret-token")]).status == 303)
    }

    @Test func aTokenFromAnotherBrowserOrWithoutItsCookieIsRefusedAndNotCounted() async throws {
        let web = try await LoginFormBindingTests.serve()
        let attacker = Browser(web), victim = Browser(web)
        let stolen = await LoginFormBindingTests.csrf(attacker)
        _ = await victim.get("/login")                      // the victim has a login cookie of its own
        for _ in 0..<(FailedAttempts.free + 3) {
            #expect(await victim.post("/login", [("csrf", stolen), ("token", "wrong")]).status == 403)
        }
        let bare = Browser(web)
        #expect(await bare.post("/login", [("csrf", stolen), ("token", "wrong")]).status == 403)
        #expect(await web.failedAttempts.records.isEmpty, "nothing counted")
        #expect(await victim.post("/login", [("csrf", await LoginFormBindingTests.csrf(victim)), ("token", "s3cret-token")]).status == 303)
    }

    @Test func aPostFromAnotherSiteIsRefusedBeforeTheTokenAndNotCounted() async throws {
        let web = try await LoginFormBindingTests.serve()
        let b = Browser(web)
        let csrf = await LoginFormBindingTests.csrf(b)
        func post(site: String?, origin: String?, token: String) async -> WebResponse {
            var r = WebRequest(method: "POST", path: "/login", form: [("csrf", csrf), ("token", token)])
            r.host = "127.0.0.1:8480"
            r.loginCookie = b.loginCookie
            r.fetchSite = site
            r.origin = origin
            return await web.handle(r)
        }
        for (site, origin) in [("cross-site", "https://evil.example"), ("same-site", "http://other.127.0.0.1:8480"),
                               (nil, "https://evil.example"), (nil, "null"), (nil, "http://127.0.0.1:9999")] as [(String?, String?)] {
            for _ in 0..<(FailedAttempts.free + 2) {
                #expect(await post(site: site, origin: origin, token: "wrong").status == 403)
            }
            #expect(await post(site: site, origin: origin, token: "s3cret-token").status == 403, "\(String(describing: site)) \(String(describing: origin))")
        }
        #expect(await web.failedAttempts.records.isEmpty, "nothing counted")
        #expect(await post(site: "same-origin", origin: "http://127.0.0.1:8480", token: "s3cret-token").status == 303)
    }

    @Test func anUnlockFromAnotherSiteIsRefusedAndNotCounted() async throws {
        let web = try await CoverAtLaunchTests.serve()
        let b = Browser(web)
        let html = await b.page("/authors")
        for _ in 0..<(FailedAttempts.free + 2) {
            var r = WebRequest(method: "POST", path: "/command", form: [("csrf", Browser.attribute("data-csrf", html)),
                               ("v", Browser.attribute("data-version", html)), ("at", "/authors"), ("command", "authenticate"),
                               ("passphrase", "wrong")], sessionCookie: b.cookie)
            r.fetchSite = "same-site"
            #expect(await web.handle(r).status == 403)
        }
        #expect(await web.failedAttempts.records.isEmpty)
        await CoverAtLaunchTests.unlock(b, CoverAtLaunchTests.passphrase)
        #expect(await b.page("/authors").contains("Frank Herbert"))
    }
}
