#!/usr/bin/env python3
"""Files over the web in headless Chromium (web.md "Files"): a book's cover added with its Add Cover button shows
as an <img> whose URL answers image/png; a backup created on the backups screen (menu → Backups) is downloaded
with the browser's cookie, uploaded back through the upload form (checked like a restore, kept under a name of its
own), and restored with its password and confirmation, which brings the data back as it was.

Usage: browser_backups.py OKIT_RUN WORKDIR [IMGDIR]"""
import os, sys, urllib.error, urllib.request
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import check, done
from webdriver import Driver, Server

okit_run, work = sys.argv[1], sys.argv[2]
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
app = os.path.join(root, "examples/bookshop/app.lua")
os.makedirs(work, exist_ok=True)
server = Server(okit_run, app, os.path.join(work, "data"), env={"OKIT_PASSPHRASE": "correct horse"})
driver = Driver()
PASSWORD = "backup pass 1"




def rows(b):
    return b.texts("main .okit-row .okit-text")


def fetch(b, path, data=None, headers=None):
    """GET (or POST) with the browser's session cookie: (status, headers, body)."""
    cookie = [c for c in b._("GET", "/cookie") if c["name"] == "okit_session"][0]["value"]
    req = urllib.request.Request(server.url + path, data=data, headers={"Cookie": "okit_session=" + cookie, **(headers or {})},
                                 method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def click_button(b, title):
    b.script("""const t = arguments[0];
        const x = [...document.querySelectorAll('main button')].find(e => e.textContent.trim() === t && !e.disabled);
        if (!x) throw new Error('no button ' + t); x.click();""", title)


def open_backups(b):
    b.get(server.url + "/books")
    b.find("button.okit-menu-button").click()
    b.find("form:has(input[name=title][value=Backups]) button").click()
    b.wait(lambda: b.find("h1").text() == "Backups", "the backups screen")


def backup_names(b):
    return [t.split("\n")[0] for t in b.texts("main li.okit-backup .okit-text")]


try:
    a = driver.browser()
    a.get(server.url + "/books")
    before = rows(a)

    # A cover through the detail screen's Add Cover button; its <img> answers the PNG.
    a.find("main a[href*='/book~']").click()
    a.wait(lambda: "/book~" in a.url(), "a book's detail")
    if a.script("return [...document.querySelectorAll('main button')].some(e => e.textContent.trim() === 'Add Cover' && e.disabled)"):
        click_button(a, "Remove Cover")                   # the seeded book has a cover already
        a.wait(lambda: not a.all("main img[src^='/image/']"), "the cover removed")
    click_button(a, "Add Cover")
    a.wait(lambda: a.all("main img[src^='/image/']"), "the cover's image")
    src = a.find("main img[src^='/image/']").attribute("src")
    status, headers, body = fetch(a, src)
    check(status == 200 and headers.get("Content-Type") == "image/png" and body.startswith(b"\x89PNG"),
          f"the cover's <img src> answers an image/png ({status} {headers.get('Content-Type')})")
    check(headers.get("X-Content-Type-Options") == "nosniff", "an image carries nosniff")
    a.wait(lambda: a.script("const i = document.querySelector(\"main img[src^='/image/']\"); return i.complete && i.naturalWidth > 0"),
           "the browser decoded the cover")
    check(True, "the browser shows the cover")
    check(fetch(a, "/image/99/0")[0] == 404, "an image URL of no row answers 404")

    # Create a backup on the backups screen (name, password, confirmation).
    open_backups(a)
    a.find("#okit-backup-name").type("web one")
    a.find("#okit-backup-password").type(PASSWORD)
    a.find("#okit-backup-confirm").type(PASSWORD)
    click_button(a, "Create Backup")
    a.wait(lambda: "web one" in backup_names(a), "the new backup in the list")
    check(True, "a backup created on the backups screen shows in the list")

    # Download it with the browser's cookie.
    href = a.find("main li.okit-backup a[download][href$='/web%20one']").attribute("href")
    status, headers, backup = fetch(a, href)
    check(status == 200 and headers.get("Content-Type") == "application/octet-stream" and len(backup) > 100,
          f"the download answers the backup's bytes ({status}, {len(backup)} bytes)")
    check('filename="web one.okbackup"' in headers.get("Content-Disposition", ""), "the download is an attachment named after the backup")
    check(fetch(a, "/backups/..%2Fdata%2Fdefault.json")[0] == 404, "a download names only listed backups")
    saved = os.path.join(work, "downloaded.okbackup")
    with open(saved, "wb") as f:
        f.write(backup)

    # Change the data: a book the restore takes away.
    a.get(server.url + "/books")
    a.find("button[aria-label=Add]").click()
    a.find("dialog[open] input[name=fields]").type("Zebra After Backup")
    a.find("dialog[open] button[name=action]").click()
    a.wait(lambda: "Zebra After Backup" in rows(a), "the book added after the backup")

    # A forged upload (no CSRF token) is refused.
    forged = fetch(a, "/backups", data=b"--b\r\nContent-Disposition: form-data; name=\"backup\"; filename=\"x.okbackup\"\r\n\r\nx\r\n--b--\r\n",
                   headers={"Content-Type": "multipart/form-data; boundary=b"})
    check(forged[0] == 403, f"an upload without the CSRF token answers 403 (got {forged[0]})")

    # Upload the downloaded file through the form: checked (with its password) and kept as "downloaded".
    open_backups(a)
    a.find("#okit-backup-file").type(saved)
    a.find("#okit-backup-upload-password").type(PASSWORD)
    click_button(a, "Upload")
    a.wait(lambda: "downloaded" in backup_names(a), "the uploaded backup in the list")
    check("uploaded and checked" in a.find("main [role=status]").text(), "the upload says it was checked")

    # Restore the uploaded backup with its password and the confirmation.
    item = [e for e in a.all("main li.okit-backup") if e.text().startswith("downloaded")]
    check(len(item) == 1, "one row for the uploaded backup")
    a.script("""const li = [...document.querySelectorAll('main li.okit-backup')].find(e => e.textContent.trim().startsWith('downloaded'));
        li.querySelector('form.okit-restore button').click();""")
    a.wait(lambda: a.all("dialog[open]"), "the restore's confirmation")
    check(not a.all("dialog[open] input[name=fields]"), "the first dialog asks to confirm, nothing else")
    # Each dialog in turn (the confirmation, the password, the result): after each answer the next page is waited
    # for by the page's version and dialog, so a dialog on its way out is never answered twice.
    state = "return document.body.getAttribute('data-version') + '|' + (document.querySelector('dialog[open]') || {}).textContent"
    for _ in range(4):
        a.wait(lambda: a.find("h1").text(), "the page after restore")
        if not a.all("dialog[open]"):
            break
        for field in a.all("dialog[open] input[name=fields]"):
            field.type(PASSWORD)
        buttons = []

        def answers():
            buttons[:] = [b for b in a.all("dialog[open] button[name=action]") if b.text() not in ("Cancel", "No")]
            return buttons
        a.wait(answers, "the dialog's answer")
        before_answer = a.script(state)
        buttons[0].click()
        a.wait(lambda: a.script(state) != before_answer, "the page after the answer")
    a.get(server.url + "/books")
    after = rows(a)
    check("Zebra After Backup" not in after and sorted(after) == sorted(before),
          f"the restore brought the data back as it was ({len(before)} books before, {len(after)} after)")
finally:
    code = server.stop()
    driver.quit()

check(code == 143, f"SIGTERM stores the state and exits 143 (got {code})")
done(lambda: print(server.output()[-2000:]))
