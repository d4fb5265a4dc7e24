import Testing
@testable import OKitEngine
@testable import OKitWeb

@Suite struct PageRendererTests {
    let evilEscaped = "&lt;script&gt;alert(1)&lt;/script&gt;"

    func page(_ s: Snapshot, _ c: PageContext = Fixtures.context()) -> String { PageRenderer.renderString(s, c) }

    @Test func titleIsTheH1AndIsEscaped() {
        let html = page(Fixtures.list())
        #expect(html.contains("<h1 id=\"okit-title\">Books \(evilEscaped)</h1>"))
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    }

    @Test func modelTextIsEscapedEverywhere() {
        for s in Fixtures.all {
            let html = page(s)
            // The only script element is the one with a src.
            #expect(Fixtures.count("<script", in: html) == 1)
            #expect(html.contains("<script src=\"/static/okit.js\" defer></script>"))
            #expect(!html.contains("alert(1)</"))
            #expect(!html.contains(" onmouseover"))
        }
        #expect(page(Fixtures.list()).contains("<span class=\"okit-text\">\(evilEscaped)</span>"))
        // In element text a quote is harmless and stays; in attribute values it is escaped.
        #expect(page(Fixtures.list()).contains("<span class=\"okit-detail\">\"onmouseover=\"x</span>"))
        #expect(page(Fixtures.detail()).contains("&lt;/textarea&gt;\(evilEscaped)</textarea>"))
    }

    @Test func noInlineStylesScriptsOrHandlers() throws {
        for s in Fixtures.all {
            let html = page(s)
            #expect(!html.contains("style="))
            let handler = try Regex("\\son[a-z]+=")
            #expect(html.firstMatch(of: handler) == nil)
            #expect(!html.contains("javascript:"))
        }
    }

    @Test func everyPostFormCarriesCsrfVersionLocationAndCommand() {
        for s in Fixtures.all {
            let html = page(s)
            let forms = Fixtures.count("<form method=\"post\"", in: html)
            #expect(forms > 0)
            #expect(Fixtures.count("<input type=\"hidden\" name=\"csrf\" value=\"TOKEN\">", in: html) == forms)
            #expect(Fixtures.count("<input type=\"hidden\" name=\"v\" value=\"7\">", in: html) == forms)
            #expect(Fixtures.count("<input type=\"hidden\" name=\"at\" value=\"/books?x=1\">", in: html) == forms)
            #expect(Fixtures.count("<input type=\"hidden\" name=\"command\"", in: html) == forms)
        }
    }

    @Test func everyControlHasALabel() throws {
        let id = try Regex("<(?:input|select|textarea|progress)[^>]* id=\"([^\"]+)\"")
        for s in Fixtures.all {
            let html = page(s)
            for m in html.matches(of: id) {
                let name = String(m.output[1].substring ?? "")
                #expect(html.contains("<label for=\"\(name)\""), "no label for \(name)")
            }
        }
    }

    @Test func searchIsASearchInputInAGetFormWithScopes() {
        let html = page(Fixtures.list())
        #expect(html.contains("<form method=\"get\" action=\"/books\" role=\"search\""))
        #expect(html.contains("<input type=\"search\" id=\"okit-search\" name=\"text\" value=\"&quot;&gt;&lt;b&gt;\""))
        #expect(html.contains("name=\"scope\" value=\"Fiction\" checked>"))
        #expect(html.contains("name=\"scope\" value=\"All\">"))
        // The rest of the location's query stays (the search keeps the place); text and scope are the form's.
        #expect(html.contains("<input type=\"hidden\" name=\"x\" value=\"1\"><button type=\"submit\" class=\"okit-button okit-nojs\">Search</button>"))
    }

    @Test func barButtonsTabsAndShell() {
        let html = page(Fixtures.list())
        #expect(html.contains("aria-label=\"Add\">+</button>"))
        #expect(html.contains("<input type=\"hidden\" name=\"command\" value=\"add\">"))
        #expect(html.contains("<input type=\"hidden\" name=\"command\" value=\"edit\"><input type=\"hidden\" name=\"on\" value=\"true\">"))
        #expect(html.contains(">Edit</button>"))
        #expect(html.contains("<input type=\"hidden\" name=\"id\" value=\"Directory\">"))
        #expect(html.contains("<a href=\"/books\" aria-current=\"page\">Book Shop</a>"))
        #expect(html.contains("<a href=\"/authors\">Directory \(evilEscaped)</a>"))
        #expect(html.contains("<a href=\"/\" rel=\"prev\" class=\"okit-back\">Back</a>"))
        #expect(html.contains("aria-label=\"Breadcrumb\""))
        #expect(html.contains("<details class=\"okit-help\" open><summary>Help</summary><p>Help \(evilEscaped)</p></details>"))
        #expect(html.contains("data-events=\"/events\""))
        #expect(html.contains("<link rel=\"stylesheet\" href=\"/static/okit.css\"><link rel=\"stylesheet\" href=\"/theme.css\">"))
    }

    @Test func rowsAreLinksOrPostButtons() {
        let plain = page(Fixtures.list())
        #expect(plain.contains("<input type=\"hidden\" name=\"command\" value=\"tap\"><input type=\"hidden\" name=\"row\" value=\"id-dune\">"))
        // A row without an id is addressed by its position in the whole list.
        #expect(plain.contains("<input type=\"hidden\" name=\"command\" value=\"tap\"><input type=\"hidden\" name=\"row\" value=\"2\">"))
        for command in ["accessory", "quick", "more", "delete"] {
            #expect(plain.contains("value=\"\(command)\"><input type=\"hidden\" name=\"row\" value=\"id-dune\">"), "\(command)")
        }
        #expect(plain.contains(">Mark</button>"))
        #expect(plain.contains(">Star</button>"))
        let linked = page(Fixtures.list(), Fixtures.context(rowLink: { _, _, row in row.id.map { "/books/\($0)" } }))
        #expect(linked.contains("<a href=\"/books/id-dune\" class=\"okit-row-main okit-disclosure\">"))
        #expect(!linked.contains("value=\"tap\"><input type=\"hidden\" name=\"row\" value=\"id-dune\">"))
    }

    @Test func sectionsIndexAndMoreRows() {
        let html = page(Fixtures.list(), Fixtures.context(moreRowsURL: "/books?offset=200"))
        #expect(html.contains("<section id=\"section-1\" class=\"okit-section\" aria-labelledby=\"section-1-header\"><h2 id=\"section-1-header\" class=\"okit-group-title\">D</h2><ul"))
        #expect(html.contains("<p class=\"okit-footer\">Footer \(evilEscaped)</p>"))
        #expect(html.contains("<a href=\"#section-2\">E</a>"))
        #expect(html.contains("<a href=\"/books?offset=200\">More rows</a>"))
        #expect(!page(Fixtures.list()).contains("More rows"))
    }

    @Test func promptIsADialogWithFieldsAndActionButtons() {
        let html = page(Fixtures.prompt())
        #expect(html.contains("<dialog open class=\"okit-alert okit-alert\""))
        #expect(html.contains("<h2 id=\"okit-alert-title\">New \(evilEscaped)</h2>"))
        #expect(html.contains("<input type=\"text\" id=\"okit-field-1\" name=\"fields\" placeholder=\"Name \(evilEscaped)\" value=\"\(evilEscaped)\""))
        #expect(html.contains("<input type=\"password\" id=\"okit-field-2\" name=\"fields\""))
        #expect(!html.contains("hunter2"))
        #expect(html.contains("name=\"action\" value=\"1\" class=\"okit-button okit-default\">OK</button>"))
        #expect(html.contains("name=\"action\" value=\"2\" class=\"okit-button okit-escape\">Cancel</button>"))
        #expect(html.contains("value=\"respond\""))
    }

    @Test func errorAndNotice() {
        let html = page(Fixtures.list(), Fixtures.context(error: "no such row \(Fixtures.evil)", notice: "This page was out of date"))
        #expect(html.contains("<p role=\"alert\" class=\"okit-error\">no such row \(evilEscaped)</p>"))
        #expect(html.contains("<p role=\"status\" class=\"okit-notice\">This page was out of date</p>"))
    }

    @Test func selectionIsPresentedWithCheckedSelectButtons() {
        let html = page(Fixtures.selection())
        #expect(html.contains("<div role=\"dialog\" aria-modal=\"true\""))
        #expect(html.contains("value=\"select\"><input type=\"hidden\" name=\"row\" value=\"a1\"><button type=\"submit\" class=\"okit-row-main okit-check\" aria-pressed=\"true\">"))
        #expect(html.contains("aria-pressed=\"false\">"))
        #expect(html.contains("<input type=\"hidden\" name=\"id\" value=\"close\"><button type=\"submit\" class=\"okit-button okit-escape\">Close</button>"))
    }

    @Test func windowedRowsAreAddressedInTheWholeList() {
        var c = Fixtures.context(moreRowsURL: "/books?offset=400")
        c.rowOffset = 200
        let html = page(Fixtures.list(), c)
        #expect(html.contains("value=\"tap\"><input type=\"hidden\" name=\"row\" value=\"202\">"))
        #expect(html.contains("(202 of 500)"))
    }

    @Test func editModeRowsCanMoveAndSelect() {
        var c = Fixtures.context()
        c.reorderableInEdit = true
        c.selectableInEdit = true
        var s = Fixtures.list()
        s.screen.editing = true
        let html = page(s, c)
        #expect(html.contains("value=\"move\"><input type=\"hidden\" name=\"from\" value=\"id-dune\"><input type=\"hidden\" name=\"to\" value=\"0\"><button type=\"submit\" class=\"okit-button okit-move\" disabled>Move up</button>"))
        #expect(html.contains("name=\"from\" value=\"id-dune\"><input type=\"hidden\" name=\"to\" value=\"2\"><button type=\"submit\" class=\"okit-button okit-move\">Move down</button>"))
        #expect(html.contains("value=\"select\"><input type=\"hidden\" name=\"row\" value=\"id-dune\"><button type=\"submit\" class=\"okit-button okit-select\" aria-pressed=\"false\">Select</button>"))
        #expect(!page(Fixtures.list(), c).contains("Move up"))
    }

    /// A row `move` does not take (its snapshot's `"move":false`: a locked row, a grouped or searched list) shows
    /// no Move buttons; the others keep theirs (an outside tester's locked row offered a move that was refused).
    @Test func aRowThatCannotMoveShowsNoMoveButtons() {
        var c = Fixtures.context()
        c.reorderableInEdit = true
        var s = Fixtures.list()
        s.screen.editing = true
        s.screen.sections[0].rows[0].move = false
        s.screen.sections[1].rows[0].move = true
        let html = page(s, c)
        #expect(!html.contains("name=\"from\" value=\"id-dune\""), "\(html)")
        #expect(html.contains("okit-move"), "the other row keeps its Move buttons")
    }

    @Test func menuButtonOpensTheMenu() {
        var c = Fixtures.context()
        c.hasMenu = true
        #expect(page(Fixtures.list(), c).contains("value=\"menu\"><button type=\"submit\" class=\"okit-button okit-menu-button\">Menu</button>"))
    }

    @Test func menuIsANavDrawerWithItems() {
        let html = page(Fixtures.menu())
        #expect(html.contains("value=\"close\"><button type=\"submit\" class=\"okit-button okit-menu-button okit-escape\" aria-label=\"Close menu\">Close</button>"))
        #expect(html.contains("<nav class=\"okit-menu\" aria-label=\"Menu\">"))
        #expect(html.contains("value=\"menuItem\"><input type=\"hidden\" name=\"title\" value=\"Settings\">"))
    }

    @Test func backupsHaveCreateRestoreDeleteDownloadAndUpload() {
        let html = page(Fixtures.backups())
        #expect(html.contains("value=\"add\">"))
        // The create form's two and the upload's (a secure backup is checked with it); restore asks in its dialogs.
        #expect(Fixtures.count("type=\"password\"", in: html) == 3)
        #expect(html.contains("id=\"okit-backup-upload-password\" name=\"password\""))
        #expect(html.contains("value=\"tap\"><input type=\"hidden\" name=\"row\" value=\"Monday \(evilEscaped)\">"))
        #expect(html.contains(">Restore</button>"))
        #expect(html.contains("value=\"delete\">"))
        #expect(html.contains("<a href=\"/backups/Monday%20%3Cscript%3Ealert%281%29%3C%2Fscript%3E\" download"))
        #expect(html.contains("enctype=\"multipart/form-data\""))
        #expect(html.contains("accept=\".okbackup\""))
    }

    @Test func coverIsAPassphraseFormRunningAuthenticate() {
        let html = page(Fixtures.cover())
        #expect(html.contains("value=\"authenticate\">"))
        #expect(html.contains("<input type=\"password\" id=\"okit-passphrase\" name=\"passphrase\""))
        #expect(html.contains("<p class=\"okit-cover-text\">Locked \(evilEscaped)</p>"))
        #expect(!html.contains("okit-tabs"))
        #expect(Fixtures.count("<h1", in: html) == 1)
    }
}
