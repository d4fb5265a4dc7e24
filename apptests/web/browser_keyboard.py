#!/usr/bin/env python3
"""The bookshop in headless Chromium as a person uses it with the keyboard (issue 36 items 15 and 8): a row's
actions behind one row menu reached with Tab and opened with Enter, no Delete outside edit mode and Delete in edit
mode, a text field saved by Enter, by Tab and by clicking elsewhere (no Save button), Escape closing a row menu, a
sheet and an alert, focus drawn, and a detail with a date in the app's language (`--lang de`) that fits a 360 px
wide phone.

Usage: browser_keyboard.py OKIT_RUN WORKDIR"""
import os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import check, done
from webdriver import Driver, Element, Server

TAB, ENTER, ESCAPE = "\ue004", "\ue007", "\ue00c"
okit_run, work = sys.argv[1], sys.argv[2]
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
os.makedirs(work, exist_ok=True)
server = Server(okit_run, os.path.join(root, "examples/bookshop/app.lua"), os.path.join(work, "data"),
                extra=("--lang", "de"), env={"OKIT_PASSPHRASE": "correct horse"})
driver = Driver()


def active_is(b, css):
    return b.script("return document.activeElement.matches(arguments[0])", css)


def tab_to(b, css, most=80):
    """Tab until the focus is on `css`; how many presses it took (None: never)."""
    for n in range(1, most + 1):
        b.keys(TAB)
        if active_is(b, css):
            return n
    return None


def visible(b, css):
    return b.script("var e = document.querySelector(arguments[0]); return !!e && e.checkVisibility()", css)


def name_field(b):
    """The detail's name field in edit mode, emptied as a person would select its text (WebDriver's clear would
    send a change event, which saves)."""
    css = "main input[type=text][name=value]:not([disabled])"
    field = b.find(css, timeout=10)
    b.script("document.querySelector(arguments[0]).value = ''", css)
    return field


def subtitle(b):
    return b.find("main .okit-subtitle").text()


try:
    a = driver.browser()
    a.get(server.url + "/books")
    a.find("h1")

    # The row menu: no Delete, More or quick action on the rows; one ⋯ per row, reached with Tab.
    check(not visible(a, "main .okit-row .okit-delete") and not visible(a, "main .okit-more"),
          "outside edit mode no row shows Delete or More")
    presses = tab_to(a, "details.okit-row-menu > summary")
    check(presses is not None, f"Tab reaches a row's menu ({presses} presses)")
    name = a.active().attribute("aria-label")
    check(name == "Aktionen: Dune", f"the menu is named for its row in the app's language ({name})")
    outline = a.script("return getComputedStyle(document.activeElement).outlineStyle")
    check(outline not in ("none", ""), f"the focused menu is drawn with an outline ({outline})")
    a.keys(ENTER)
    a.wait(lambda: visible(a, "details.okit-row-menu[open] .okit-more"), "the opened menu")
    check(visible(a, "details.okit-row-menu[open] .okit-menu-delete"), "Enter opens the menu: More, Delete and Mark inside")
    a.keys(ESCAPE)
    a.wait(lambda: not a.all("details.okit-row-menu[open]"), "the menu closed")
    check(active_is(a, "details.okit-row-menu > summary"), "Escape closes the menu and the focus stays on its ⋯")

    # More from the menu with the keyboard: the sheet; Escape answers it with Cancel.
    a.keys(ENTER)
    tab_to(a, "details.okit-row-menu[open] button.okit-more", most=5)
    a.keys(ENTER)
    a.wait(lambda: visible(a, "dialog[open].okit-sheet"), "the More sheet")
    a.keys(ESCAPE)
    a.wait(lambda: not a.all("dialog[open]"), "the sheet closed")
    check(True, "Escape closes the More sheet (its Cancel)")

    # Delete from the menu: the confirmation; Escape answers it with No and the book stays.
    a.find("details.okit-row-menu > summary").click()
    tab_to(a, "details.okit-row-menu[open] button.okit-menu-delete", most=5)
    a.keys(ENTER)
    a.wait(lambda: visible(a, "dialog[open].okit-alert"), "the deletion's confirmation")
    a.keys(ESCAPE)
    a.wait(lambda: not a.all("dialog[open]"), "the confirmation closed")
    check(any("Dune" in t for t in a.texts("main .okit-row .okit-text")), "Escape answers the confirmation with No: Dune stays")

    # Edit mode: each row shows its Delete.
    a.find("button.okit-edit").click()
    a.wait(lambda: visible(a, "main .okit-row-actions .okit-delete"), "Delete in edit mode")
    check(len(a.all("main .okit-row-actions .okit-delete")) == len(a.all("main .okit-row")),
          "in edit mode every deletable row shows its Delete")
    a.find("button.okit-edit").click()
    a.wait(lambda: not a.all("main .okit-row-actions .okit-delete"), "edit mode left")

    # A text field: Enter saves, with no Save button on the page.
    a.find("main a[href*='/book~']").click()
    a.wait(lambda: "/book~" in a.url(), "the detail")
    detail_url = a.url()
    a.find("button.okit-edit").click()
    field = name_field(a)
    check(not visible(a, "main form.okit-text-save button[type=submit]"), "a text field shows no Save button with scripts on")
    field.type("Dune Enter" + ENTER)
    a.wait(lambda: subtitle(a) == "Dune Enter", "the name saved by Enter")
    check(a.url() == detail_url and not a.all("main .okit-notice"), "Enter saves the field and stays on the page")

    # Leaving the field by Tab saves it; the focus goes on to the next control.
    field = name_field(a)
    field.type("Dune Tab")
    a.keys(TAB)
    a.wait(lambda: subtitle(a) == "Dune Tab", "the name saved by leaving it with Tab")
    check(active_is(a, "input[role=switch]"), "Tab saves the field and the focus is on the next control")

    # A save changes the page in place: the elements a person (or a browser driver) holds stay the same ones, so
    # WebDriver's usual clear, type, Enter works on one field reference (clear's change event saves the empty text
    # first) and a button found before the save is still the page's button after it.
    css = "main input[type=text][name=value]:not([disabled])"
    a.script("document.querySelector('button.okit-edit').okitMark = 7")
    held = Element(a, a.find(css).id)          # no re-finding: a replaced element would fail here
    held.clear()
    held.type("Dune Clear" + ENTER)
    a.wait(lambda: subtitle(a) == "Dune Clear", "the name saved by clear, type and Enter on one reference")
    check(a.script("return document.querySelector('button.okit-edit').okitMark") == 7,
          "a save keeps the page's elements: a button found before it is the same element after it")

    # Leaving it by clicking Done: the save lands and so does Done (no out-of-date page).
    field = name_field(a)
    field.type("Dune Blur")
    a.find("button.okit-edit").click()
    a.wait(lambda: subtitle(a) == "Dune Blur" and a.find("button.okit-edit").attribute("aria-pressed") == "false",
           "the name saved on blur and edit mode left")
    check(not a.all("main .okit-notice"), "a click that leaves a changed field saves it and then does what it says")

    # A date at phone width: the engine's text for it, nothing cut off or wider than the window.
    a.find("button.okit-edit").click()
    a.find("details.okit-date > summary", timeout=10).click()
    a.script("""var i = document.querySelector('details.okit-date input[type=datetime-local]');
                i.value = '2019-05-01T10:00'; i.dispatchEvent(new Event('change', { bubbles: true }));""")
    a.wait(lambda: a.all("details.okit-date .okit-detail"), "the date's text")
    shown = a.find("details.okit-date .okit-detail").text()
    check(re.search(r"\b0?1\.0?5\.(20)?19\b|1\. Mai 2019", shown) is not None and "AM" not in shown,
          f"the date cell shows the date in German, as the engine writes it ({shown})")
    a.size(360, 800)
    a.find("details.okit-date > summary").click()
    fits = a.script("""var d = document.documentElement, r = document.querySelector('details.okit-date').getBoundingClientRect();
                       var i = document.querySelector('details.okit-date input').getBoundingClientRect();
                       return [d.scrollWidth <= d.clientWidth, r.right <= d.clientWidth, i.right <= d.clientWidth];""")
    check(fits == [True, True, True], f"at 360 px the page, the date cell and its input fit the window ({fits})")
finally:
    code = server.stop()
    driver.quit()

check(code == 143, f"SIGTERM stores the state and exits 143 (got {code})")
done(lambda: print(server.output()[-2000:]))
