#!/usr/bin/env python3
"""A value a cell refuses, typed in headless Chromium with the script on (the text field is saved by `fetch` when the
person leaves it): the refusal shows beside the field and the field keeps what was typed — it went back to the stored
amount, and the person had to type it all again. A reload keeps it; another person's page of the same expense shows
the stored amount; a value the cell takes replaces it (web.md "Pages and forms").

Usage: browser_refused_text.py OKIT_RUN WORKDIR"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import check, done
from webdriver import Driver, Server

TAB = "\ue004"
okit_run, work = sys.argv[1], sys.argv[2]
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
os.makedirs(work, exist_ok=True)
server = Server(okit_run, os.path.join(root, "examples/expenses/app.lua"), os.path.join(work, "data"), extra=("--lang", "fr"))
driver = Driver()
AMOUNT = "#cell-1-2 input[name=value]"


def edit(b, url):
    """The expense at `url` in edit mode; its amount field."""
    b.get(url)
    b.find("button.okit-edit").click()
    return b.find(AMOUNT + ":not([disabled])", timeout=10)


def retype(b, text):
    """Empties the amount as a person selecting its text would (WebDriver's clear would send a change, which
    saves), types `text` and leaves the field with Tab."""
    field = b.find(AMOUNT + ":not([disabled])")
    b.script("document.querySelector(arguments[0]).value = ''", AMOUNT)
    field.type(text)
    b.keys(TAB)


try:
    a = driver.browser()
    a.get(server.url + "/expenses")
    a.find("main a[href*='/expense~']").click()
    a.wait(lambda: "/expense~" in a.url(), "an expense's detail")
    detail = a.url()
    stored = edit(a, detail).prop("value")
    check("€" in stored, f"the amount shows as the app writes money ({stored})")

    retype(a, "abc")
    a.wait(lambda: a.all("#cell-1-2 .okit-invalid"), "the refusal beside the amount")
    field = a.find(AMOUNT)
    check(not a.script("return document.activeElement.matches(arguments[0])", AMOUNT),
          "the focus went on (the field's value is the page's, not the typing the swap keeps)")
    check(field.prop("value") == "abc", f"the field keeps what was typed ({field.prop('value')})")
    check(field.attribute("aria-invalid") == "true", "the field is said invalid")
    beside = a.find("#cell-1-2 .okit-invalid").text()
    check("abc" in beside and "nombre" in beside and beside == a.find("main .okit-error").text(),
          f"the refusal beside it is the page's error, in French ({beside})")

    a.refresh()
    a.wait(lambda: a.find(AMOUNT).prop("value") == "abc", "the reloaded page")
    check(not a.all("main .okit-error") and a.all("#cell-1-2 .okit-invalid"),
          "a reload keeps the typed text and the refusal beside it (the page's error was said once)")

    b = driver.browser()
    other = edit(b, detail).prop("value")
    check(other == stored and not b.all("main .okit-invalid"), f"another person sees the stored amount ({other})")

    retype(a, "12,5")
    a.wait(lambda: not a.all("main .okit-invalid"), "the amount taken")
    taken = a.find(AMOUNT).prop("value")
    check(taken.startswith("12,50") and a.find(AMOUNT).attribute("aria-invalid") is None,
          f"a value the cell takes replaces the typed text ({taken})")
    b.wait(lambda: b.find(AMOUNT).prop("value") == taken, "the other page updated live")
    check(True, "the other person's page shows the new amount")
finally:
    code = server.stop()
    driver.quit()

check(code == 143, f"SIGTERM stores the state and exits 143 (got {code})")
done(lambda: print(server.output()[-2000:]))
