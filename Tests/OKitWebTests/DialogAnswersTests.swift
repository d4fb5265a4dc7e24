import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// Answering a dialog from a page (DialogAnswers, web.md "Pages and forms"): out of date only when the dialog it
/// answers is no longer the one shown; when refused, what was typed stays in the dialog's fields.
@Suite struct DialogAnswersTests {
    typealias Browser = WebAppTests.Browser

    /// The fields a form of `html` posts, by name (the first form holding a field of that name).
    static func respond(from html: String, typing: String, mark: Bool = true) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [("csrf", Browser.attribute("data-csrf", html)), ("at", "/books"),
                                                       ("command", "respond"), ("action", "1"), ("fields", typing)]
        // The dialog's form carries the page's version and the dialog's mark.
        let dialog = String(html[(html.range(of: "<dialog")?.lowerBound ?? html.startIndex)...])
        fields.append(("v", Browser.attribute("name=\"v\" value", dialog)))
        if mark { fields.append(("dialog", Browser.attribute("name=\"dialog\" value", dialog))) }
        return fields
    }

    /// A opens the New Book prompt; B adds a book meanwhile (A's page is out of date); A's OK still adds A's book.
    @Test func anotherPersonsChangeUnderThePromptDoesNotRefuseItsAnswer() async throws {
        let web = try await WebAppTests.serve()
        let a = Browser(web), b = Browser(web)
        #expect(await a.command(from: "/books", [("command", "add")]).status == 303)
        let aPage = await a.page("/books")
        #expect(aPage.contains("<dialog open") && aPage.contains("name=\"dialog\""))
        _ = await b.command(from: "/books", [("command", "add")])
        #expect(await b.command(from: "/books", [("command", "respond"), ("action", "1"), ("fields", "From B")]).status == 303)
        #expect(await a.post("/command", Self.respond(from: aPage, typing: "Typed by A")).status == 303)
        let now = await a.page("/books")
        #expect(now.contains(">Typed by A<") && now.contains(">From B<"))
        #expect(!now.contains("out of date") && !now.contains("<dialog"))
    }

    /// A refused answer (here a page from before the dialog's mark, out of date by its version) shows the dialog again
    /// with what was typed in its field, on this person's page only; answering it then adds the book and the kept text
    /// goes.
    @Test func aRefusedAnswerKeepsWhatWasTypedInTheDialog() async throws {
        let web = try await WebAppTests.serve()
        let a = Browser(web), b = Browser(web)
        _ = await a.command(from: "/books", [("command", "add")])
        let aPage = await a.page("/books")
        _ = await b.command(from: "/books", [("command", "add"), ("text", "Emma")])
        #expect(await a.post("/command", Self.respond(from: aPage, typing: "Typed by A", mark: false)).status == 303)
        let refused = await a.page("/books")
        #expect(refused.contains("out of date") && refused.contains("<dialog open"))
        #expect(refused.contains("value=\"Typed by A\""), "the typed name is in the prompt's field")
        #expect(!(await b.page("/books")).contains("Typed by A"))
        #expect(await a.post("/command", Self.respond(from: refused, typing: "Typed by A")).status == 303)
        let added = await a.page("/books")
        #expect(added.contains(">Typed by A<") && !added.contains("<dialog"))
        _ = await a.command(from: "/books", [("command", "add")])
        #expect(!(await a.page("/books")).contains("value=\"Typed by A\""), "the next prompt starts empty")
    }

    /// An answer to a dialog that is no longer shown (answered in another tab, then another dialog opened) is out of
    /// date: it never answers the other dialog.
    @Test func anAnswerToADialogNoLongerShownIsOutdated() async throws {
        let web = try await WebAppTests.serve()
        let a = Browser(web)
        _ = await a.command(from: "/books", [("command", "add"), ("text", "Dune")])
        _ = await a.command(from: "/books", [("command", "add")])
        let tab1 = await a.page("/books")
        #expect(await a.command(from: "/books", [("command", "respond"), ("action", "2")]).status == 303)   // Cancel
        _ = await a.command(from: "/books", [("command", "delete"), ("row", "1")])
        let confirm = await a.page("/books")
        #expect(confirm.contains("<dialog open"))
        #expect(await a.post("/command", Self.respond(from: tab1, typing: "Old tab")).status == 303)
        let now = await a.page("/books")
        #expect(now.contains("out of date") && now.contains(">Dune<") && !now.contains("Old tab"))
    }

    @Test func theMarkNamesWhatTheDialogShows() {
        let prompt = AlertSnapshot(kind: "prompt", title: "New Book", message: nil, actions: ["OK", "Cancel"],
                                   fields: [AlertFieldSnapshot(placeholder: "name")])
        var other = prompt
        #expect(DialogAnswers.mark(prompt) == DialogAnswers.mark(other))
        other.fields[0].value = "Dune"
        #expect(DialogAnswers.mark(prompt) != DialogAnswers.mark(other))
        other = prompt
        other.title = "New Boo"
        other.message = "k"
        #expect(DialogAnswers.mark(prompt) != DialogAnswers.mark(other))
    }
}
