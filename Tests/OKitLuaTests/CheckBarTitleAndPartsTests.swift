import Foundation
@testable import OKitLua
import OKitEngine
import Testing

/// Findings an outside tester missed in `okit-run check`: a bar button's title that names nothing checked clean and
/// only warned when the app ran (its id was the text the title showed, so `title = "name"` gave the button the
/// model's value as id), and a part list longer than the one it is aligned with (`moreActionsEnabled` with four
/// parts for three actions) said nothing.
@Suite struct CheckBarTitleAndPartsTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Book", { name = "string", n = { "int", default = 0 }, bump = function(self) self.n = self.n + 1 end })
    okit.entity("Shop", { books = "[Book]", name = { "string", default = "Shop" } })
    okit.model("Shop", { seed = function(r) r.books:append(okit.new("Book", { name = "Dune" })) end })
    okit.list("books", { dataPath = "books", cell = { path = "name" }, titlePath = "name",
      buttons = { TITLES } })
    okit.app { home = "books" }
    """

    static func app(titles: String) -> String {
        app.replacingOccurrences(of: "TITLES", with: titles)
    }

    @Test func aBarButtonTitleThatNamesNothingIsAProblemSayingWhatToWrite() throws {
        let r = try CheckFindingsTests.check(Self.app(titles: #"{ title = "Add", tapPath = "books[0]/bump()" }, { title = "%Sort" }"#))
        let add = "screen books, property buttons[1].title: Shop has no field \"Add\""
        #expect(r.problems.contains { $0.hasPrefix("app.lua:6:") && $0.contains(add) && $0.hasSuffix("; a bar button's title is a binding: write \"%Add\" (localized) or \"#Add\" (as it is)") },
                "\(r.problems)")
        #expect(r.problems.count == 1, "a %key is a text: \(r.problems)")
    }

    /// A title written as a text (`%Lend`) whose string a language lacks gets that finding alone: the advice on how
    /// to write a text repeated what was written.
    @Test func aTitleWrittenAsATextGetsNoAdviceToWriteIt() throws {
        let r = try CheckFindingsTests.check(Self.app(titles: #"{ title = "%Lend" }"#) + "\nokit.strings(\"it\", { Other = \"Altro\" })\n")
        #expect(r.problems.count == 1 && r.problems[0].contains("\"%Lend\" has no string in \"it\""), "\(r.problems)")
        #expect(!r.problems.joined().contains("a bar button's title is a binding"), "\(r.problems)")
    }

    @Test func aTitleOfWordsStopsTheLoadWithTheSameRemedy() throws {
        do {
            _ = try CheckFindingsTests.check(Self.app(titles: #"{ title = "Mark All" }"#))
            Issue.record("the app loaded")
        } catch {
            #expect("\(error)".contains(##"buttons[1].title: binding "Mark All": unexpected "A" at column 6; a bar button's title is a binding: write "%Mark All" (localized) or "#Mark All" (as it is)"##), "\(error)")
        }
    }

    @Test func aButtonsIdIsItsDeclaredTitleNotWhatItShows() throws {
        let buttons = [BarButton(title: "name"), BarButton(title: "%Add"), BarButton(title: "", icon: "#star"),
                       BarButton(id: "go", title: "name")]
        #expect(buttons.map(\.defaultId) == ["name", "Add", "star", "name"])
        let r = try CheckFindingsTests.check(Self.app(titles: #"{ title = "name", tapPath = "books[0]/bump()" }"#))
        #expect(r.problems.isEmpty, "a title bound to the context's name is a binding: \(r.problems)")
    }

    @Test func partListsLongerThanTheListTheyFollowAreProblems() throws {
        let list = #"""
        okit.list("items", { dataPath = "books", cell = { path = "name" }, more = "#true", moreActions = "%A,%B,%C",
          moreActionsTap = "bump,bump,bump,bump,bump", moreActionsEnabled = "#true,#true,#true,#true" })
        okit.detail("book", { contextPath = "books[0]", sectionHeaders = "%One,%Two,,", sectionFooters = "%One,%Two,%Three",
          sections = { { okit.cell.table { path = "name" } }, { okit.cell.table { path = "name" } } } })
        """#
        let r = try CheckFindingsTests.check(Self.app(titles: #"{ title = "%Add" }"#) + "\n" + list)
        #expect(r.problems.contains { $0.hasSuffix("screen items, property moreActionsEnabled: moreActions has 3 actions and moreActionsEnabled 4 parts: the last belongs to no action and is never used; give one part per action, in the same order") }, "\(r.problems)")
        #expect(r.problems.contains { $0.hasSuffix("screen items, property moreActionsTap: moreActions has 3 actions and moreActionsTap 5 parts: the last 2 belong to no action and are never used; give one part per action, in the same order") }, "\(r.problems)")
        #expect(r.problems.contains { $0.hasSuffix("screen book, property sectionFooters: the screen has 2 sections and sectionFooters 3 parts: the last belongs to no section and is never used; give one part per section, in order (an empty part keeps the default)") }, "\(r.problems)")
        #expect(!r.problems.contains { $0.contains("sectionHeaders") }, "empty parts at the end do not count")
        #expect(r.problems.count == 3, "\(r.problems)")
    }
}
