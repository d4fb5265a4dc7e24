import Testing
@testable import OKitEngine
@testable import OKitWeb

@Suite struct DetailPageTests {
    let html = PageRenderer.renderString(Fixtures.detail(), Fixtures.context())

    @Test func eachCellKindHasItsControl() {
        #expect(html.contains("<input type=\"text\" id=\"control-1-2\" name=\"value\" value=\"&lt;script&gt;alert(1)&lt;/script&gt;\" placeholder=\"Name\">"))
        #expect(html.contains("<textarea id=\"control-1-3\" name=\"value\">"))
        #expect(html.contains("<input type=\"hidden\" name=\"value\" value=\"false\"><input type=\"checkbox\" id=\"control-1-4\" name=\"value\" value=\"true\" role=\"switch\" class=\"okit-switch\" checked>"))
        #expect(html.contains("<input type=\"datetime-local\" id=\"control-1-5\" name=\"value\" value=\"2019-05-01T10:00\" min=\"2000-01-01T00:00\">"))
        #expect(html.contains("<input type=\"radio\" id=\"control-1-6-2\" name=\"value\" value=\"&lt;script&gt;alert(1)&lt;/script&gt;\" checked>"))
        #expect(html.contains("<legend>Format</legend>"))
        #expect(html.contains("<select id=\"control-1-7\" name=\"value\"><option value=\"1\">Fiction</option><option value=\"2\" selected>"))
        #expect(html.contains("<input type=\"range\" id=\"control-1-8\" name=\"value\" min=\"0\" max=\"1\" step=\"any\" value=\"0.5\">"))
        #expect(html.contains("<input type=\"text\" inputmode=\"numeric\" id=\"control-1-9\" name=\"value\" value=\"3\">"))
        #expect(html.contains("<progress id=\"control-1-10\" max=\"1\" value=\"0.25\">"))
        #expect(html.contains("<img src=\"/image/0/10\" alt=\"Cover\" id=\"control-1-11\">"))
        #expect(html.contains("<iframe src=\"/web/0/11\" sandbox=\"\""))
        #expect(html.contains("<input type=\"password\" id=\"control-1-13\" name=\"value\" placeholder=\"Secret\">"))
        #expect(html.contains("<div class=\"okit-row-main\"><span class=\"okit-text\">Author</span></div>"))
    }

    /// A slider on an int field moves by whole numbers: with `step="any"` a drag sent a fraction the cell refuses.
    @Test func anIntSliderStepsByWholeNumbers() {
        var page = Fixtures.detail()
        page.screen.sections[0].rows[7].control?.value = .int(3)
        let html = PageRenderer.renderString(page, Fixtures.context())
        #expect(html.contains("<input type=\"range\" id=\"control-1-8\" name=\"value\" min=\"0\" max=\"1\" step=\"1\" value=\"3\">"), "\(html)")
    }

    /// A stepper's field takes any value of the range (a double's fractions too), not only the multiples of its
    /// step: a browser refused a typed 10 on a stepper of step 3 up to 10, which the cell keeps. It is a text field
    /// (the range and the step are the cell's, not the browser's) showing a double as the app's language writes it.
    @Test func aSteppersFieldTakesAnyNumberOfItsRange() {
        var page = Fixtures.detail()
        page.screen.sections[0].rows[8].control = ControlSnapshot(value: .int(9), enabled: true, min: .int(0), max: .int(10), step: .int(3))
        var html = PageRenderer.renderString(page, Fixtures.context())
        #expect(html.contains("<input type=\"text\" inputmode=\"numeric\" id=\"control-1-9\" name=\"value\" value=\"9\">"), "\(html)")
        #expect(html.contains("name=\"cell\" value=\"stepper\"><input type=\"hidden\" name=\"value\" value=\"10\">"), "+ reaches the maximum")
        page.screen.sections[0].rows[8].control?.value = .double(2.5)
        var spanish = Fixtures.context()
        spanish.decimalSeparator = ","
        html = PageRenderer.renderString(page, spanish)
        #expect(html.contains("<input type=\"text\" inputmode=\"decimal\" id=\"control-1-9\" name=\"value\" value=\"2,5\">"), "\(html)")
        page.screen.sections[0].rows[8].control?.min = .int(-5)
        html = PageRenderer.renderString(page, Fixtures.context())
        #expect(html.contains("<input type=\"text\" id=\"control-1-9\" name=\"value\" value=\"2.5\">"),
                "a range below 0 takes the whole keyboard (a phone's number pad has no minus): \(html)")
    }

    /// An int stepper's field is no `<input type=number>`: a browser in Spain dropped the comma of a typed `2,5` and
    /// sent 25, which was stored without a word; as a text field it sends `2,5` and the cell refuses it.
    @Test func anIntSteppersFieldSendsWhatWasTyped() {
        var page = Fixtures.detail()
        page.screen.sections[0].rows[8].control = ControlSnapshot(value: .int(3), enabled: true, min: .int(0), max: .int(10), step: .int(1))
        let html = PageRenderer.renderString(page, Fixtures.context())
        #expect(!html.contains("type=\"number\""), "\(html)")
    }

    /// A text field bound to a number shows it as the terminal, JSON lines' texts and bindings do: `12`, not
    /// Swift's `12.0` (a German person's amount of 12 showed as "12.0").
    @Test func aNumberInATextFieldIsShownAsTheOtherFrontEndsShowIt() {
        #expect(PageRenderer.text(.double(12)) == "12")
        #expect(PageRenderer.text(.double(3.9)) == "3.9")
        #expect(PageRenderer.text(.double(1234.5)) == "1234.5")
        #expect(PageRenderer.text(.double(0.00000015)) == "0.00000015")
        #expect(PageRenderer.number(.double(12)) == "12")
    }

    @Test func editCellsAreSetFormsByCellId() {
        #expect(html.contains("value=\"set\"><input type=\"hidden\" name=\"cell\" value=\"switch\">"))
        #expect(html.contains("class=\"okit-form okit-control okit-auto\""))
        // The stepper's + is disabled at the maximum, − sets the value one step down.
        #expect(html.contains("name=\"cell\" value=\"stepper\"><input type=\"hidden\" name=\"value\" value=\"2\"><button type=\"submit\" class=\"okit-button\" aria-label=\"Decrease\">−</button>"))
        #expect(html.contains("aria-label=\"Increase\" disabled>+</button>"))
        #expect(html.contains("<h2 id=\"section-1-header\">Book &lt;script&gt;alert(1)&lt;/script&gt;</h2>"))
        #expect(html.contains(">Done</button>"))
        #expect(html.contains("name=\"on\" value=\"false\""))
    }

    /// A control cell's detail text (`detailPath`: a switch's "lent") is on the page, as the terminal and JSON lines
    /// show it; a cell without one has no empty span.
    @Test func aControlCellShowsItsDetailText() {
        var snapshot = Fixtures.detail()
        snapshot.screen.sections[0].rows[3].detail = "lent <b>"
        let page = PageRenderer.renderString(snapshot, Fixtures.context())
        #expect(page.contains("<label for=\"control-1-4\">Marked</label><span class=\"okit-detail\">lent &lt;b&gt;</span><input type=\"hidden\""))
        snapshot.screen.sections[0].rows[3].detail = ""
        #expect(!PageRenderer.renderString(snapshot, Fixtures.context()).contains("<span class=\"okit-detail\"></span>"))
    }

    @Test func outsideEditModeControlsAreDisabledWithoutForms() {
        let display = PageRenderer.renderString(Fixtures.detail(editing: false), Fixtures.context())
        #expect(!display.contains("value=\"set\""))
        #expect(display.contains("role=\"switch\" class=\"okit-switch\" checked disabled>"))
    }
}

@Suite struct ThemeStylesheetTests {
    @Test func keysBecomeKebabCustomProperties() {
        let css = ThemeStylesheet.css(themeValues: [(key: "tintColor", value: "#007AFF"), (key: "backgroundColor", value: "rgba(0, 0, 0, 0.5)")])
        #expect(css == ":root {\n  --okit-tint-color: #007AFF;\n  --okit-background-color: rgba(0, 0, 0, 0.5);\n}\n")
    }

    @Test func keyForms() {
        #expect(ThemeStylesheet.property("TintColor") == "--okit-tint-color")
        #expect(ThemeStylesheet.property("tint-color") == "--okit-tint-color")
        #expect(ThemeStylesheet.property("--") == nil)
        #expect(ThemeStylesheet.property("a b") == nil)
    }

    @Test func hostileValuesAndKeysAreDropped() {
        let css = ThemeStylesheet.css(themeValues: [
            (key: "textColor", value: "red; } body { x"), (key: "tint-color}", value: "red"),
            (key: "x", value: "url(\"javascript:1\")"), (key: "y", value: "</style>"), (key: "z", value: "red\\3b"),
            (key: "barColor", value: "blue"),
        ])
        #expect(css == ":root {\n  --okit-bar-color: blue;\n}\n")
    }

    @Test func staticFilesAreThere() {
        #expect(Stylesheet.css.contains("--okit-tint-color"))
        #expect(Stylesheet.css.contains("@media (prefers-color-scheme: dark)"))
        #expect(Script.js.contains("new EventSource(url)"))
        #expect(Script.js.contains("visibilitychange"))
        #expect(Script.js.contains("\"hidden\""))
    }

    /// One stylesheet serves both directions: its sides are logical (`margin-inline-start`, `text-align: start`),
    /// and what has no logical form (a ribbon's shadow, a switch's knob) has its right-to-left rule.
    @Test func theStylesheetHasNoPhysicalSides() {
        for side in ["margin-left", "margin-right", "padding-left", "padding-right", "border-left", "border-right",
                     "text-align: left", "text-align: right", " left:", " right:"] {
            #expect(!Stylesheet.css.contains(side), "\(side)")
        }
        #expect(Stylesheet.css.contains("[dir=rtl] .okit-ribbon") && Stylesheet.css.contains("[dir=rtl] input.okit-switch:checked::before"))
    }
}
