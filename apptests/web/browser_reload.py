#!/usr/bin/env python3
"""Live reload in the browser (web.md "Live reload", issue 40 item 1): `okit-run serve --dev` on a copy of the
bookshop, two browsers at different places (the book list, and Dune's detail screen). Editing app.lua (two titles)
updates both pages where they are, pushed without reloading them; a syntax error shows the overlay with
app.lua:LINE:COL on both while the last app that loaded keeps answering a command; fixing the file removes the
overlay from both. Then, recording: the detail's screen renamed while its name field holds typed text: the page
goes to the list with a notice naming the text, the address follows, and the saved test (the move written as
`app:back()`) passes.

Usage: browser_reload.py OKIT_RUN WORKDIR [IMGDIR] — a screenshot of the error overlay goes to IMGDIR (docs/img when
given)."""
import os, shutil, subprocess, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import check, done
from webdriver import Driver, Server

okit_run, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
shots = sys.argv[3] if len(sys.argv) > 3 else None
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
os.makedirs(work, exist_ok=True)
shop = os.path.join(work, "bookshop")
shutil.rmtree(shop, ignore_errors=True)
shutil.rmtree(os.path.join(work, "data"), ignore_errors=True)
os.makedirs(shop)
app_lua = os.path.join(shop, "app.lua")
shutil.copy(os.path.join(root, "examples/bookshop/app.lua"), app_lua)
original = open(app_lua).read()
server = Server(okit_run, app_lua, os.path.join(work, "data"), extra=["--dev"])
driver = Driver()


def write(text):
    with open(app_lua, "w") as f:
        f.write(text)


def title(b):
    return b.find("h1#okit-title").text()


def overlay(b):
    found = b.all("#okit-dev-error")
    return found[0].text() if found else None


def row_link(b, text):
    """Opens the list row showing `text`."""
    rid = b.script("""var rows = document.querySelectorAll('main li.okit-row');
        for (var i = 0; i < rows.length; i++) {
          var t = rows[i].querySelector('.okit-text');
          if (t && t.textContent === arguments[0]) { return rows[i].id; }
        }
        return null;""", text)
    b.find(f"#{rid} a").click()


try:
    a, b = driver.browser(), driver.browser()
    a.get(server.url + "/books")
    a.wait(lambda: title(a).startswith("Book Shop"), "the book list")
    b.get(server.url + "/books")
    row_link(b, "Dune")
    b.wait(lambda: title(b) == "Book", "Dune's detail")
    dune_url = b.url()
    # A mark in each page: it is still there after the reload only if the page was updated in place.
    for x in (a, b):
        x.script("window.okitKept = 'yes';")

    write(original.replace('titlePath = "%Book Shop"', 'titlePath = "%Book Store"')
                  .replace('titlePath = "%Book", subTitlePath = "name"', 'titlePath = "%Book Details", subTitlePath = "name"'))
    a.wait(lambda: title(a).startswith("Book Store"), "the list's new title")
    b.wait(lambda: title(b) == "Book Details", "the detail's new title")
    check(True, "an edit of app.lua reaches both open pages")
    check(b.url() == dune_url and "Dune" in b.find("main").text(), f"the detail stays on Dune ({b.url()})")
    check(a.script("return window.okitKept") == "yes" and b.script("return window.okitKept") == "yes",
          "the pages were updated in place (pushed), not reloaded")

    # A syntax error: the overlay on both pages, with file:line:column; the last app keeps serving.
    good = open(app_lua).read()
    broken = good + "local oops = = 3\n"
    line = broken.count("\n")
    write(broken)
    for x, name in ((a, "the list"), (b, "the detail")):
        x.wait(lambda: overlay(x) is not None, f"the overlay on {name}")
        text = overlay(x)
        check(f"app.lua:{line}:14" in text and "unexpected symbol" in text, f"{name} shows app.lua:{line}:14 and the message ({text})")
    check(a.find("#okit-dev-error").attribute("role") == "alert", "the overlay is an alert")
    if shots:
        a.size(1200, 700)
        time.sleep(0.3)
        a.screenshot(os.path.join(shots, "dev-error-overlay.png"))
    a.find("button[aria-label=Add]").click()
    a.find("dialog[open] input[name=fields]").type("Still Serving")
    a.find("dialog[open] button[name=action]").click()
    a.wait(lambda: "Still Serving" in a.texts("main li.okit-row .okit-text"), "the new book's row")
    check(overlay(a) is not None, "a command still works while the file does not load (and the overlay stays)")

    # Fixed: the overlay goes from both pages.
    write(good)
    for x, name in ((a, "the list"), (b, "the detail")):
        x.wait(lambda: overlay(x) is None, f"no overlay on {name}")
    check(title(b) == "Book Details" and "Still Serving" in a.texts("main li.okit-row .okit-text"),
          "fixing the file removes the overlay from both pages; the data typed meanwhile is there")

    # Recording; the detail's screen renamed while text is typed in its name field (not sent): the page goes to
    # the list, the address follows, the notice names the typed text; the saved test replays the move.
    a.find("button.okit-record-start").click()
    a.wait(lambda: a.all(".okit-record-status"), "the recording bar")
    row_link(a, "Dune")
    a.wait(lambda: title(a) == "Book Details", "Dune's detail")
    a.find("button.okit-edit").click()
    field = a.find("main input[type=text][name=value]:not([disabled])", timeout=10)
    field.click()
    field.type(" half typed")
    write(good.replace('segue = "book",', 'segue = "bookX",').replace('okit.detail("book", {', 'okit.detail("bookX", {'))
    a.wait(lambda: title(a).startswith("Book Store"), "the list after the rename")
    a.wait(lambda: a.all(".okit-notice") and "half typed" in a.find(".okit-notice").text(), "the notice")
    notice = a.find(".okit-notice").text()
    check("“book” no longer exists" in notice and "half typed" in notice, f"the notice says where and names the text ({notice})")
    check(a.url() == server.url + "/books", f"the address follows the move ({a.url()})")
    row_link(a, "Emma")
    a.wait(lambda: title(a) == "Book Details", "Emma's detail")
    a.find("#okit-record-name").type("moved\ue007")
    a.wait(lambda: "Saved tests/moved_test.lua" in a.find(".okit-notice").text(), "the save")
finally:
    code = server.stop()
    driver.quit()

log = server.output()
moved = os.path.join(shop, "tests", "moved_test.lua")
text = open(moved).read() if os.path.exists(moved) else ""
check("“book” was gone" in text and "app:back()" in text and "by its URL" not in text,
      f"the recording writes the reload's move as back, no URL opened ({text})")
run = subprocess.run([okit_run, "test", "tests/moved_test.lua"], cwd=shop, capture_output=True, text=True, timeout=120)
check(run.returncode == 0, f"the recorded test passes ({run.stdout[-600:]}{run.stderr[-600:]})")
check("unexpected symbol" in log and "reloaded app.lua" in log, "the server logs the load error and the reloads on stderr")
check(code == 143, f"SIGTERM stores the state and exits 143 (got {code})")
done(lambda: print(log[-2000:]))
