#!/usr/bin/env python3
"""A fraction typed into an int field in headless Chromium set to Spanish (Spain), the app in Spanish: the field sends
what was typed and the cell refuses it in Spanish, the stored number unchanged. As an `<input type=number>` the
browser dropped the comma of `2,5` and sent 25 — the stepper clamped it to 10 and stored it without a word
(screens.md: an int field takes a whole number only, a fraction is refused in every front end).

Usage: browser_whole_number.py OKIT_RUN WORKDIR"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import check, done
from webdriver import Driver, Server, open_browser

ENTER = "\ue007"
okit_run, work = sys.argv[1], sys.argv[2]
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
os.makedirs(work, exist_ok=True)
server = Server(okit_run, os.path.join(root, "examples/bookshop/app.lua"), os.path.join(work, "data"),
                extra=("--lang", "es"), env={"OKIT_PASSPHRASE": "correct horse"})
driver = Driver()
COPIES = "form:has(input[name=cell][value=Copies]) input[name=value]"


def copies(b):
    return b.find(COPIES + ":not([disabled])", timeout=10)


try:
    a = open_browser(driver, args=("--lang=es-ES", "--accept-lang=es-ES"))
    a.get(server.url + "/books")
    a.find("main a[href*='/book~']").click()
    a.wait(lambda: "/book~" in a.url(), "a book's detail")
    a.find("button.okit-edit").click()
    field = copies(a)
    stored = field.prop("value")
    check(field.prop("type") == "text", f"the copies field is a text field ({field.prop('type')}), "
          f"browser language {a.script('return navigator.language')}")

    a.script("document.querySelector(arguments[0]).value = ''", COPIES)
    field.type("2,5")
    check(field.prop("value") == "2,5", f"the field holds what was typed ({field.prop('value')})")
    a.keys(ENTER)
    a.wait(lambda: a.all("main .okit-invalid"), "the refusal beside the copies")
    refusal = a.find("main .okit-invalid").text()
    check("solo admite números enteros" in refusal and "«2,5»" in refusal,
          f"the cell refuses the fraction in Spanish, quoting what was typed ({refusal})")
    check(copies(a).prop("value") == "2,5", f"the field keeps what was typed ({copies(a).prop('value')})")

    a.find("button.okit-edit").click()
    a.wait(lambda: a.all("main .okit-cell-stepper input[disabled]"), "edit mode left")
    kept = a.find("main .okit-cell-stepper input").prop("value")
    check(kept == stored, f"the stored number is unchanged ({kept}, was {stored})")

    a.find("button.okit-edit").click()
    a.script("document.querySelector(arguments[0]).value = ''", COPIES)
    copies(a).type("7")
    a.keys(ENTER)
    a.wait(lambda: copies(a).prop("value") == "7" and not a.all("main .okit-invalid"), "7 copies stored")
    check(True, "a whole number is taken")
finally:
    code = server.stop()
    driver.quit()

check(code == 143, f"SIGTERM stores the state and exits 143 (got {code})")
done(lambda: print(server.output()[-2000:]))
