import Testing
@testable import OKitEngine

/// A stepper keeps a value given inside its range as given and clamps one outside, as OKit's UIStepper holds its
/// value (an outside tester's `set rating 2.5` stored 3, `set rating 4.4` stored 4, and on a stepper of step 3 up
/// to 10, `set copies 10` stored 9 — the maximum the snapshot shows was out of reach, also for the web's + — and
/// `set copies 2` stored 3).
@Suite struct StepperValueTests {
    let setup = DetailCellBehaviourTests()

    func screen() throws -> (ShopFixture, DetailScreen) {
        let (f, s) = try setup.screen([
            CellDeclaration(kind: "stepper", properties: ["path": "%Rating", "valuePath": "price", "maxValuePath": "#5"]),
            CellDeclaration(kind: "stepper", properties: ["path": "%Copies", "valuePath": "copies", "maxValuePath": "#10",
                                                          "stepValuePath": "#3"]),
        ])
        try s.setEditing(true)
        return (f, s)
    }

    @Test func aValueInsideTheRangeIsKeptAsGiven() throws {
        let (f, s) = try screen()
        try s.set(cell: .key("Rating"), value: .double(2.5))
        #expect(f.book(0)["price"]?.doubleValue == 2.5, "not rounded to the step")
        try s.set(cell: .key("Rating"), value: .string("4.4"))
        #expect(f.book(0)["price"]?.doubleValue == 4.4)
        try s.set(cell: .key("Copies"), value: .int(10))
        #expect(f.book(0)["copies"]?.isSame(as: .int(10)) == true, "the maximum, off the step, is reached")
        try s.set(cell: .key("Copies"), value: .string("2"))
        #expect(f.book(0)["copies"]?.isSame(as: .int(2)) == true)
    }

    @Test func aValueOutsideTheRangeIsClampedToIt() throws {
        let (f, s) = try screen()
        try s.set(cell: .key("Copies"), value: .int(11))
        #expect(f.book(0)["copies"]?.isSame(as: .int(10)) == true)
        try s.set(cell: .key("Copies"), value: .int(-4))
        #expect(f.book(0)["copies"]?.isSame(as: .int(0)) == true)
        try s.set(cell: .key("Rating"), value: .double(7.5))
        #expect(f.book(0)["price"]?.doubleValue == 5)
        let control = try setup.rows(s)[1].control
        #expect(control?.min == .int(0) && control?.max == .int(10) && control?.step == .int(3), "the snapshot shows the range")
    }
}
