import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// The protection cover is a lock when something checks its answer — `OKIT_PASSPHRASE`, the app's `authenticate`
/// function or the login token (web.md "Security"): then a new session is a launch and starts covered, as OKit
/// covers at launch, and only an authentication that passed shows it anything. Without a lock the cover stays a
/// privacy screen, and a new session starts uncovered. (A stranger's round five: a request without the covered
/// person's cookie got a new, uncovered session that read the sealed model, even after the key was dropped.)
@Suite struct CoverAtLaunchTests {
    typealias Browser = WebAppTests.Browser
    static let passphrase = "hunter22"

    /// An encrypted model (`directory`, one author "Frank Herbert") in a fresh data folder, its list as home, with
    /// protection on (`protectionMinutes`).
    static func serve(_ options: ServeOptions = .unhurried, passphrase: String? = CoverAtLaunchTests.passphrase,
                      authenticate: (@Sendable () throws -> Bool)? = nil, protection: Bool = true,
                      detail: Bool = false) async throws -> WebApp {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-cover-" + UUID().uuidString)
        let web = WebApp(options: options)
        try await web.load {
            var so = SessionOptions()
            so.dataFolder = folder
            so.passphrase = passphrase
            let session = AppSession(options: so)
            session.callbacks.authenticate = authenticate
            let schema = session.engine.schema
            try schema.entity("Author", fields: [FieldSpec("name", .string)])
            try schema.entity("Directory", fields: [try FieldSpec("authors", "[Author]")])
            try schema.validate()
            let engine = session.engine
            let model = try engine.register(model: "directory", type: "Directory",
                                            storage: try session.makeStorage(kind: .encrypted, model: "directory"),
                                            storageKind: .encrypted)
            let frank = try engine.make("Author", ["name": .string("Frank Herbert")])
            try engine.insert(.entity(frank), into: try engine.collection(model.root, "authors"), append: true)
            var authors = ListDeclaration(id: "authors")
            authors.type = "Author"
            authors.dataPath = "authors"; authors.cellPath = "name"; authors.titlePath = "%Authors"
            if detail {
                authors.segue = "author"
                var author = DetailDeclaration(id: "author")
                author.titlePath = "name"; author.editAlways = "#true"
                author.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "text", id: "Name", properties: ["path": "%Name", "textPath": "name"])])]
                try session.shell.declare(author)
            }
            try session.shell.declare(authors)
            session.shell.settingsBindings["protection"] = protection ? "#true" : "#false"
            session.shell.settingsBindings["protectionTimeout"] = "#1"
            session.shell.settingsBindings["protectionText"] = "%Locked"
            try session.start(home: ["authors"], menu: nil)
            try session.storeState()
            return WebHostedApp(session: session, owner: nil)
        }
        return web
    }

    static func covered(_ page: String) -> Bool {
        page.contains("value=\"authenticate\"") && page.contains("type=\"password\"")
    }

    static func unlock(_ b: Browser, _ passphrase: String) async {
        _ = await b.command(from: "/authors", [("command", "authenticate"), ("passphrase", passphrase)])
    }

    @Test func withAPassphraseANewSessionStartsCoveredEvenAfterTheKeyWasDropped() async throws {
        let web = try await CoverAtLaunchTests.serve()
        let alice = Browser(web)
        let first = await alice.page("/authors")
        #expect(CoverAtLaunchTests.covered(first) && !first.contains("Frank Herbert"), "a first visit is a launch: covered")
        await CoverAtLaunchTests.unlock(alice, CoverAtLaunchTests.passphrase)
        #expect(await alice.page("/authors").contains("Frank Herbert"), "the passphrase lifts it")

        // A visitor without alice's cookie (another browser, a private window, the cookie dropped).
        let mallory = Browser(web)
        let theirs = await mallory.page("/authors")
        #expect(CoverAtLaunchTests.covered(theirs) && !theirs.contains("Frank Herbert"), "\(theirs)")
        #expect(await mallory.get("/image/0/0").status == 403)

        // Every session covered past its timeout: the key is dropped. A new visitor still gets the cover, and the key
        // stays dropped until a passphrase that gives it is typed.
        await web.sweepIdle(now: Date().addingTimeInterval(120))
        #expect(await web.keysDropped())
        let late = Browser(web)
        let page = await late.page("/authors")
        #expect(CoverAtLaunchTests.covered(page) && !page.contains("Frank Herbert"), "\(page)")
        #expect(await web.keysDropped(), "a new session derives no key")
        await CoverAtLaunchTests.unlock(late, "wrong")
        let stillCovered = CoverAtLaunchTests.covered(await late.page("/authors"))
        let stillDropped = await web.keysDropped()
        #expect(stillCovered && stillDropped, "a wrong passphrase keeps the cover and the key dropped")
        await CoverAtLaunchTests.unlock(late, CoverAtLaunchTests.passphrase)
        #expect(await late.page("/authors").contains("Frank Herbert"))
        let back = !(await web.keysDropped())
        #expect(back, "the right passphrase brought the key back")
        #expect(CoverAtLaunchTests.covered(await alice.page("/authors")), "alice's own cover stays until she answers it")
    }

    @Test func theAppsAuthenticateFunctionIsALockForNewSessionsToo() async throws {
        let web = try await CoverAtLaunchTests.serve(passphrase: nil, authenticate: { true })
        let b = Browser(web)
        let first = await b.page("/authors")
        #expect(CoverAtLaunchTests.covered(first) && !first.contains("Frank Herbert"))
        await CoverAtLaunchTests.unlock(b, "")
        #expect(await b.page("/authors").contains("Frank Herbert"), "the function said yes")
    }

    /// With only the token to check, the cover asks for it; a login checked it already, so it lifts the cover.
    @Test func withATokenANewSessionIsCoveredAndTheLoginLiftsIt() async throws {
        var options = ServeOptions.unhurried
        options.token = "s3cret-token"
        let web = try await CoverAtLaunchTests.serve(options, passphrase: nil)
        let b = Browser(web)                                      // loopback: no login needed to see the app
        #expect(CoverAtLaunchTests.covered(await b.page("/authors")))
        await CoverAtLaunchTests.unlock(b, "guess")
        #expect(CoverAtLaunchTests.covered(await b.page("/authors")), "a wrong token keeps it")
        await CoverAtLaunchTests.unlock(b, "s3cret-token")
        #expect(await b.page("/authors").contains("Frank Herbert"))

        let c = Browser(web)
        #expect(CoverAtLaunchTests.covered(await c.page("/authors")))
        let login = String(decoding: await c.get("/login").body, as: UTF8.self)
        #expect(await c.post("/login", [("csrf", Browser.attribute("name=\"csrf\" value", login)), ("token", "s3cret-token")]).status == 303)
        #expect(await c.page("/authors").contains("Frank Herbert"), "logged in with the token: not asked for it again")
    }

    /// A login gives the session a new CSRF token: the cover page shown again after it carries the new one, also
    /// at a URL without a query (a stranger's round six: the page kept from before the login was sent again with
    /// the old token, and every Unlock was refused "Reload the page and try again").
    @Test func theCoverAfterALoginCarriesTheNewTokenAndUnlocks() async throws {
        var options = ServeOptions.unhurried
        options.token = "s3cret-token"
        let web = try await CoverAtLaunchTests.serve(options)
        let b = Browser(web)
        let before = await b.page("/authors")
        #expect(CoverAtLaunchTests.covered(before))
        let login = String(decoding: await b.get("/login").body, as: UTF8.self)
        #expect(await b.post("/login", [("csrf", Browser.attribute("name=\"csrf\" value", login)), ("token", "s3cret-token")]).status == 303)
        for _ in 0..<2 {
            let after = await b.page("/authors")
            #expect(CoverAtLaunchTests.covered(after), "the passphrase is still to be answered")
            #expect(Browser.attribute("data-csrf", after) != Browser.attribute("data-csrf", before), "the login's new token")
        }
        await CoverAtLaunchTests.unlock(b, CoverAtLaunchTests.passphrase)
        #expect(await b.page("/authors").contains("Frank Herbert"), "the Unlock of the page shown after the login")
    }

    /// With nothing to check, the cover is a privacy screen (web.md): a new session is not covered.
    @Test func withNothingToCheckANewSessionIsNotCovered() async throws {
        let web = try await CoverAtLaunchTests.serve(passphrase: nil)
        #expect(await Browser(web).page("/authors").contains("Frank Herbert"))
        let off = try await CoverAtLaunchTests.serve(protection: false)
        #expect(await Browser(off).page("/authors").contains("Frank Herbert"), "protection off: no cover")
    }

    /// A covered page is told nothing of what happened behind the cover: a value posted from it to an entry someone
    /// else deleted meanwhile is not answered with the deletion's notice (which names the entry's type and repeats
    /// the value) — only a session that may post at all is told (a review of round five's fixes).
    @Test func aCoveredPageIsNotToldThatItsEntryWasDeleted() async throws {
        let web = try await CoverAtLaunchTests.serve(detail: true)
        let alice = Browser(web), bob = Browser(web)
        _ = await alice.page("/authors")
        await CoverAtLaunchTests.unlock(alice, CoverAtLaunchTests.passphrase)
        let tapped = await alice.command(from: "/authors", [("command", "tap"), ("row", "1")])
        let onAuthor = try #require(WebAppTests.header(tapped, "Location"))
        let shown = await alice.page(onAuthor)
        #expect(shown.contains("Frank Herbert"))
        _ = await alice.post("/command", [("csrf", Browser.attribute("data-csrf", shown)), ("command", "hidden")])
        _ = await bob.page("/authors")
        await CoverAtLaunchTests.unlock(bob, CoverAtLaunchTests.passphrase)
        _ = await bob.command(from: "/authors", [("command", "delete"), ("row", "1")])
        _ = await bob.command(from: "/authors", [("command", "respond"), ("action", "1")])   // Yes
        #expect(!(await bob.page("/authors")).contains("Frank Herbert"), "bob deleted the author")
        _ = await alice.post("/command", [("csrf", Browser.attribute("data-csrf", shown)), ("v", Browser.attribute("data-version", shown)),
                                          ("at", onAuthor), ("command", "set"), ("cell", "Name"), ("value", "Typed behind the cover")])
        let after = await alice.page("/authors")
        #expect(CoverAtLaunchTests.covered(after), "\(after)")
        #expect(!after.contains("deleted") && !after.contains("Typed behind the cover"), "\(after)")
    }
}

extension WebApp {
    func keysDropped() -> Bool { hosted?.session.fileStorage?.keysDropped ?? false }
}
