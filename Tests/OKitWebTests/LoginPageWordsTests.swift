import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// The login page (`--token-file`, behind a proxy) in the app's language: its title, field and button, a wrong
/// token, and a login form whose security token is stale (the server restarted while the page was open).
@Suite struct LoginPageWordsTests {
    static func germanBehindAProxy() async throws -> WebAppTests.Browser {
        var options = ServeOptions.unhurried
        options.token = "s3cret-token"
        let b = WebAppTests.Browser(try await LanguagePageTests.serve(language: "de", options: options))
        b.forwarded = true
        return b
    }

    @Test func theLoginPageOfAGermanAppIsInGerman() async throws {
        let b = try await LoginPageWordsTests.germanBehindAProxy()
        let login = String(decoding: await b.get("/login").body, as: UTF8.self)
        #expect(login.contains("<html lang=\"de\">") && login.contains("<title>Anmelden</title>"), "\(login)")
        #expect(login.contains("<h1>Anmelden</h1>") && login.contains(">Token</label>") && login.contains(">Anmelden</button>"), "\(login)")
        #expect(!login.contains("Log in"))
        let csrf = WebAppTests.Browser.attribute("name=\"csrf\" value", login)
        let wrong = String(decoding: await b.post("/login", [("csrf", csrf), ("token", "wrong")]).body, as: UTF8.self)
        #expect(wrong.contains("Das ist nicht das richtige Token.") && !wrong.contains("not the right one"), "\(wrong)")
        #expect(await b.post("/login", [("csrf", csrf), ("token", "s3cret-token")]).status == 303)
    }

    @Test func aStaleLoginFormIsRefusedInGerman() async throws {
        let b = try await LoginPageWordsTests.germanBehindAProxy()
        let stale = await b.post("/login", [("csrf", "a-token-of-a-server-that-restarted"), ("token", "s3cret-token")])
        let page = String(decoding: stale.body, as: UTF8.self)
        #expect(stale.status == 403)
        #expect(page.contains("<html lang=\"de\">") && page.contains("Das Sicherheitstoken des Formulars ist falsch"), "\(page)")
        #expect(page.contains("href=\"/login\""), "a link back to the login form: \(page)")
    }

    @Test func anEnglishAppKeepsItsEnglishLogin() async throws {
        var options = ServeOptions.unhurried
        options.token = "s3cret-token"
        let b = WebAppTests.Browser(try await WebAppTests.serve(options))
        b.forwarded = true
        let login = String(decoding: await b.get("/login").body, as: UTF8.self)
        #expect(login.contains("<h1>Log in</h1>") && login.contains(">Token</label>"), "\(login)")
        let stale = String(decoding: await b.post("/login", [("csrf", "stale"), ("token", "x")]).body, as: UTF8.self)
        #expect(stale.contains("The form&#39;s security token is wrong or missing") || stale.contains("The form's security token is wrong or missing"), "\(stale)")
    }
}
