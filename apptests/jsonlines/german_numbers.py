#!/usr/bin/env python3
"""Numbers typed in German over JSON lines, as a person types them (bindings.md "Reading a format back"): in shell
syntax `set Betrag 1.500` is 1500 and `12,50` is 12.5 (a word that is not digits alone reaches the cell as text,
read in the app's language — read as a number first, `1.500` was 1.5); a JSON number is written as is through a
format; a date is read as German writes it (03.05.2019); a text the format cannot read is refused with the field's label and an example in German, and nothing
changes. Usage: german_numbers.py OKIT_RUN DATA_DIR. Exit 0 when every check holds."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from okitjson import Okit, cells  # noqa: E402

okit_run, data = sys.argv[1], sys.argv[2]
os.makedirs(data, exist_ok=True)
app = os.path.join(data, "app.lua")
with open(app, "w") as f:
    f.write("""local okit = require "okit"
okit.locale { language = "de", region = "DE" }
okit.entity("Ausgabe", { title = "string", amount = { "double", min = 0.01, label = "Betrag" }, qty = "double", date = "date" })
okit.entity("Buch", { expenses = "[Ausgabe]" })
okit.model("Buch", { seed = function(root) root.expenses:append(okit.new("Ausgabe", { title = "Miete", amount = 3.5, qty = 1 })) end })
okit.list("ausgaben", { type = "Ausgabe", dataPath = "expenses", cell = { path = "title" }, segue = "ausgabe" })
okit.detail("ausgabe", { titlePath = "title", sections = { {
  okit.cell.text { path = "%Betrag", id = "Betrag", textPath = "amount/currency(#EUR)" },
  okit.cell.text { path = "%Menge", id = "Menge", textPath = "qty" },
  okit.cell.date { path = "%Datum", id = "Datum", datePath = "date" } } } })
okit.app { id = "zahlen", home = "ausgaben" }
""")
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


p = Okit(okit_run, app, os.path.join(data, "d"), "de", args=["--clock", "virtual"])
send = p.send


def shown(answer, cell):
    return cells(answer).get(cell) if "snapshot" in answer else None


send("tap 1")
send("edit on")
a = send("set Betrag 1.500")
check(a["ok"] and shown(a, "Betrag") == "1.500,00\u00a0€", "1.500 typed is 1500: %r" % a.get("error", shown(a, "Betrag")))
a = send("set Betrag 12,50")
check(a["ok"] and shown(a, "Betrag") == "12,50\u00a0€", "12,50 typed is 12.5: %r" % a.get("error", shown(a, "Betrag")))
a = send({"cmd": "set", "cell": "Betrag", "value": 7.25})
check(a["ok"] and shown(a, "Betrag") == "7,25\u00a0€", "a JSON number is written as is: %r" % a.get("error", shown(a, "Betrag")))
a = send("set Menge 1.234")
check(a["ok"] and str(shown(a, "Menge")) in ("1234", "1234.0", "1.234"), "a plain double cell reads 1.234 as 1234: %r" % a.get("error", shown(a, "Menge")))
a = send("set Menge 12,5x")
check(not a["ok"] and a["error"] == "Menge: „12,5x“ ist keine Zahl wie 1.234,56",
      "a plain number field refuses in German with its cell's title as the page shows it, not its field's name: %r" % a)
a = send("set Datum 03.05.2019")
check(a["ok"] and shown(a, "Datum") == "2019-05-03T00:00:00Z", "a date typed as German writes it: %r" % a.get("error", shown(a, "Datum")))
a = send("set Datum 33.5.2019")
check(not a["ok"] and a["error"] == "Datum: „33.5.2019“ ist kein Datum wie 01.05.19, 10:00 oder 2019-05-01T10:00:00Z",
      "a text that is no date is refused in German with an example: %r" % a)
a = send("set Betrag 12,5x")
check(not a["ok"] and a["error"] == "Betrag: „12,5x“ ist keine Zahl wie 1.234,56\u00a0€", "refused in German with an example: %r" % a)
a = send("screen")
check(shown(a, "Betrag") == "7,25\u00a0€", "nothing changed: %r" % shown(a, "Betrag"))
check(p.quit() == 0, "quit stores and ends")
if failures:
    print("\n".join(failures))
    sys.exit(1)
print("german numbers: ok")
