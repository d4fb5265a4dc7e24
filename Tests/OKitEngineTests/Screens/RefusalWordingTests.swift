import Testing
@testable import OKitEngine

/// Refusals name what a person pressed or typed as they see it: a search scope is a scope (not an action), a bar
/// button is a bar button and a detail cell's accessory a cell's (not a row's).
@Suite struct RefusalWordingTests {
    let setup = ListCommandTests()

    @Test func anUnknownSearchScopeIsCalledAScope() throws {
        let (f, shell, driver) = try setup.shell {
            $0.search = "#true"; $0.searchFilters = "Fiction, Classic"; $0.searchFilterPath = "type"
        }
        f.engine.strings.add(language: "es", strings: ["Fiction": "Novela", "Classic": "Clásico", "All": "Todos"])
        f.engine.locale.language = "es"
        do { try driver.run("search", ["text": .string("x"), "scope": .string("Poesía")]); Issue.record("no error") } catch {
            #expect("\(error)" == "no search scope \"Poesía\" (scopes: Todos, Novela, Clásico; pass a scope's title or its 1-based position)")
        }
        #expect(try shell.snapshot().screen.search?.text == "", "the search is unchanged")
    }

    @Test func aDisabledBarButtonIsCalledABarButton() throws {
        let (_, shell, _) = try setup.shell { $0.buttons = [BarButton(id: "lend", title: "#Prestar", enabled: "#false")] }
        for name in ["Prestar", "lend"] {
            do { try shell.button(name); Issue.record("no error") } catch {
                #expect("\(error)" == "the bar button \"Prestar\" is disabled now (its enabledPath is false)")
            }
        }
    }

    @Test func aDisabledCellAccessoryIsCalledACells() throws {
        let (_, s) = try DetailCellBehaviourTests().screen([
            CellDeclaration(kind: "table", properties: ["path": "%Loans", "accyText": "#Go", "accyEnabled": "#false"],
                            actions: ["accyTap": .binding("setAsMarked()")]),
        ])
        do { try s.accessory(.key("Loans")); Issue.record("no error") } catch {
            #expect("\(error)" == "the accessory of cell \"Loans\" is disabled now (its accyEnabled is false)")
        }
    }
}
