#!/usr/bin/env python3
"""The protection cover in headless Chromium (spec web.md "Sessions": protection on the web is per session): the
bookshop served with OKIT_PASSPHRASE, Protection turned on in Settings, the page reported hidden the way the page
script reports it, then the cover (a passphrase form, nothing of the models), a wrong passphrase refused, the right
one uncovering; another browser's session is not covered by the first one's cover. With the passphrase the cover is
a lock: a browser that comes later (without the covered session's cookie) starts covered and sees nothing until it
answers the passphrase (web.md "Security").

Usage: protection.py OKIT_RUN WORKDIR"""
import os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import check, check_fixed, done

from webdriver import Driver, Server

okit_run, work = sys.argv[1], sys.argv[2]
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
app = os.path.join(root, "examples/bookshop/app.lua")
os.makedirs(work, exist_ok=True)
PASSPHRASE = "correct horse"
BOOKS = ["Dune", "Emma"]                                   # the bookshop's seeded books
server = Server(okit_run, app, os.path.join(work, "data"), env={"OKIT_PASSPHRASE": PASSPHRASE})
driver = Driver()




def rows(b):
    return b.texts("main .okit-row .okit-text")

def covered(b):
    return bool(b.all("form:has(input[name=command][value=authenticate]) input[type=password]"))

# The page script's way of reporting a hidden page (Sources/OKitWeb/Static/Script.swift, reportHidden): a FormData
# of the body's data-csrf, data-location and command=hidden, posted to data-command.
SCRIPT_WAY = """
var done = arguments[arguments.length - 1];
var b = document.body, form = new URLSearchParams();
form.append("csrf", b.getAttribute("data-csrf"));
form.append("at", b.getAttribute("data-location"));
form.append("command", "hidden");
fetch(b.getAttribute("data-command"), {method: "POST", body: form, credentials: "same-origin", redirect: "manual"})
  .then(function (r) { done(r.status); }, function (e) { done("error " + e); });
"""
# The same fields as a form (application/x-www-form-urlencoded).
FORM_WAY = """
var done = arguments[arguments.length - 1];
var b = document.body;
fetch(b.getAttribute("data-command"), {method: "POST", credentials: "same-origin", redirect: "manual",
  body: new URLSearchParams({csrf: b.getAttribute("data-csrf"), command: "hidden", at: location.pathname})})
  .then(function (r) { done(r.status); }, function (e) { done("error " + e); });
"""

NOT_COVERED = "the hidden command answers 204 but the next page is not the cover"

def run_async(b, js):
    return b._("POST", "/execute/async", {"script": js, "args": []})

try:
    a = driver.browser()
    a.get(server.url + "/books")
    a.wait(lambda: a.find("h1").text().startswith("Book Shop"), "the books list")
    check(all(n in rows(a) for n in BOOKS) and not covered(a), "the books list shows, not covered")

    # Settings from the menu: the Protection switch on.
    a.find("button.okit-menu-button").click()
    a.find("form:has(input[name=title][value=Settings]) button").click()
    a.wait(lambda: a.find("h1").text() == "Settings", "the settings screen")
    switch = "main form:has(input[name=cell][value=Protection]) input[type=checkbox][role=switch]"
    check(a.find(switch).prop("checked") is False, "Protection starts off")
    a.find(switch).click()
    a.wait(lambda: a.find(switch).prop("checked") is True, "the Protection switch on")
    a.refresh()
    check(a.find(switch).prop("checked") is True, "Protection is on after a reload (stored in the settings model)")
    check(not covered(a), "turning it on does not cover the page by itself")

    # The page reported hidden, exactly as the page script does it (FormData).
    status = run_async(a, SCRIPT_WAY)
    check_fixed(status in (204, 0, 303) or (isinstance(status, int) and status < 400),
                   f"the page script's own hidden report (URL-encoded, as Script.swift sends it) is accepted ({status})",
                   "Script.swift reportHidden posts a FormData (multipart/form-data) and WebResponder answers every "
                   "POST that is not application/x-www-form-urlencoded 415, so a hidden page never covers its session")
    a.get(server.url + "/books")
    script_way_covered = covered(a)
    check_fixed(script_way_covered, "after the script's own hidden report a reload shows the cover",
                   "the multipart hidden report was refused (see above)")
    if not script_way_covered:
        # The same fields as a form, which the server takes.
        status = run_async(a, FORM_WAY)
        check(status == 204 or status == 0, f"a hidden report as a form (csrf, command=hidden, at) answers 204 ({status})")

    # Covered: the passphrase form, nothing of the models.
    a.get(server.url + "/books")
    cover_works = check_fixed(covered(a), "after the hidden report a reload shows the cover: a passphrase form with an input[type=password]",
                                 NOT_COVERED)
    # A browser that comes now is a launch: with protection on and a passphrase to check, it starts covered, and
    # nothing of the models shows until it answers the passphrase.
    b = driver.browser()
    b.get(server.url + "/books")
    check(covered(b) and not any(n in b.source() for n in BOOKS),
          "a new browser (no cookie of a's) starts covered under a lock and shows no book names")
    b.find("form:has(input[name=command][value=authenticate]) input[type=password]").type(PASSPHRASE)
    b.find("form:has(input[name=command][value=authenticate]) button").click()
    b.wait(lambda: not covered(b), "b's cover lifted")
    b.get(server.url + "/books")
    b.wait(lambda: b.find("h1").text().startswith("Book Shop"), "the books list in the other browser")
    # Protection is per session: b's passphrase did not lift a's cover, and a's cover does not cover b.
    check(not covered(b) and all(n in rows(b) for n in BOOKS), "another browser's session is not covered by the first one's cover")
    if cover_works:
        source = a.source()
        check(not any(n in source for n in BOOKS), "the covered page holds no book names")
        check(not a.all("nav[aria-label=Tabs]") and not a.all("main .okit-row"), "nor tabs or rows")
        a.get(server.url + "/books/!/settings")
        check(covered(a) and "Dune" not in a.source(), "a deep link elsewhere is covered too")

        # A wrong passphrase: an error, still covered.
        a.find("form:has(input[name=command][value=authenticate]) input[type=password]").type("wrong horse")
        a.find("form:has(input[name=command][value=authenticate]) button").click()
        a.wait(lambda: a.all("[role=alert]"), "the error of a wrong passphrase")
        check(covered(a) and a.find("[role=alert]").text() != "",
              f"a wrong passphrase shows an error ({a.find('[role=alert]').text()!r}) and stays covered")
        check("Dune" not in a.source(), "still nothing of the models")
        b.refresh()
        check(not covered(b), "the other browser is still not covered")

        # The right passphrase uncovers.
        a.find("form:has(input[name=command][value=authenticate]) input[type=password]").type(PASSPHRASE)
        a.find("form:has(input[name=command][value=authenticate]) button").click()
        a.wait(lambda: not covered(a), "the cover lifted")
        a.get(server.url + "/books")
        check(not covered(a) and all(n in rows(a) for n in BOOKS), "the right passphrase uncovers: the books show again")

        # b hides its page: only b is covered now.
        run_async(b, FORM_WAY)
        b.refresh()
        a.refresh()
        check(covered(b) and not covered(a), "b's hidden report covers b only")
        b.find("form:has(input[name=command][value=authenticate]) input[type=password]").type(PASSPHRASE)
        b.find("form:has(input[name=command][value=authenticate]) button").click()
        b.wait(lambda: not covered(b), "b uncovered")
        check(True, "b uncovers with the passphrase")
    else:
        for what in ("the covered page holds no book names, tabs or rows", "a wrong passphrase shows an error and stays covered",
                     "the right passphrase uncovers", "b's hidden report covers b only"):
            check_fixed(False, what, "not run: the session is never covered (see above)")

    # The real thing: the tab hidden by switching to a new tab (visibilitychange runs the page script's report).
    a.get(server.url + "/books")
    a.script("window.okitSeen = []; document.addEventListener('visibilitychange', function () {"
             " window.okitSeen.push(document.visibilityState); });")
    handle = a._("GET", "/window")
    new = a._("POST", "/window/new", {"type": "tab"})
    a._("POST", "/window", {"handle": new["handle"]})
    a.get(server.url + "/static/okit.css")
    time.sleep(1.0)
    a._("DELETE", "/window")
    a._("POST", "/window", {"handle": handle})
    seen = a.script("return window.okitSeen")
    check("hidden" in (seen or []), f"headless Chromium hides a tab behind another one (visibilitychange: {seen})")
    time.sleep(0.5)
    a.get(server.url + "/books")
    if check_fixed(covered(a), "a tab hidden in the browser (visibilitychange, the page script's own report) is covered after it",
                      "the script's FormData report is answered 415 (see above)"):
        a.find("form:has(input[name=command][value=authenticate]) input[type=password]").type(PASSPHRASE)
        a.find("form:has(input[name=command][value=authenticate]) button").click()
        a.wait(lambda: not covered(a), "the cover lifted")
finally:
    code = server.stop()
    driver.quit()

check(code == 143, f"SIGTERM stores the state and exits 143 (got {code})")
done(lambda: print(server.output()[-2000:]))
