import Foundation
import Testing
@testable import OKitWeb

/// Cookie tossing (web.md "Sessions"; an outside tester's round three): with `okit_session=ATK; okit_session=VIC`
/// the first won, so an attacker's session received the victim's searches and edits, and a junk first cookie made
/// every request a new session.
@Suite struct SessionCookieTests {
    typealias Browser = WebAppTests.Browser

    static func request(_ path: String, cookies: [String], query: String = "") -> WebRequest {
        var r = WebRequest(method: "GET", path: path, query: query, sessionCookie: cookies.count == 1 ? cookies[0] : nil)
        r.sessionCookies = cookies
        return r
    }

    @Test func ofSeveralSessionCookiesOnlyALoneLiveOneIsUsed() async throws {
        let web = try await WebAppTests.serve()
        let victim = Browser(web), attacker = Browser(web)
        _ = await victim.page("/books")
        _ = await attacker.page("/books")
        let (vic, atk) = (try #require(victim.cookie), try #require(attacker.cookie))
        let junkFirst = await web.handle(SessionCookieTests.request("/books", cookies: ["junk", vic]))
        #expect(junkFirst.status == 200 && WebAppTests.header(junkFirst, "Set-Cookie") == nil, "the victim's own session")
        let both = await web.handle(SessionCookieTests.request("/books", cookies: [atk, vic], query: "text=Secret"))
        #expect(both.status == 200 && WebAppTests.header(both, "Set-Cookie") != nil, "neither session: a new one")
        #expect(!(await attacker.page("/books?text=x")).contains("Secret"))
    }

    @Test func behindHTTPSTheCookieIsHostOnlyAndThePlainNameIsNotRead() {
        let headers = ["okit_session=PLAIN; __Host-okit_session=HOST", "__Host-okit_session=OTHER"]
        #expect(SessionCookie.values(headers, secure: true) == ["HOST", "OTHER"])
        #expect(SessionCookie.values(headers, secure: false) == ["PLAIN"])
        #expect(FastAnswerHandler.sessionCookie(headers, secure: true) == nil, "two: the app decides")
        #expect(FastAnswerHandler.sessionCookie(["okit_session=A"], secure: true) == nil)
    }

    @Test func theSetCookieIsHostPrefixedBehindHTTPS() async throws {
        var options = ServeOptions()
        options.token = "s3cret-token"
        let web = try await WebAppTests.serve(options)
        #expect(WebAppTests.header(await web.handle(WebRequest(method: "GET", path: "/books")), "Set-Cookie")?.hasPrefix("okit_session=") == true)
        let loginPage = await web.handle(WebRequest(method: "GET", path: "/login"))
        let login = String(decoding: loginPage.body, as: UTF8.self)
        let csrf = Browser.attribute("name=\"csrf\" value", login)
        var post = WebRequest(method: "POST", path: "/login", form: [("csrf", csrf), ("token", "s3cret-token")], forwarded: true,
                              forwardedHTTPS: true)
        post.host = nil
        post.loginCookie = WebAppTests.header(loginPage, "Set-Cookie").map { String($0.drop { $0 != "=" }.dropFirst().prefix { $0 != ";" }) }
        let cookie = try #require(WebAppTests.header(await web.handle(post), "Set-Cookie"))
        #expect(cookie.hasPrefix("__Host-okit_session=") && cookie.contains("; Path=/") && cookie.contains("; Secure")
                && !cookie.contains("Domain"), "\(cookie)")
    }
}
