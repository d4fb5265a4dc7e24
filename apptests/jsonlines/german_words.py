#!/usr/bin/env python3
"""The built-in words in the app's language over JSON lines (issue 36 item 6): under --lang de the bar buttons,
scopes, the add prompt, the delete confirmation, the action sheet and validation messages are German (OKit's
words, the app's own string for Cancel over them); an action answered by its English name still works; without
--lang the same app speaks English as before.
Usage: german_words.py OKIT_RUN DATA_DIR. Exit 0 when every check holds."""
import json
import os
import subprocess
import sys

okit_run, data = sys.argv[1], sys.argv[2]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def start(name, extra):
    return subprocess.Popen([okit_run, "apptests/flows/german_app.lua", "--data", os.path.join(data, name), "--clock",
                             "virtual", "--json"] + extra, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)


def send(p, command):
    p.stdin.write((command if isinstance(command, str) else json.dumps(command)) + "\n")
    p.stdin.flush()
    answer = p.stdout.readline()
    if not answer:
        sys.exit("okit-run ended early: " + p.stderr.read())
    return json.loads(answer)


def titles(answer):
    return [b["title"] for b in answer["snapshot"]["screen"]["buttons"]]


p = start("de", ["--lang", "de"])
a = send(p, {"cmd": "screen"})
check(titles(a) == ["Bearbeiten", "+"], "bar buttons: %r" % titles(a))
check(a["snapshot"]["screen"]["search"]["scopes"] == ["Alle", "Dog", "Cat"], "scopes: %r" % a["snapshot"]["screen"]["search"])
a = send(p, {"cmd": "add"})
alert = a["snapshot"]["alert"]
check(alert["title"] == "Neu: Tier" and alert["message"] == "Name für Tier eingeben", "the prompt: %r" % alert)
check(alert["actions"] == ["OK", "Lieber nicht"], "the app's Cancel wins: %r" % alert)
a = send(p, {"cmd": "respond", "action": "OK", "fields": [" "]})
check(not a["ok"] and a["error"] == "OK abgelehnt: Name ist erforderlich",
      "an empty name is refused with the rule's message, in German: %r" % a)
a = send(p, {"cmd": "respond", "action": "Cancel"})
check(a["ok"] and a["snapshot"].get("alert") is None, "English names answer built-in actions: %r" % a)
a = send(p, {"cmd": "more", "row": 1})
check(a["snapshot"]["alert"]["message"] == "Aktion auswählen" and a["snapshot"]["alert"]["actions"] == ["Impfen", "Lieber nicht"],
      "the action sheet: %r" % a["snapshot"]["alert"])
send(p, {"cmd": "respond", "action": 2})
a = send(p, "edit on")
check(titles(a)[0] == "Fertig", "Done: %r" % titles(a))
a = send(p, {"cmd": "delete", "row": 1})
alert = a["snapshot"]["alert"]
check(alert["title"] == "Löschen bestätigen" and alert["actions"] == ["Ja", "Nein"], "the confirmation: %r" % alert)
send(p, {"cmd": "respond", "action": "No"})
send(p, "edit off")
send(p, {"cmd": "tap", "row": 1})
send(p, "edit on")
a = send(p, {"cmd": "set", "cell": "Fee", "value": "-5"})
check(a == {"ok": False, "error": "Gebühr muss mindestens 0 sein"}, "the rule's message in German: %r" % a)
send(p, {"cmd": "quit"})
p.wait(timeout=30)

p = start("en", [])
a = send(p, {"cmd": "add"})
alert = a["snapshot"]["alert"]
check(titles(a) == ["Edit", "+"] and alert["title"] == "New Pet" and alert["message"] == "Enter name for this Pet"
      and alert["actions"] == ["OK", "Cancel"], "English as before: %r" % a["snapshot"])
send(p, {"cmd": "quit"})
p.wait(timeout=30)

if failures:
    print("\n".join(failures))
    sys.exit(1)
