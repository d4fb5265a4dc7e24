#!/usr/bin/env python3
"""Recording a flow test in the browser (web.md "Development mode", issue 40 item 1): `okit-run serve --dev` on a
copy of the bookshop; Record, then an add (the name prompt), two assertions (the title and a row's text, clicked
in Assert mode), an edit (the name cell on the detail screen), a delete (with its confirmation); Save as "web"
writes tests/web_test.lua beside the app, a name taken is refused on the page; `okit-run test tests/web_test.lua`
passes as saved, and fails naming the title once the copied app.lua renames it.

Usage: browser_record.py OKIT_RUN WORKDIR [IMGDIR] — a screenshot of the bar goes to IMGDIR (docs/img when given)."""
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
shutil.rmtree(os.path.join(work, "data"), ignore_errors=True)      # the recording starts from the seeded data
os.makedirs(shop)
shutil.copy(os.path.join(root, "examples/bookshop/app.lua"), shop)
server = Server(okit_run, os.path.join(shop, "app.lua"), os.path.join(work, "data"), extra=["--dev"])
driver = Driver()


def last_line(b):
    found = b.all(".okit-record-last")
    return found[0].text() if found else ""


def row_id(b, text):
    """The DOM id of the list row showing `text`."""
    return b.script("""var rows = document.querySelectorAll('main li.okit-row');
        for (var i = 0; i < rows.length; i++) {
          var t = rows[i].querySelector('.okit-text');
          if (t && t.textContent === arguments[0]) { return rows[i].id; }
        }
        return null;""", text)


def assert_on(b, css, expected):
    b.find("button.okit-record-assert").click()
    check(b.find("body").attribute("class").find("okit-asserting") >= 0, f"Assert waits for a click ({css})")
    b.find(css).click()
    b.wait(lambda: expected in last_line(b), f"the assertion {expected}")


try:
    a = driver.browser()
    a.get(server.url + "/")
    a.find("button.okit-record-start").click()
    a.wait(lambda: "Recording: 0 lines" in a.find(".okit-record-status").text(), "the recording bar")
    check(True, "Record starts recording: the bar counts the lines")

    # An add through the name prompt.
    a.find("button[aria-label=Add]").click()
    a.find("dialog[open] input[name=fields]").type("Anna Karenina")
    a.find("dialog[open] button[name=action]").click()
    a.wait(lambda: row_id(a, "Anna Karenina") is not None, "the new book's row")
    check('app:respond("OK", { "Anna Karenina" })' == last_line(a), f"the prompt's answer is a line ({last_line(a)})")

    # Two assertions: the title, and the new row's text (the first row of its section).
    assert_on(a, "h1#okit-title", 'assert.equal("Book Shop", app:screen().screen.title)')
    anna = row_id(a, "Anna Karenina")
    assert_on(a, f"#{anna} .okit-text", '"Anna Karenina", app:screen().screen.sections[1].rows[1].text)')
    check(True, "Assert and a click on a title or a row's text add an assertion on it")
    if shots:
        a.size(1200, 700)
        time.sleep(0.3)
        a.screenshot(os.path.join(shots, "web-record-bar.png"))

    # An edit: open Dune through its row's link, edit its name cell.
    dune = row_id(a, "Dune")
    a.find(f"#{dune} a").click()
    a.wait(lambda: a.find("h1").text() == "Book", "the detail")
    a.find("button.okit-edit").click()
    name = a.find("main input[type=text][name=value]:not([disabled])", timeout=10)
    a.script("document.querySelector('main input[type=text][name=value]:not([disabled])').value = ''")
    name.type("Dune Messiah\ue007")
    a.wait(lambda: 'app:set("name", "Dune Messiah")' in last_line(a), "the edit's line")
    check(True, "an edited cell is a set line")
    a.find("a.okit-back").click()
    a.wait(lambda: a.find("h1").text().startswith("Book Shop"), "back on the list")

    # A delete with its confirmation.
    emma = row_id(a, "Emma")
    a.find(f"#{emma} details.okit-row-menu summary").click()
    a.find(f"#{emma} button.okit-menu-delete").click()
    a.wait(lambda: any(b.text() == "Yes" for b in a.all("dialog[open] button[name=action]")), "the confirmation")
    yes = [b for b in a.all("dialog[open] button[name=action]") if b.text() == "Yes"]
    check(len(yes) == 1, "the delete asks for confirmation")
    yes[0].click()
    a.wait(lambda: row_id(a, "Emma") is None, "Emma deleted")
    check(last_line(a) == 'app:respond("Yes")', f"the confirmation is a line ({last_line(a)})")

    # Save: a name taken is refused on the page; a free one writes the file.
    os.makedirs(os.path.join(shop, "tests"), exist_ok=True)
    with open(os.path.join(shop, "tests", "taken_test.lua"), "w") as f:
        f.write("-- mine\n")
    a.find("#okit-record-name").type("taken\ue007")
    a.wait(lambda: "exists" in a.find(".okit-error").text(), "the refusal")
    check(open(os.path.join(shop, "tests", "taken_test.lua")).read() == "-- mine\n" and a.all(".okit-record-status"),
          "Save refuses a name whose file exists, and the recording goes on")
    a.find("#okit-record-name").type("web\ue007")
    a.wait(lambda: "Saved tests/web_test.lua" in a.find(".okit-notice").text(), "the save")
    check(a.all("button.okit-record-start") != [], "after Save the bar offers Record again")
finally:
    code = server.stop()
    driver.quit()

test = os.path.join(shop, "tests", "web_test.lua")
text = open(test).read() if os.path.exists(test) else ""
for line in ['local app = launch("../app.lua", { now = "', "app:add()", 'app:respond("OK", { "Anna Karenina" })',
             'assert.equal("Book Shop", app:screen().screen.title)', 'app:tap("Dune")',
             'assert.equal("Book", app:screen().screen.title)', "app:edit(true)", 'app:set("name", "Dune Messiah")',
             "app:back()", 'app:delete("Emma")', 'app:respond("Yes")']:
    check(line in text, f"the test has {line}")
check("(a fresh data folder)" in text and "fixtures" not in text, "a recording started on the seeded data launches fresh")
run = subprocess.run([okit_run, "test", "tests/web_test.lua"], cwd=shop, capture_output=True, text=True, timeout=120)
check(run.returncode == 0, f"okit-run test tests/web_test.lua passes as saved ({run.stdout[-600:]}{run.stderr[-600:]})")
app_lua = os.path.join(shop, "app.lua")
source = open(app_lua).read()
open(app_lua, "w").write(source.replace('titlePath = "%Book Shop"', 'titlePath = "%My Books"'))
run = subprocess.run([okit_run, "test", "tests/web_test.lua"], cwd=shop, capture_output=True, text=True, timeout=120)
out = run.stdout + run.stderr
check(run.returncode != 0 and '"Book Shop"' in out and '"My Books"' in out,
      f"with the title renamed in app.lua the test fails naming it ({out[-800:]})")
check(code == 143, f"SIGTERM stores the state and exits 143 (got {code})")
done(lambda: print(text + "\n" + server.output()[-2000:]))
