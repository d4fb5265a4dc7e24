#!/usr/bin/env python3
"""An app in Arabic in headless Chromium (web.md "Pages and forms"): the page says `<html lang="ar-EG" dir="rtl">`
and is laid out mirrored by the one stylesheet — text starts on the right, the back link sits on the right and the
bar's buttons on the left, a row's disclosure chevron at the row's left end, the chevrons shown pointing the way
the page reads. Set to `dir="ltr"`, the same page lays out the other way round.

Usage: browser_rtl.py OKIT_RUN WORKDIR [IMGDIR] — screenshots go to IMGDIR when given."""
import os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import check, done
from webdriver import Driver, Server

okit_run, work = sys.argv[1], sys.argv[2]
shots = sys.argv[3] if len(sys.argv) > 3 else None
os.makedirs(work, exist_ok=True)
app = os.path.join(work, "app.lua")
with open(app, "w") as f:
    f.write('''local okit = require "okit"
okit.strings("ar", {
  ["Dishes"] = "الأطباق", ["Name"] = "الاسم", ["Spicy"] = "حار",
  Back = "رجوع", Edit = "تعديل", Done = "تم", Search = "بحث", Add = "إضافة", Delete = "حذف",
})
okit.entity("Dish", { name = "string", spicy = "bool" })
okit.entity("Menu", { dishes = "[Dish]" })
menu = okit.model("Menu", { seed = function(root)
  root.dishes:append(okit.new("Dish", { name = "كبسة", spicy = true }))
  root.dishes:append(okit.new("Dish", { name = "فلافل", spicy = false }))
end })
okit.list("dishes", { type = "Dish", dataPath = "dishes", titlePath = "%Dishes", rowSort = "name",
  cell = { path = "name" }, segue = "dish" })
okit.detail("dish", { titlePath = "name", sections = {
  { okit.cell.text { path = "%Name", textPath = "name" }, okit.cell.switch { path = "%Spicy", onPath = "spicy" } },
} })
okit.app { id = "dishes", home = "dishes" }
''')
server = Server(okit_run, app, os.path.join(work, "data"), extra=("--lang", "ar_EG"))
driver = Driver()

RECT = "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.right];"


TEXT = ("const r = document.createRange(); r.selectNodeContents(document.querySelector(arguments[0]));"
        "const b = r.getBoundingClientRect(); return [b.left, b.right];")


def rect(b, css):
    return b.script(RECT, css)


def text_rect(b, css):
    """Where an element's text is drawn (not its box)."""
    return b.script(TEXT, css)


def pseudo(b, css, which):
    """The content and direction of an element's ::before or ::after."""
    return b.script("const s = getComputedStyle(document.querySelector(arguments[0]), arguments[1]);"
                    "return [s.content, s.direction];", css, which)


def shot(b, name):
    if shots:
        time.sleep(0.3)
        b.screenshot(os.path.join(shots, name))


def row_chevron_side(b):
    """Which end of the first row the chevron takes: the row's text fills the rest (flex: 1)."""
    main, text = rect(b, "main .okit-row-main.okit-disclosure"), rect(b, "main .okit-row-main.okit-disclosure .okit-text")
    left, right = text[0] - main[0], main[1] - text[1]
    return "left" if left > 8 and right < 2 else "right" if right > 8 and left < 2 else f"unclear ({left}, {right})"


try:
    a = driver.browser()
    a.get(server.url + "/dishes")
    html = a.script("const h = document.documentElement; return [h.lang, h.dir, getComputedStyle(h).direction];")
    check(html == ["ar-EG", "rtl", "rtl"], f"the page is Arabic and right to left ({html})")
    check(a.find("h1").text() == "الأطباق", "the title in the app's Arabic")
    h1, box = text_rect(a, "main h1"), rect(a, "main h1")
    check(box[1] - h1[1] < 2 and h1[0] > (box[0] + box[1]) / 2, f"the title starts on the right ({h1} in {box})")
    check(row_chevron_side(a) == "left", f"a row's chevron sits at its left end ({row_chevron_side(a)})")
    chevron = pseudo(a, "main .okit-row-main.okit-disclosure", "::after")
    check(chevron == ['"›"', "rtl"], f"the chevron is right-to-left text, shown pointing left ({chevron})")
    bar, buttons = rect(a, "header.okit-bar"), rect(a, ".okit-bar-buttons")
    check(buttons[0] - bar[0] < (bar[1] - bar[0]) / 2 and buttons[1] < (bar[0] + bar[1]) / 2 + 1,
          f"the bar's buttons sit on the left ({buttons} in {bar})")
    shot(a, "web-rtl-list.png")

    a.find("main a.okit-row-main").click()
    a.wait(lambda: "/dish~" in a.url(), "a dish's detail")
    back, bar = rect(a, ".okit-back"), rect(a, "header.okit-bar")
    check(back[0] > (bar[0] + bar[1]) / 2, f"the back link sits on the right ({back} in {bar})")
    arrow = pseudo(a, ".okit-back", "::before")
    check(arrow == ['"‹ "', "rtl"], f"its chevron is right-to-left text, shown pointing right ({arrow})")
    check(a.find(".okit-back").text().startswith("رجوع"), "the back link says رجوع")
    label, control = text_rect(a, "main .okit-control > label"), rect(a, "main .okit-control")
    check(control[1] - label[1] < 2 and label[0] > (control[0] + control[1]) / 2,
          f"a cell's title starts on the right ({label} in {control})")
    shot(a, "web-rtl-detail.png")

    # The same stylesheet, the page set left to right: everything on the other side.
    a.back()
    a.wait(lambda: a.url().endswith("/dishes"), "the list again")
    a.script("document.documentElement.dir = 'ltr'")
    check(row_chevron_side(a) == "right", f"left to right, the chevron sits at the row's right end ({row_chevron_side(a)})")
    bar, buttons = rect(a, "header.okit-bar"), rect(a, ".okit-bar-buttons")
    check(buttons[1] > (bar[0] + bar[1]) / 2, f"left to right, the bar's buttons sit on the right ({buttons} in {bar})")
    h1, box = text_rect(a, "main h1"), rect(a, "main h1")
    check(h1[0] - box[0] < 2, f"left to right, the title starts on the left ({h1} in {box})")
finally:
    code = server.stop()
    driver.quit()

done(lambda: print(server.output()[-2000:]))
