#!/usr/bin/env python3
"""Two people editing one book's name in headless Chromium with the script on (web.md "Sessions and live updates").

1. Bob saves a name with Enter and keeps the field focused; Ann then stores another name: Bob's field shows Ann's
   name at once (it kept Bob's old text until a reload, and one more keystroke would have stored over Ann's).
2. Ann types without leaving the field while Bob stores a name: Ann's typing stays; her Enter then applies nothing
   and says the page was out of date (Bob's change showed while she typed), her text still in the field; her
   next Enter stores it.

Usage: browser_focused_field.py OKIT_RUN WORKDIR"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import check, done
from webdriver import Driver, Server

ENTER = "\ue007"
okit_run, work = sys.argv[1], sys.argv[2]
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
os.makedirs(work, exist_ok=True)
server = Server(okit_run, os.path.join(root, "examples/bookshop/app.lua"), os.path.join(work, "data"))
driver = Driver()
NAME = "#cell-1-1 input[name=value]"


def edit(b, url):
    """The book at `url` in edit mode; its name field, focused."""
    b.get(url)
    b.find("button.okit-edit").click()
    field = b.find(NAME + ":not([disabled])", timeout=10)
    field.click()
    return field


def replace_text(b, text):
    """Empties the focused name field as a person selecting its text would and types `text` (no Enter)."""
    b.script("document.querySelector(arguments[0]).value = ''", NAME)
    b.find(NAME).type(text)


def focused(b):
    return b.script("return document.activeElement && document.activeElement.matches(arguments[0])", NAME)


try:
    ann, bob = driver.browser(), driver.browser()
    ann.get(server.url + "/books")
    ann.find("main a[href*='/book~']").click()
    ann.wait(lambda: "/book~" in ann.url(), "a book's detail")
    detail = ann.url()
    edit(ann, detail)
    edit(bob, detail)

    # 1. Bob's saved text follows Ann's later change while his field keeps the focus.
    replace_text(bob, "Bob 1")
    bob.keys(ENTER)
    bob.wait(lambda: "Bob 1" in ann.find(NAME).prop("value"), "Ann's page shows Bob's save")
    check(focused(bob), "Bob's field kept the focus through his save")
    replace_text(ann, "Ann 2")
    ann.keys(ENTER)
    bob.wait(lambda: bob.find(NAME).prop("value") == "Ann 2", "Bob's focused field shows Ann's name", timeout=15)
    check(focused(bob), "Bob's field is still focused and shows Ann's name")

    # 2. Ann's typing over Bob's change: kept, refused once as out of date, stored by her next Enter.
    ann.find(NAME).click()
    replace_text(ann, "Ann typed this")
    bob.find(NAME).click()
    replace_text(bob, "Bob's Dune")
    bob.keys(ENTER)
    ann.wait(lambda: "Bob's Dune" in ann.source(), "Bob's name reached Ann's page")
    check(ann.find(NAME).prop("value") == "Ann typed this", "Ann's typing stayed while Bob's change showed")
    ann.find(NAME).click()
    ann.keys(ENTER)
    ann.wait(lambda: ann.all("main .okit-notice"), "a notice on Ann's page")
    notice = ann.find("main .okit-notice").text()
    check("out of date" in notice, f"Ann is told the page was out of date ({notice})")
    check(ann.find(NAME).prop("value") == "Ann typed this", "her text is still in the field")
    check(bob.find(NAME).prop("value") == "Bob's Dune", "Bob's name is still the stored one")
    ann.find(NAME).click()
    ann.keys(ENTER)
    bob.wait(lambda: bob.find(NAME).prop("value") == "Ann typed this", "Ann's second Enter stored her text", timeout=15)
    check(True, "Ann's second Enter stored her text, and Bob's page shows it")
finally:
    code = server.stop()
    driver.quit()

check(code == 143, f"SIGTERM stores the state and exits 143 (got {code})")
done(lambda: print(server.output()[-2000:]))
