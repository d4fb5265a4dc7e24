import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// A list page shows each section's `groupHeader` line under its title, its `groupFooter` line at its end, and
/// the list's `footerPath` line after the sections; all follow the model.
@Suite struct SectionLinesPageTests {
    static func serve() async throws -> WebApp {
        let web = WebApp(options: .unhurried)
        try await web.load {
            let session = AppSession()
            let schema = session.engine.schema
            try schema.entity("Expense", fields: [FieldSpec("name", .string), FieldSpec("amount", .int), FieldSpec("category", .string)])
            try schema.entity("Budget", fields: [try FieldSpec("expenses", "[Expense]")])
            try schema.validate()
            let model = try session.engine.register(model: "default", type: "Budget", storage: TransientStorage())
            let expenses = try session.engine.collection(model.root, "expenses")
            for (name, amount, category) in [("Bread", 3, "Food"), ("Bus", 2, "Travel"), ("Tea <b>", 4, "Food")] {
                let e = try session.engine.make("Expense", ["name": .string(name), "amount": .int(amount), "category": .string(category)])
                try session.engine.insert(.entity(e), into: expenses, append: true)
            }
            var list = ListDeclaration(id: "expenses")
            list.type = "Expense"
            list.dataPath = "expenses"; list.cellPath = "name"; list.titlePath = "%Expenses"; list.rowSort = "name"
            list.group = "category"
            list.groupHeader = "rows.@count,%items"
            list.groupFooter = "%Total:,rows.@sum.amount"
            list.footerPath = "%All:,rows.@sum.amount"
            list.addName = "name"
            try session.shell.declare(list)
            try session.start(home: ["expenses"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        return web
    }

    @Test func sectionLinesAndTheFooterAreOnThePageAndFollowTheModel() async throws {
        let b = WebAppTests.Browser(try await SectionLinesPageTests.serve())
        let page = await b.page("/expenses")
        #expect(page.contains("<h2 id=\"section-1-header\" class=\"okit-group-title\">Food</h2><p class=\"okit-subheader\">2 items</p><ul"))
        #expect(page.contains("</ul><p class=\"okit-footer\">Total: 7</p></section>"))
        #expect(page.contains("<h2 id=\"section-2-header\" class=\"okit-group-title\">Travel</h2><p class=\"okit-subheader\">1 items</p>"))
        #expect(page.contains("<p class=\"okit-footer okit-list-footer\">All: 9</p>"))
        #expect(page.contains("Tea &lt;b&gt;"))
        // Deleting a row updates its section's lines and the footer.
        #expect(await b.command(from: "/expenses", [("command", "delete"), ("row", "Bread")]).status == 303)
        #expect(await b.command(from: "/expenses", [("command", "respond"), ("action", "Yes")]).status == 303)
        let after = await b.page("/expenses")
        #expect(after.contains("<p class=\"okit-subheader\">1 items</p><ul"))
        #expect(after.contains("<p class=\"okit-footer\">Total: 4</p>"))
        #expect(after.contains("<p class=\"okit-footer okit-list-footer\">All: 6</p>"))
        // Searching narrows the sections' rows and the footer's.
        let searched = await b.page("/expenses?text=bus")
        #expect(searched.contains("<p class=\"okit-footer okit-list-footer\">All: 2</p>"))
        #expect(!searched.contains(">Food</h2>"))
    }
}
